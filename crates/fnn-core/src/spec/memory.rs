//! What a search on a cluster takes in memory, checked before it starts:
//! at 16384 PCs one member of the population is most of a megabyte and a
//! local search's pair weights a gigabyte, so a population of thousands
//! could take the machine down.

use super::{Cluster, Coverage, Preset, SpecError};

impl Cluster {
    /// The population (one generation, and the designs kept beside it)
    /// and the local searches running side by side must fit in the
    /// machine's memory budget; a population that would not is refused
    /// with the largest that fits.
    pub fn check_search_memory(&self) -> Result<(), SpecError> {
        let need = self.search_memory();
        let budget = crate::budget::memory();
        if need.total() <= budget {
            return Ok(());
        }
        let fits = (budget.saturating_sub(need.local + need.working) / need.member).saturating_sub(SPARE_MEMBERS);
        let human = crate::budget::human;
        Err(SpecError::field(
            self.source.as_str(),
            "ga.population",
            format!(
                "{} members of {} PCs need about {} ({} each{}), more than the {} this \
                 machine can give (free memory, or {}); use at most {}",
                self.ga.population,
                self.pcs(),
                human(need.total()),
                human(need.member),
                [
                    (need.working, "for the masks of the members in use"),
                    (need.local, "for the local searches")
                ]
                .iter()
                .filter(|(bytes, _)| *bytes > 0)
                .map(|(bytes, what)| format!(", and {} {what}", human(*bytes)))
                .collect::<String>(),
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
    pub(crate) fn search_memory(&self) -> SearchMemory {
        let g = &self.ga;
        let (p, s) = (self.pcs() as u64, self.switch_count() as u64);
        let ports: u64 = self.switches.iter().map(|w| u64::from(w.ports)).sum();
        let nics: u64 = self.nics.iter().map(|&n| u64::from(n)).sum();
        // A genome's entries (a slot per port and per NIC left uncabled),
        // its masks unless it sheds them while idle, and the evaluation's
        // per-PC and per-switch counts.
        let masks = 8 * p * s.div_ceil(64).max(1);
        let lean = masks > LEAN_MASKS_ABOVE;
        let member = 4 * (ports + nics) + if lean { 0 } else { masks } + 4 * p + 4 * s + 256;
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
            // Where members shed their masks, each thread's new member
            // and the two parents it restored, and the spare members.
            working: if lean {
                (3 * threads as u64 + SPARE_MEMBERS) * masks
            } else {
                0
            },
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

/// A member's masks (P x switches bits) over this many bytes are shed
/// while it is idle and built again from its entries to breed or walk: a
/// population's memory then follows P x NICs, not P x switches.
pub const LEAN_MASKS_ABOVE: u64 = 256 * 1024;

/// Members alive beside the population: the best design so far, and a
/// search's designs before they replace the worst members. (The next
/// generation is built after the members not kept are dropped.)
const SPARE_MEMBERS: u64 = 2;

/// A search's memory, estimated from the cluster's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchMemory {
    pub member: u64,
    /// The masks of the members in use, where members shed theirs.
    pub working: u64,
    pub population: u64,
    pub local: u64,
}

impl SearchMemory {
    /// The population, the members kept beside it, the masks of those in
    /// use, and the local searches.
    pub fn total(&self) -> u64 {
        ((self.population + SPARE_MEMBERS) * self.member)
            .saturating_add(self.working)
            .saturating_add(self.local)
    }
}
