//! The cheapest hardware for a spec (the papers' announced
//! "hardware costs" feature): which switch models, how many, and how many
//! NICs per PC give a valid FNN for the least money.
//!
//! Candidates are (NICs per PC, switch model, count). Each gets a lower
//! bound on its cost from the fewest switches the counting bounds allow;
//! they are tried cheapest bound first with the GA inside (seeded by the
//! constructions, so universal specs are usually solved at once), and the
//! search stops when no untried candidate's bound can beat the best design.
//! A found design is then re-priced switch by switch: each switch becomes
//! the cheapest model with the ports it actually uses, so the answer may
//! mix models.

use crate::design::{Design, constructions};
use crate::metrics::Metrics;
use crate::spec::{Cluster, Coverage, NicSpec, Preset, Spec, SpecError, SwitchModel, UplinkMode, check_feasible};
use serde::{Deserialize, Serialize};
use std::collections::BinaryHeap;
use std::sync::atomic::AtomicBool;

/// The built-in price list: Fast Ethernet parts at KLAT2-era prices.
pub(crate) const FAST_ETHERNET_TOML: &str = include_str!("../../../assets/prices/fast-ethernet.toml");

/// Switch models to choose from, and optionally the NIC and cable prices
/// (the spec's when omitted).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PriceList {
    pub nic: Option<NicSpec>,
    pub cable_price: Option<f64>,
    pub switches: Vec<SwitchModel>,
}

impl PriceList {
    pub fn from_toml(text: &str, source: &str) -> Result<PriceList, SpecError> {
        let list: PriceList = toml::from_str(text).map_err(|e| SpecError::Parse {
            file: source.to_string(),
            message: crate::spec::one_line_toml_error(text, &e),
        })?;
        if let Some(n) = &list.nic {
            crate::spec::text::check_label(source, "nic.model", &n.model, false)?;
            crate::spec::amount(source, "nic.price", n.price)?;
            crate::spec::check_number(
                source,
                "nic.speed_mbps",
                n.speed_mbps,
                true,
                crate::spec::MAX_SPEED_MBPS,
            )?;
        }
        if let Some(c) = list.cable_price {
            crate::spec::amount(source, "cable_price", c)?;
        }
        for (i, m) in list.switches.iter().enumerate() {
            crate::spec::text::check_label(source, &format!("switches[{i}].model"), &m.model, false)?;
        }
        if list.switches.is_empty() {
            return Err(SpecError::field(
                source,
                "switches",
                "at least one switch model is needed",
            ));
        }
        for (i, m) in list.switches.iter().enumerate() {
            if m.ports < 2 {
                return Err(SpecError::field(
                    source,
                    format!("switches[{i}].ports"),
                    format!("{} is not allowed: use at least 2 ports", m.ports),
                ));
            }
            crate::spec::amount(source, &format!("switches[{i}].price"), m.price)?;
        }
        Ok(list)
    }

    pub fn builtin() -> PriceList {
        PriceList::from_toml(FAST_ETHERNET_TOML, "assets/prices/fast-ethernet.toml").expect("the built-in list parses")
    }
}

/// What happened to one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tried {
    pub nics: u32,
    pub model: String,
    pub count: u32,
    /// The candidate's cost with every switch of the model.
    pub cost_bound: f64,
    /// "valid, re-priced to X", "no valid design in the budget" or the reason it is impossible.
    pub outcome: String,
    /// No design exists for it: the counting bounds or the exact search
    /// proved so (not merely "none found").
    pub impossible: bool,
}

pub struct Cheapest {
    /// The spec with the chosen hardware (open it, design with it).
    pub spec: Spec,
    pub cluster: Cluster,
    pub design: Design,
    pub metrics: Metrics,
    pub tried: Vec<Tried>,
    /// With the exact search on: whether every candidate listed below the
    /// answer's cost was proved impossible (`None`: exact search off).
    pub proved_cheapest: Option<bool>,
    /// The spec's own hardware as a candidate (also among `tried`): its
    /// cost priced as the answer is, and what the search made of it.
    pub own: Option<Tried>,
}

