//! Cable colours per switch (the KLAT2 paper §3, the FNN compiler paper "Physical Wiring"): one
//! colour per switch; once switches outnumber colours, a base colour with a
//! stripe of another, every (base, stripe) pair used once.

use fnn_core::spec::CableColor;

#[derive(Clone, Debug, PartialEq)]
pub struct Cable {
    pub base: CableColor,
    pub stripe: Option<CableColor>,
}

impl Cable {
    pub fn name(&self) -> String {
        match &self.stripe {
            Some(s) => format!("{} with {} stripe", self.base.name, s.name),
            None => self.base.name.clone(),
        }
    }
}

/// The cable of switch `s`: solid for the first `n` switches, then
/// base `s mod n` striped with `(s / n + s mod n) mod n`, distinct for all
/// s < n^2.
pub fn cable(colors: &[CableColor], s: usize) -> Cable {
    let fallback = CableColor {
        name: format!("switch {s}"),
        hex: "#888888".into(),
        transparent: false,
    };
    let n = colors.len();
    if n == 0 {
        return Cable {
            base: fallback,
            stripe: None,
        };
    }
    let base = colors[s % n].clone();
    let stripe = (s >= n).then(|| colors[(s / n + s % n) % n].clone());
    Cable { base, stripe }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripes_are_distinct_once_colours_run_out() {
        let colors: Vec<CableColor> = ["red", "blue", "green"]
            .iter()
            .map(|n| CableColor {
                name: n.to_string(),
                hex: "#000000".into(),
                transparent: false,
            })
            .collect();
        let all: Vec<String> = (0..9).map(|s| cable(&colors, s).name()).collect();
        let mut dedup = all.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), 9, "{all:?}");
        assert_eq!(all[0], "red");
        assert!(cable(&colors, 3).stripe.is_some());
        assert_ne!(cable(&colors, 4).base.name, cable(&colors, 4).stripe.unwrap().name);
    }
}
