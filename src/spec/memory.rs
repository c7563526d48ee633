//! What a search on a cluster takes in memory, checked before it starts:
//! at 16384 PCs one member of the population is most of a megabyte and a
//! local search's pair weights a gigabyte, so a population of thousands
//! could take the machine down.

use super::{Cluster, Coverage, Preset, SpecError};

impl Cluster {
    /// The population (two generations at once) and the local searches
    /// running side by side must fit in the machine's memory budget; a
    /// population that would not is refused with the largest that fits.
    pub fn check_search_memory(&self) -> Result<(), SpecError> {
        let need = self.search_memory();
        let budget = crate::budget::memory();
        if need.total() <= budget {
            return Ok(());
        }
        let fits = budget.saturating_sub(need.local) / (2 * need.member);
        let human = crate::budget::human;
        Err(SpecError::field(
            self.source.as_str(),
            "ga.population",
            format!(
                "{} members of {} PCs need about {} (two generations of {} each{}), more than the {} this \
                 machine can give (free memory, or {}); use at most {}",
                self.ga.population,
                self.pcs(),
                human(need.total()),
                human(need.member),
                if need.local > 0 {
                    format!(", and {} for the local searches", human(need.local))
                } else {
                    String::new()
                },
                human(budget),
                crate::budget::ENV,
                if fits >= 2 {
                    fits.to_string()
                } else {
                    "2 (and fewer local_members)".to_string()
                }
            ),
        ))
    }

    /// The bytes one member takes, and the local searches together.
    pub fn search_memory(&self) -> SearchMemory {
        let g = &self.ga;
        let (p, s) = (self.pcs() as u64, self.switch_count() as u64);
        let ports: u64 = self.switches.iter().map(|w| u64::from(w.ports)).sum();
        let nics: u64 = self.nics.iter().map(|&n| u64::from(n)).sum();
        // A genome's entries (a slot per port and per NIC left uncabled),
        // its masks, and the evaluation's per-PC and per-switch counts.
        let member = 4 * (ports + nics) + 8 * p * s.div_ceil(64).max(1) + 4 * p + 4 * s + 256;
        let slots = match self.coverage {
            Coverage::Universal => p * p,
            Coverage::Sparse => 2 * self.pattern.pair_count() as u64,
        };
        let threads = super::model::threads_for(g.threads);
        let preset = g.preset();
        let walks = match preset {
            Preset::Default | Preset::ExactFirst if g.local_search > 0 => g.local_members.min(threads) as u64,
            _ => 0,
        };
        SearchMemory {
            member,
            // The exact mode alone keeps one member.
            population: if preset == Preset::Exact {
                1
            } else {
                g.population as u64
            },
            // A walk's pair weights, its tabu list and its per-PC lists.
            local: walks * (4 * slots + 8 * p * s + 24 * p),
        }
    }
}

/// A search's memory, estimated from the cluster's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchMemory {
    pub member: u64,
    pub population: u64,
    pub local: u64,
}

impl SearchMemory {
    /// This generation and the next, and the local searches.
    pub fn total(&self) -> u64 {
        (2 * self.population * self.member).saturating_add(self.local)
    }
}