/// How long each candidate's GA runs.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub generations: u64,
    pub time_limit_s: f64,
    /// GA attempts per (NICs, model) below the count a construction needs.
    pub attempts: u32,
    /// The fewest NICs per PC to consider (more NICs buy bandwidth).
    pub min_nics: u32,
    /// Seconds of exact (SAT) search on a candidate the GA cannot realise,
    /// and on the largest count of each NICs and model still cheaper than
    /// the answer, to prove it impossible (0: off).
    pub exact_s: f64,
}

#[derive(Clone, Copy, PartialEq)]
struct Candidate {
    cost: f64,
    nics: u32,
    model: usize,
    count: u32,
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    /// Cheapest first in a max-heap; ties by fewer NICs, then model order.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .cost
            .total_cmp(&self.cost)
            .then(other.nics.cmp(&self.nics))
            .then(other.model.cmp(&self.model))
            .then(other.count.cmp(&self.count))
    }
}

/// Searches the hardware of `base` (its PCs, pattern, coverage, uplink and
/// at most its NICs per PC) over the models of `prices`.
/// Why no hardware was chosen.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum CheapestError {
    #[error("no candidate hardware gave a valid design within the budget")]
    NoValidDesign,
}

pub fn cheapest(
    base: &Spec,
    prices: &PriceList,
    budget: Budget,
    interrupted: &AtomicBool,
) -> Result<Cheapest, CheapestError> {
    let base = with_prices(base, prices);
    let stop = || interrupted.load(std::sync::atomic::Ordering::Relaxed);
    let mut tried = Vec::new();
    let mut queue = Queue::new(&base, prices, budget, &mut tried);
    // The spec's own hardware first: the answer is never dearer than what
    // the user already has, whatever models it mixes.
    let (mut best, own_tried) = match stop() {
        true => (None, None),
        false => {
            let (found, t) = realise_own(&base, prices, budget, interrupted);
            tried.push(t.clone());
            (found, Some(t))
        }
    };
    while let Some(c) = queue.heap.pop() {
        if best.as_ref().is_some_and(|b| b.metrics.cost.total <= c.cost + 1e-9) || stop() {
            break;
        }
        tried.push(queue.try_candidate(&base, prices, c, budget, interrupted, &mut best));
    }
    let mut best = best.ok_or(CheapestError::NoValidDesign)?;
    if budget.exact_s > 0.0 && !stop() {
        best.proved_cheapest = Some(prove_below(&base, prices, budget, &mut best, &mut tried));
    } else if unsettled_below(&base, prices, budget, best.metrics.cost.total, &tried).is_empty() {
        // The counting bounds alone left nothing cheaper to try.
        best.proved_cheapest = Some(true);
    }
    best.tried = tried;
    best.own = own_tried;
    Ok(best)
}

/// The spec with the price list's NIC and cable, and no pins (they name
/// switches of the spec's own hardware).
fn with_prices(base: &Spec, prices: &PriceList) -> Spec {
    let mut base = base.clone();
    if let Some(nic) = &prices.nic {
        base.nic = nic.clone();
    }
    if let Some(c) = prices.cable_price {
        base.cables.price = c;
    }
    base.pins.clear();
    base
}

/// The candidates still to try, cheapest bound first; per (NICs, model),
/// the counts after the one queued, in order.
struct Queue {
    heap: BinaryHeap<Candidate>,
    plans: Vec<Vec<Vec<u32>>>,
}

impl Queue {
    /// Every (NICs, model)'s first count worth trying; what counting rules
    /// out goes to `tried`.
    fn new(base: &Spec, prices: &PriceList, budget: Budget, tried: &mut Vec<Tried>) -> Queue {
        let own = own_hardware(base);
        let most_nics = *nic_counts(base, budget).end() as usize;
        let mut q = Queue {
            heap: BinaryHeap::new(),
            plans: vec![vec![Vec::new(); prices.switches.len()]; most_nics + 1],
        };
        for nics in nic_counts(base, budget) {
            for (m, model) in prices.switches.iter().enumerate() {
                // The spec's own count of this model is the own-hardware
                // candidate, searched first: searching it again would cost a
                // second search for the same answer.
                let own = own
                    .as_ref()
                    .filter(|(n, name, ports, _)| *n == nics && *name == model.model && *ports == model.ports)
                    .map(|o| o.3);
                match plan(base, prices, nics, model, budget.attempts) {
                    Ok(counts) => q.add(base, prices, (nics, m), counts, own, tried),
                    Err(reason) => tried.push(Tried {
                        nics,
                        model: model.model.clone(),
                        count: 0,
                        cost_bound: f64::NAN,
                        outcome: reason.to_string(),
                        impossible: true,
                    }),
                }
            }
        }
        q
    }

