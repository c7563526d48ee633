//! The cables' rates: every cable's two ends, and a tbf qdisc on each,
//! shared by the FNN, tree and fat-tree rehearsals.

use super::EmulateError;

/// One end of a cable: the namespace it is in (None: the host's) and its
/// link's name.
pub type End = (Option<String>, String);

/// tbf on both ends of every cable.
pub(crate) fn limit_links(ends: &[End], rate: u64) -> Result<(), EmulateError> {
    // A burst of a fiftieth of a second's worth (at least 16 kB) keeps
    // the rate exact over the run without starving a slow link.
    let burst = (rate / 8 / 50).max(16_000);
    let mut by_ns: std::collections::BTreeMap<Option<&str>, String> = Default::default();
    for (ns, link) in ends {
        by_ns.entry(ns.as_deref()).or_default().push_str(&format!(
            "qdisc replace dev {link} root tbf rate {rate}bit burst {burst} latency 100ms\n"
        ));
    }
    for (ns, batch) in by_ns {
        let mut args = vec!["tc"];
        if let Some(ns) = ns {
            args.extend(["-n", ns]);
        }
        args.extend(["-batch", "-"]);
        super::commands::run_with(&args, Some(batch.into_bytes()), None)?;
    }
    Ok(())
}
