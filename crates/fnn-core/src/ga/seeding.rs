//! Constructions as GA seeds: the design-theory layouts of
//! `design::constructions`, laid onto the cluster's real switches. The
//! widest construction switches go on the widest real ones; PCs that do
//! not fit (too few switches, too few ports, pins) are placed by the
//! straightforward rule, so the seed is always a closed genome and the GA
//! repairs whatever the truncation broke.

use super::Rng;
use super::eval::Eval;
use super::genome::Genome;
use super::problem::Problem;
use super::strategy::{Budget, Context, Found, Strategy};
use crate::design::constructions::{self, Built};
use crate::spec::Coverage;

/// The constructions as a strategy: a seed only. A seed that covers every
/// pair makes the scaled phase pointless (the run starts from it at full
/// size); one that does not joins the population at the scale-up.
pub struct Constructions;

impl Strategy for Constructions {
    fn name(&self) -> &'static str {
        "constructions"
    }

    fn seed(&self, full: &Problem, _budget: Budget<'_>) -> Option<Genome> {
        construction_seed(full).map(|(g, _)| g)
    }

    fn applies(&self, _ctx: &Context<'_>) -> bool {
        false
    }

    fn search(&self, _ctx: &Context<'_>, _rng: &mut Rng) -> Found {
        Found::default()
    }
}

/// The construction that leaves the fewest required pairs uncovered on
/// this problem, as a genome, with its uncovered count; `None` for sparse
/// problems (constructions cover every pair, far more than a pattern needs).
pub(crate) fn construction_seed(problem: &Problem) -> Option<(Genome, u64)> {
    let c = &problem.cluster;
    if c.coverage != Coverage::Universal || c.pcs() < 3 || c.switch_count() == 0 {
        return None;
    }
    let nics = c.nics.iter().copied().min().unwrap_or(0) as usize;
    let mut slots: Vec<usize> = (0..problem.switches()).collect();
    slots.sort_by_key(|&s| std::cmp::Reverse(c.ports(s)));
    constructions::candidates(nics)
        .iter()
        .map(|k| constructions::build(k, c.pcs()))
        .filter(|b| b.switches() > 0)
        .map(|b| {
            let g = lay_out(problem, &b, &slots);
            let uncovered = Eval::full(problem, &g).terms.uncovered;
            (g, uncovered)
        })
        .min_by_key(|(_, u)| *u)
}

fn lay_out(problem: &Problem, built: &Built, slots: &[usize]) -> Genome {
    let order: Vec<usize> = (0..problem.pcs()).collect();
    Genome::construct(problem, &order, &|pc| {
        built
            .design
            .switches_of(pc)
            .into_iter()
            .filter_map(|s| slots.get(s).copied())
            .collect()
    })
}