    /// Queues the first of `counts` (the own-hardware count left out) for
    /// `nics` NICs and model `m`, and keeps the rest.
    fn add(
        &mut self,
        base: &Spec,
        prices: &PriceList,
        (nics, m): (u32, usize),
        (mut counts, refused): Plan,
        own: Option<u32>,
        tried: &mut Vec<Tried>,
    ) {
        let model = &prices.switches[m];
        // The count below the first is ruled out by counting, and with it
        // every smaller one.
        if let Some((count, reason)) = refused {
            tried.push(Tried {
                nics,
                model: model.model.clone(),
                count,
                cost_bound: bound_cost(base, prices, nics, model, counts[0]) - model.price,
                outcome: reason,
                impossible: true,
            });
        }
        counts.retain(|&n| Some(n) != own);
        if counts.is_empty() {
            return;
        }
        let first = counts.remove(0);
        self.heap.push(Candidate {
            cost: bound_cost(base, prices, nics, model, first),
            nics,
            model: m,
            count: first,
        });
        self.plans[nics as usize][m] = counts;
    }

    /// Searches candidate `c`; keeps what it finds when it is the cheapest
    /// yet, else queues the model's next count. What happened, for `tried`.
    fn try_candidate(
        &mut self,
        base: &Spec,
        prices: &PriceList,
        c: Candidate,
        budget: Budget,
        interrupted: &AtomicBool,
        best: &mut Option<Cheapest>,
    ) -> Tried {
        let model = &prices.switches[c.model];
        let (found, exact) = match realise(base, prices, c, budget, interrupted) {
            Some(found) => (Some(found), None),
            None => exact_realise(base, prices, c, budget),
        };
        let impossible = exact.as_ref().is_some_and(|e| e.0);
        let outcome = match found {
            Some(found) => {
                let note = format!("valid, re-priced to {:.2}", found.metrics.cost.total);
                if best
                    .as_ref()
                    .is_none_or(|b| found.metrics.cost.total < b.metrics.cost.total)
                {
                    *best = Some(found);
                }
                note
            }
            None => {
                let rest = &mut self.plans[c.nics as usize][c.model];
                if !rest.is_empty() {
                    let count = rest.remove(0);
                    self.heap.push(Candidate {
                        cost: bound_cost(base, prices, c.nics, model, count),
                        count,
                        ..c
                    });
                }
                match exact {
                    Some((_, words)) => words,
                    None => "no valid design in the budget".to_string(),
                }
            }
        };
        Tried {
            nics: c.nics,
            model: model.model.clone(),
            count: c.count,
            cost_bound: c.cost,
            outcome,
            impossible,
        }
    }
}

/// The price list and the spec's own switch models it lacks, at the spec's
/// prices (as the spec's NIC and cable prices stand in for a list without
/// them).
fn with_own_models(base: &Spec, prices: &PriceList) -> PriceList {
    let mut offer = prices.clone();
    for m in base.switches.iter().filter(|m| m.count != Some(0)) {
        if !offer.switches.iter().any(|o| o.model == m.model) {
            offer.switches.push(SwitchModel {
                count: None,
                ..m.clone()
            });
        }
    }
    offer
}

/// The spec's own hardware priced as every candidate is: each switch model
/// at the list's price when the list has it, else at the spec's.
fn own_spec(base: &Spec, offer: &PriceList) -> Spec {
    let mut spec = base.clone();
    for m in &mut spec.switches {
        if let Some(o) = offer.switches.iter().find(|o| o.model == m.model) {
            m.price = o.price;
        }
    }
    spec
}

