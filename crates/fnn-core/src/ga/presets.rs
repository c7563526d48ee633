//! The presets a spec names (`ga.portfolio`): which strategies a run
//! combines, in which order, each with its own settings taken from the
//! spec here and nowhere else. Adding a strategy is its file and a line
//! in the presets below.

use super::blocks::Blocks;
use super::cyclic::Cyclic;
use super::groups::Grouped;
use super::local::Tabu;
use super::portfolio::Portfolio;
use super::repair::Repair;
use super::sat::Exact;
use super::seeding::Constructions;
use crate::spec::{GaParams, Preset};

/// The portfolio `preset` names, for these GA parameters.
pub fn portfolio(preset: Preset, ga: &GaParams) -> Portfolio {
    let ga_alone = Portfolio::new(true, ga.scale_down);
    match preset {
        Preset::Papers => ga_alone,
        Preset::Quick => constructions(ga_alone, ga),
        Preset::Default => searches(constructions(ga_alone, ga), ga),
        Preset::ExactFirst => searches(constructions(ga_alone.then_first(Exact::first()), ga), ga),
        Preset::Exact => exact(Exact::alone(false)),
    }
}

/// The spec's own portfolio: `ga.portfolio`, or the exact mode when
/// `ga.exact` asks for it.
pub fn of_params(ga: &GaParams) -> Portfolio {
    portfolio(ga.preset(), ga)
}

/// The exact mode alone (the `exact` preset), as `exact` is set up.
pub fn exact(exact: Exact) -> Portfolio {
    Portfolio::new(false, false).with(exact)
}

fn constructions(p: Portfolio, ga: &GaParams) -> Portfolio {
    match ga.constructions {
        true => p.with(Constructions),
        false => p,
    }
}

/// The searches inside each generation; block growing seeds a sparse
/// run too, when the constructions are on.
fn searches(p: Portfolio, ga: &GaParams) -> Portfolio {
    p.then_first(Cyclic::default())
        .then_first(Repair::default())
        .with(Tabu {
            members: ga.local_members,
        })
        .with(Grouped)
        .with(Blocks::new(ga.constructions))
}