/// Runs the GA on the spec's own hardware: a valid design re-priced (over
/// the list and the spec's own models, so never dearer than the hardware
/// itself), and the candidate's record.
fn realise_own(base: &Spec, prices: &PriceList, budget: Budget, interrupted: &AtomicBool) -> (Option<Cheapest>, Tried) {
    let offer = with_own_models(base, prices);
    let spec = own_spec(base, &offer);
    let listed: Vec<&SwitchModel> = spec.switches.iter().filter(|m| m.count != Some(0)).collect();
    let mut tried = Tried {
        nics: spec.pcs.nics,
        model: format!(
            "the spec's own: {}",
            listed
                .iter()
                .map(|m| match m.count {
                    Some(n) => format!("{n} x {}", m.model),
                    None => format!("{} as needed", m.model),
                })
                .collect::<Vec<_>>()
                .join(" + ")
        ),
        count: 0,
        cost_bound: f64::NAN,
        outcome: String::new(),
        impossible: false,
    };
    let cluster = match spec.resolve().and_then(|c| check_feasible(&c).map(|()| c)) {
        Ok(c) => c,
        Err(e) => {
            tried.outcome = e.without_file();
            tried.impossible = matches!(e, SpecError::Infeasible { .. });
            return (None, tried);
        }
    };
    tried.count = cluster.switch_count() as u32;
    tried.cost_bound = priced(&cluster);
    let found = ga_design(base, cluster, budget, interrupted).and_then(|d| reprice(base, &offer, &d, spec.pcs.nics));
    tried.outcome = match &found {
        Some(f) => format!("valid, re-priced to {:.2}", f.metrics.cost.total),
        None => "no valid design in the budget".to_string(),
    };
    (found, tried)
}

/// The exact search on a candidate the GA could not realise: a design it
/// finds (re-priced), and whether it proved the candidate impossible, in
/// words. `(None, None)` when the exact search is off.
fn exact_realise(
    base: &Spec,
    prices: &PriceList,
    c: Candidate,
    budget: Budget,
) -> (Option<Cheapest>, Option<(bool, String)>) {
    if budget.exact_s <= 0.0 {
        return (None, None);
    }
    let model = &prices.switches[c.model];
    let Ok(cluster) = candidate_cluster(base, prices, c.nics, model, c.count) else {
        return (None, None);
    };
    let opts = crate::exact::Options {
        deadline: crate::deadline::Deadline::from_now(Some(std::time::Duration::from_secs_f64(budget.exact_s))),
        ..Default::default()
    };
    let Ok(out) = crate::exact::solve(&cluster, &opts) else {
        return (None, None);
    };
    match out.verdict {
        crate::exact::Verdict::Found(d) => (reprice(base, prices, &d, c.nics), None),
        crate::exact::Verdict::Impossible(_) => (
            None,
            Some((
                true,
                format!("proved impossible by {} ({:.2} s)", out.model.words(), out.seconds),
            )),
        ),
        crate::exact::Verdict::Unknown => (
            None,
            Some((
                false,
                format!(
                    "no valid design in the budget; the exact search ran out after {:.1} s",
                    out.seconds
                ),
            )),
        ),
    }
}

/// Proves, where it can, that no candidate cheaper than `best` exists: for
/// each NIC count and model, the largest count still cheaper than the
/// answer must be impossible (a design on fewer switches is one on more
/// with some left empty, so that covers every smaller count). A cheaper
/// design found on the way becomes the answer and the check starts over.
/// True when every such count was proved impossible.
fn prove_below(base: &Spec, prices: &PriceList, budget: Budget, best: &mut Cheapest, tried: &mut Vec<Tried>) -> bool {
    // Each answer found is cheaper than the last, so this ends.
    'again: loop {
        let mut all = true;
        for (nics, m, count) in unsettled_below(base, prices, budget, best.metrics.cost.total, tried) {
            let model = &prices.switches[m];
            let c = Candidate {
                cost: bound_cost(base, prices, nics, model, count),
                nics,
                model: m,
                count,
            };
            let (found, exact) = exact_realise(base, prices, c, budget);
            let (impossible, outcome) = match (&found, exact) {
                (Some(f), _) => (
                    false,
                    format!("valid (exact search), re-priced to {:.2}", f.metrics.cost.total),
                ),
                (None, Some(e)) => e,
                (None, None) => (false, "not settled".to_string()),
            };
            tried.push(Tried {
                nics,
                model: model.model.clone(),
                count,
                cost_bound: c.cost,
                outcome,
                impossible,
            });
            match found {
                Some(f) if f.metrics.cost.total < best.metrics.cost.total => {
                    *best = f;
                    continue 'again;
                }
                _ => all &= impossible,
            }
        }
        return all;
    }
}

/// The cheaper candidates (NICs, model index, count) that nothing tried so
/// far proved impossible: for each NIC count and model, the largest count
/// still cheaper than `answer` (fewer switches are covered by it).
fn unsettled_below(
    base: &Spec,
    prices: &PriceList,
    budget: Budget,
    answer: f64,
    tried: &[Tried],
) -> Vec<(u32, usize, u32)> {
    let mut open = Vec::new();
    for nics in nic_counts(base, budget) {
        for (m, model) in prices.switches.iter().enumerate() {
            let Some(count) = largest_cheaper(base, prices, nics, model, answer) else {
                continue;
            };
            let covered = tried
                .iter()
                .any(|t| t.impossible && t.nics == nics && t.model == model.model && t.count >= count);
            if !covered {
                open.push((nics, m, count));
            }
        }
    }
    open
}

/// The most switches of `model` (with `nics` NICs per PC) whose candidate
/// the counting bounds allow and whose cost is still below `answer`.
fn largest_cheaper(base: &Spec, prices: &PriceList, nics: u32, model: &SwitchModel, answer: f64) -> Option<u32> {
    let most = most_switches(base, nics);
    let cheaper = |count: u32| bound_cost(base, prices, nics, model, count) < answer - 1e-9;
    // The cost grows with the count; infeasible counts cost infinity, so
    // the cheaper counts (if any) form a run ending at the one wanted.
    let first = (1..=most).find(|&c| cheaper(c))?;
    let (mut lo, mut hi) = (first, most);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if cheaper(mid) { lo = mid } else { hi = mid - 1 }
    }
    Some(lo)
}

/// The counts to try for one (NICs, model): the fewest the bounds allow,
/// a few more for the GA, and the count a construction is known to need.
/// With them, the count just below the fewest and why the bounds refuse it.
type Plan = (Vec<u32>, Option<(u32, String)>);

/// Why no count of a model gives a feasible spec.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
enum NoCount {
    /// The spec's reason for the most switches tried.
    #[error("{0}")]
    Refused(String),
    /// The uplink switch's ports cap the count at `most`.
    #[error("up to {most} switches, {fewer}; more, {more}")]
    UplinkCaps { most: u32, fewer: String, more: String },
}

/// The counts of `model` to try with `nics` NICs per PC (`own`: the
/// spec's own count of it, tried too).
fn plan(base: &Spec, prices: &PriceList, nics: u32, model: &SwitchModel, attempts: u32) -> Result<Plan, NoCount> {
    let most = most_switches(base, nics);
    let check = |count: u32| candidate_cluster(base, prices, nics, model, count).map(|_| ());
    // Doubling to the first feasible count, then bisection below it. Not
    // "feasible at the most": a separate uplink switch caps the count.
    let mut hi = 1u32;
    let mut last_err = None;
    loop {
        match check(hi) {
            Ok(()) => break,
            Err(e) if hi >= most => {
                last_err = Some(e);
                break;
            }
            Err(e) => {
                last_err = Some(e);
                hi = (hi * 2).min(most);
            }
        }
    }
    if check(hi).is_err() {
        let last = last_err.map_or_else(String::new, |e| e.without_file());
        // More switches ran into the uplink switch's ports: say what
        // ruled out the counts it allows as well.
        let allowed = most_under_uplink(base, prices).filter(|&k| k >= 1 && k < hi);
        return Err(match allowed {
            Some(most) => NoCount::UplinkCaps {
                most,
                fewer: check(most).err().map_or_else(String::new, |e| e.without_file()),
                more: last,
            },
            None => NoCount::Refused(last),
        });
    }
    let mut lo = hi / 2 + 1;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if check(mid).is_ok() { hi = mid } else { lo = mid + 1 }
    }
    let lo = hi;
    let refused = (lo > 1)
        .then(|| check(lo - 1).err().map(|e| (lo - 1, e.without_file())))
        .flatten();
    let mut counts: Vec<u32> = (lo..lo.saturating_add(attempts.max(1)))
        .filter(|&c| c <= most)
        .collect();
    if base.coverage == Coverage::Universal {
        let usable = model.ports.saturating_sub(reserve(base));
        if let Some(b) = constructions::best(base.pcs.count, nics as usize)
            && b.width <= usable
            && b.switches() as u32 >= lo
        {
            counts.retain(|&c| c < b.switches() as u32);
            counts.push(b.switches() as u32);
        }
    }
    Ok((counts, refused))
}

/// The spec's own FNN switches when they are of one model: NICs per PC,
/// the model's name, its ports and how many (as resolved: a count left
/// open is the number the spec needs).
fn own_hardware(base: &Spec) -> Option<(u32, String, u32, u32)> {
    let listed: Vec<&SwitchModel> = base.switches.iter().filter(|m| m.count != Some(0)).collect();
    let [only] = listed.as_slice() else { return None };
    let count = match only.count {
        Some(n) => n,
        None => base.resolve().ok()?.switch_count() as u32,
    };
    Some((base.pcs.nics, only.model.clone(), only.ports, count))
}

/// The NICs per PC to consider: the budget's fewest up to the spec's.
fn nic_counts(base: &Spec, budget: Budget) -> std::ops::RangeInclusive<u32> {
    let max_nics = base.pcs.nics.max(1);
    budget.min_nics.clamp(1, max_nics)..=max_nics
}

/// The most switches worth a candidate: each useful one holds two NICs.
fn most_switches(base: &Spec, nics: u32) -> u32 {
    (base.pcs.count as u64 * nics as u64).div_ceil(2).clamp(1, 4096) as u32
}

fn reserve(spec: &Spec) -> u32 {
    match spec.uplink.mode {
        UplinkMode::None => 0,
        _ => spec.uplink.ports,
    }
}

fn candidate_spec(base: &Spec, prices: &PriceList, nics: u32, model: &SwitchModel, count: u32) -> Spec {
    let mut spec = base.clone();
    spec.pcs.nics = nics;
    spec.pcs.overrides.clear();
    spec.switches = vec![SwitchModel {
        count: Some(count),
        ..model.clone()
    }];
    with_uplink(&mut spec, prices);
    spec
}

/// A separate uplink switch is the cheapest model with a port for every
/// FNN switch and hot spare; it is listed with count 0 when it is not one
/// of the FNN models.
fn with_uplink(spec: &mut Spec, prices: &PriceList) {
    if spec.uplink.mode != UplinkMode::Separate {
        return;
    }
    let need = uplink_ports(spec);
    let Some(m) = prices
        .switches
        .iter()
        .filter(|m| m.ports as u64 >= need)
        .min_by(|a, b| a.price.total_cmp(&b.price))
    else {
        return;
    };
    if !spec.switches.iter().any(|s| s.model == m.model) {
        spec.switches.push(SwitchModel {
            count: Some(0),
            ..m.clone()
        });
    }
    spec.uplink.model = m.model.clone();
}

/// The ports a separate uplink switch needs: one per FNN switch uplink and
/// per hot spare.
fn uplink_ports(spec: &Spec) -> u64 {
    let fnn: u64 = spec.switches.iter().map(|m| m.count.unwrap_or(0) as u64).sum();
    fnn * spec.uplink.ports as u64 + spec.pcs.hot_spares as u64
}

/// A candidate whose uplink switch no model on the price list can be is
/// impossible for that reason, said so (not as the base spec's uplink
/// model missing from the candidate's list).
fn uplink_fits(spec: &Spec, prices: &PriceList) -> Result<(), SpecError> {
    let fnn: u32 = spec.switches.iter().map(|m| m.count.unwrap_or(0)).sum();
    match most_under_uplink(spec, prices) {
        Some(most) if fnn > most => Err(SpecError::infeasible(
            &spec.source,
            format!(
                "a separate uplink switch for {} needs {} ports; the widest model on the price list has {}",
                crate::words::count(fnn as usize, "FNN switch"),
                uplink_ports(spec),
                widest(prices)
            ),
        )),
        _ => Ok(()),
    }
}

/// The most FNN switches a separate uplink switch from the price list
/// can serve (`None`: no separate uplink switch, no limit).
fn most_under_uplink(spec: &Spec, prices: &PriceList) -> Option<u32> {
    (spec.uplink.mode == UplinkMode::Separate).then(|| {
        let free = widest(prices).saturating_sub(spec.pcs.hot_spares as u64);
        (free / spec.uplink.ports.max(1) as u64).min(u32::MAX as u64) as u32
    })
}

fn widest(prices: &PriceList) -> u64 {
    prices.switches.iter().map(|m| m.ports as u64).max().unwrap_or(0)
}

fn candidate_cluster(
    base: &Spec,
    prices: &PriceList,
    nics: u32,
    model: &SwitchModel,
    count: u32,
) -> Result<Cluster, SpecError> {
    let spec = candidate_spec(base, prices, nics, model, count);
    uplink_fits(&spec, prices)?;
    let c = spec.resolve()?;
    check_feasible(&c)?;
    Ok(c)
}

fn bound_cost(base: &Spec, prices: &PriceList, nics: u32, model: &SwitchModel, count: u32) -> f64 {
    match candidate_cluster(base, prices, nics, model, count) {
        Ok(c) => priced(&c),
        Err(_) => f64::INFINITY,
    }
}

/// What the cluster's whole inventory costs as a design's report prices
/// it (`Metrics::cost`) when every switch is used: switches, the uplink
/// switch, NICs, and a cable per NIC, uplink and hot spare. A candidate's
/// bound is then exactly its price when the design uses every switch.
pub fn priced(c: &Cluster) -> f64 {
    let n = c.switch_count() as u64;
    let uplinks = match c.uplink.mode {
        UplinkMode::None => 0,
        UplinkMode::Separate => n,
        UplinkMode::Folded => n.saturating_sub(1),
    };
    c.inventory_cost() + (uplinks + c.hot_spares as u64) as f64 * c.cable_price
}

/// Runs the GA on one candidate and re-prices a valid design.
fn realise(
    base: &Spec,
    prices: &PriceList,
    c: Candidate,
    budget: Budget,
    interrupted: &AtomicBool,
) -> Option<Cheapest> {
    let model = &prices.switches[c.model];
    let cluster = candidate_cluster(base, prices, c.nics, model, c.count).ok()?;
    reprice(base, prices, &ga_design(base, cluster, budget, interrupted)?, c.nics)
}

/// The GA's valid design for `cluster` within the budget, if it finds one.
fn ga_design(base: &Spec, mut cluster: Cluster, budget: Budget, interrupted: &AtomicBool) -> Option<Design> {
    cluster.ga.generations = budget.generations;
    cluster.ga.time_limit_s = budget.time_limit_s;
    // Candidates below the answer are often impossible; the budget was set
    // for generations that cost the same at any width.
    cluster.ga.portfolio = Preset::Quick;
    let mut run = crate::run::Run::of_cluster(base.clone(), cluster);
    run.run(interrupted, |_| {});
    let engine = run.engine();
    engine.is_valid().then(|| engine.best_design())
}

/// Each used switch becomes the cheapest model with enough ports; unused
/// switches go. The spec lists the models in price-list order and the
/// design is renumbered to match.
fn reprice(base: &Spec, prices: &PriceList, design: &Design, nics: u32) -> Option<Cheapest> {
    let reserve = reserve(base);
    let used = design.ports_used();
    let mut by_model: Vec<Vec<usize>> = vec![Vec::new(); prices.switches.len()];
    for (s, &u) in used.iter().enumerate() {
        if u < 2 {
            continue;
        }
        let m = (0..prices.switches.len())
            .filter(|&m| prices.switches[m].ports.saturating_sub(reserve) >= u)
            .min_by(|&a, &b| prices.switches[a].price.total_cmp(&prices.switches[b].price))?;
        by_model[m].push(s);
    }
    let order: Vec<usize> = by_model.iter().flatten().copied().collect();
    let mut spec = base.clone();
    spec.pcs.nics = (0..design.pcs())
        .map(|pc| design.nics_used(pc))
        .max()
        .unwrap_or(nics)
        .max(1);
    spec.pcs.overrides.clear();
    spec.switches = by_model
        .iter()
        .enumerate()
        .filter(|(_, list)| !list.is_empty())
        .map(|(m, list)| SwitchModel {
            count: Some(list.len() as u32),
            ..prices.switches[m].clone()
        })
        .collect();
    with_uplink(&mut spec, prices);
    let mut renumbered = Design::new(design.pcs(), order.len());
    for (new, &old) in order.iter().enumerate() {
        for pc in 0..design.pcs() {
            if design.has(pc, old) {
                renumbered.connect(pc, new);
            }
        }
    }
    let cluster = spec.resolve().ok()?;
    let metrics = Metrics::compute(&renumbered, &cluster);
    metrics.valid.then_some(Cheapest {
        spec,
        cluster,
        design: renumbered,
        metrics,
        tried: Vec::new(),
        proved_cheapest: None,
        own: None,
    })
}
