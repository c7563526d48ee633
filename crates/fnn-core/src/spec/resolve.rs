//! Spec -> Cluster: every field checked, with the file, the field and what
//! is allowed in each message.

use super::cluster::{Cluster, Pins, SwitchSlot, Uplink};
use super::error::SpecError;
use super::model::{Coverage, PatternSpec, PinKind, Spec, UplinkMode};
use super::text;

/// Sizes past these are typos, not clusters; refusing them early keeps a
/// bad number from turning into an allocation failure.
const MAX_PCS: usize = 1 << 16;
const MAX_NICS: u32 = 64;
const MAX_SWITCHES: u64 = 1 << 14;
const MAX_PORTS: u32 = 1 << 16;
/// Weights past this only drown the others (and fill the screen).
pub(crate) const MAX_WEIGHT: f64 = 1e6;
/// Prices and lengths.
const MAX_AMOUNT: f64 = 1e9;
/// A switch's power draw in watts.
const MAX_POWER_W: f64 = 1e6;

/// `v` must be finite, above 0 (`lo_open`) or from 0, and at most `hi`;
/// otherwise the error names the file and field and says what is allowed.
pub(crate) fn check_number(file: &str, field: &str, v: f64, lo_open: bool, hi: f64) -> Result<(), SpecError> {
    let lo_ok = if lo_open { v > 0.0 } else { v >= 0.0 };
    if v.is_finite() && lo_ok && v <= hi {
        return Ok(());
    }
    let lo = if lo_open { "above 0" } else { "from 0" };
    // 1e308 as written, not as its 309 digits.
    let shown = if v.is_finite() && v.abs() >= 1e12 {
        format!("{v:e}")
    } else {
        v.to_string()
    };
    Err(SpecError::field(
        file,
        field,
        format!("{shown} is not allowed: use a number {lo} to {hi:e}"),
    ))
}

/// A price, a length or another amount: 0 to 1e9.
pub(crate) fn amount(file: &str, field: &str, v: f64) -> Result<(), SpecError> {
    check_number(file, field, v, false, MAX_AMOUNT)
}
/// 10 Tb/s.
pub(crate) const MAX_SPEED_MBPS: f64 = 1e7;

impl Spec {
    /// Validates the weights and GA parameters (and the prices checked with
    /// them) as [`Spec::resolve`] does, without resolving the spec: for a
    /// form that changes only those, on a thread that must not wait for a
    /// resolve (its millions of pairs can take a second).
    pub fn check_tuning(&self) -> Result<(), SpecError> {
        self.check_prices_and_ga()
    }

    /// Validates the spec and resolves it into the engine's [`Cluster`].
    pub fn resolve(&self) -> Result<Cluster, SpecError> {
        let f = self.source.as_str();
        let pcs = self.pcs.count;
        if pcs == 0 || pcs > MAX_PCS {
            return Err(SpecError::field(
                f,
                "pcs.count",
                format!("{pcs} is not allowed: use 1 to {MAX_PCS}"),
            ));
        }
        if self.pcs.overrides.len() > pcs {
            return Err(SpecError::field(
                f,
                "pcs.overrides",
                format!(
                    "{} overrides for {pcs} PCs is not allowed: at most one per PC",
                    self.pcs.overrides.len()
                ),
            ));
        }
        self.check_text()?;
        let nics = self.resolve_nics()?;
        self.check_prices_and_ga()?;
        let (models, mut switches) = self.resolve_switch_inventory(&nics)?;
        let uplink = self.resolve_uplink(&mut switches)?;
        let pattern = super::pair_weights(&self.patterns, pcs, f, self.base_dir.as_ref())?;
        if self.coverage == Coverage::Sparse && pattern.pair_count() == 0 && pattern.all_to_all() == 0 {
            return Err(SpecError::field(
                f,
                "coverage",
                "\"sparse\" needs at least one pattern naming the pairs that must share a switch",
            ));
        }
        let pins = self.resolve_pins(pcs, switches.len())?;
        Ok(Cluster {
            name: self.name.clone(),
            source: self.source.clone(),
            nics,
            switches,
            models,
            uplink,
            // A sparse spec whose pattern is all-to-all is universal.
            coverage: if pattern.all_to_all() > 0 {
                Coverage::Universal
            } else {
                self.coverage
            },
            pattern,
            grids: self
                .patterns
                .iter()
                .filter_map(|p| match p {
                    PatternSpec::Grid { dims, .. } => Some(dims.clone()),
                    _ => None,
                })
                .collect(),
            pins,
            weights: self.weights.clone(),
            ga: self.ga.clone(),
            nic: self.nic.clone(),
            cable_price: self.cables.price,
            cable_every_nic: self.pcs.cable_every_nic,
            hot_spares: self.pcs.hot_spares,
            name_prefix: self.pcs.name_prefix.clone(),
            cable_colors: self.cables.colors.clone(),
            racks: self.racks.clone(),
            pc_rack_units: self.pcs.rack_units,
        })
    }

    fn resolve_nics(&self) -> Result<Vec<u32>, SpecError> {
        let f = self.source.as_str();
        let p = &self.pcs;
        if p.nics > MAX_NICS {
            return Err(SpecError::field(
                f,
                "pcs.nics",
                format!("{} is not allowed: use 0 to {MAX_NICS}", p.nics),
            ));
        }
        let mut nics = vec![p.nics; p.count];
        let mut seen = vec![false; p.count];
        for (i, o) in p.overrides.iter().enumerate() {
            let field = format!("pcs.overrides[{i}]");
            if o.pc >= p.count {
                return Err(SpecError::field(
                    f,
                    format!("{field}.pc"),
                    format!("PC {} does not exist: PCs are 0 to {}", o.pc, p.count - 1),
                ));
            }
            if o.nics > MAX_NICS {
                return Err(SpecError::field(
                    f,
                    format!("{field}.nics"),
                    format!("{} is not allowed: use 0 to {MAX_NICS}", o.nics),
                ));
            }
            if std::mem::replace(&mut seen[o.pc], true) {
                return Err(SpecError::field(
                    f,
                    format!("{field}.pc"),
                    format!("PC {} is overridden twice", o.pc),
                ));
            }
            nics[o.pc] = o.nics;
        }
        Ok(nics)
    }

    /// Every name a writer will copy into a script, header, SVG or file
    /// name: labels, the host-name prefix and `#rrggbb` colours.
    fn check_text(&self) -> Result<(), SpecError> {
        let f = self.source.as_str();
        text::check_label(f, "name", &self.name, false)?;
        text::check_prefix(f, "pcs.name_prefix", &self.pcs.name_prefix)?;
        text::check_label(f, "nic.model", &self.nic.model, false)?;
        text::check_label(f, "uplink.model", &self.uplink.model, true)?;
        for (i, m) in self.switches.iter().enumerate() {
            text::check_label(f, &format!("switches[{i}].model"), &m.model, false)?;
        }
        if self.cables.colors.len() > 1024 {
            return Err(SpecError::field(
                f,
                "cables.colors",
                "more than 1024 colours is not allowed",
            ));
        }
        for (i, c) in self.cables.colors.iter().enumerate() {
            text::check_label(f, &format!("cables.colors[{i}].name"), &c.name, false)?;
            text::check_hex_color(f, &format!("cables.colors[{i}].hex"), &c.hex)?;
        }
        Ok(())
    }

    fn check_prices_and_ga(&self) -> Result<(), SpecError> {
        let f = self.source.as_str();
        let in_range = |field: &str, v: f64, lo_open: bool, hi: f64| check_number(f, field, v, lo_open, hi);
        let non_negative = |field: &str, v: f64| amount(f, field, v);
        let positive = |field: &str, v: f64| in_range(field, v, true, MAX_SPEED_MBPS);
        non_negative("nic.price", self.nic.price)?;
        positive("nic.speed_mbps", self.nic.speed_mbps)?;
        positive("uplink.speed_mbps", self.uplink.speed_mbps)?;
        non_negative("cables.price", self.cables.price)?;
        non_negative("cables.length_m", self.cables.length_m)?;
        in_range("racks.width_m", self.racks.width_m, false, 100.0)?;
        let counts = [
            ("pcs.hot_spares", self.pcs.hot_spares as u64, MAX_PCS as u64),
            ("pcs.rack_units", self.pcs.rack_units as u64, 100),
            ("racks.count", self.racks.count as u64, MAX_PCS as u64),
            ("racks.units", self.racks.units as u64, 1000),
            ("uplink.ports", self.uplink.ports as u64, MAX_PORTS as u64),
        ];
        for (field, v, hi) in counts {
            if v > hi {
                return Err(SpecError::field(f, field, format!("{v} is not allowed: use 0 to {hi}")));
            }
        }
        let w = &self.weights;
        for (name, v) in w.named() {
            in_range(&format!("weights.{name}"), v, false, MAX_WEIGHT)?;
        }
        self.check_ga()
    }

    fn check_ga(&self) -> Result<(), SpecError> {
        let f = self.source.as_str();
        let g = &self.ga;
        let bad = |field: &str, msg: String| Err(SpecError::field(f, format!("ga.{field}"), msg));
        if !(2..=100_000).contains(&g.population) {
            return bad(
                "population",
                format!("{} is not allowed: use 2 to 100000", g.population),
            );
        }
        if g.keep == 0 || g.keep > g.population {
            return bad(
                "keep",
                format!("{} is not allowed: use 1 to ga.population ({})", g.keep, g.population),
            );
        }
        if g.fudge > g.keep {
            return bad(
                "fudge",
                format!("{} is not allowed: use 0 to ga.keep ({})", g.fudge, g.keep),
            );
        }
        if g.cross > g.population - g.keep {
            return bad(
                "cross",
                format!(
                    "{} is not allowed: use 0 to ga.population - ga.keep ({})",
                    g.cross,
                    g.population - g.keep
                ),
            );
        }
        if g.cross > 0 && g.keep < 2 {
            return bad(
                "keep",
                "crossover needs two parents: use ga.keep >= 2 or ga.cross = 0".into(),
            );
        }
        if g.max_mutations == 0 || g.max_mutations > 10_000 {
            return bad(
                "max_mutations",
                format!("{} is not allowed: use 1 to 10000", g.max_mutations),
            );
        }
        if !(0.0..=1.0).contains(&g.focus) {
            return bad(
                "focus",
                format!("{} is not allowed: use a probability from 0 to 1", g.focus),
            );
        }
        if !(0.0..=1.0).contains(&g.pc_swap_rate) {
            return bad(
                "pc_swap_rate",
                format!("{} is not allowed: use a probability from 0 to 1", g.pc_swap_rate),
            );
        }
        check_number(f, "ga.time_limit_s", g.time_limit_s, false, 1e7)?;
        if g.local_members > g.population {
            return bad(
                "local_members",
                format!(
                    "{} is not allowed: use 0 to ga.population ({})",
                    g.local_members, g.population
                ),
            );
        }
        if g.local_search > 100_000_000 {
            return bad(
                "local_search",
                format!("{} is not allowed: use 0 (off) to 100000000 moves", g.local_search),
            );
        }
        if g.threads > 1024 {
            return bad(
                "threads",
                format!("{} is not allowed: use 0 (all cores) to 1024", g.threads),
            );
        }
        Ok(())
    }

    /// Checks each switch model; returns the model whose count is omitted
    /// (at most one), and the switches and PC ports the others give.
    fn check_switch_models(&self, reserve: u32) -> Result<(Option<usize>, u64, u64), SpecError> {
        let f = self.source.as_str();
        let mut auto = None;
        let mut fixed_ports = 0u64;
        let mut fixed_count = 0u64;
        for (i, m) in self.switches.iter().enumerate() {
            let field = format!("switches[{i}]");
            if m.ports < 2 || m.ports > MAX_PORTS {
                return Err(SpecError::field(
                    f,
                    format!("{field}.ports"),
                    format!("{} is not allowed: use 2 to {MAX_PORTS}", m.ports),
                ));
            }
            if m.ports <= reserve {
                return Err(SpecError::field(
                    f,
                    format!("{field}.ports"),
                    format!(
                        "{} ports leave none for PCs after the {reserve} uplink port(s): use more ports or uplink.mode = \"none\"",
                        m.ports
                    ),
                ));
            }
            amount(f, &format!("{field}.price"), m.price)?;
            check_number(f, &format!("{field}.power_w"), m.power_w, false, MAX_POWER_W)?;
            match m.count {
                Some(c) => {
                    fixed_count += c as u64;
                    fixed_ports += c as u64 * (m.ports - reserve) as u64;
                }
                None if auto.is_some() => {
                    return Err(SpecError::field(
                        f,
                        format!("{field}.count"),
                        "only one switch model may omit `count` (\"as many as needed\")",
                    ));
                }
                None => auto = Some(i),
            }
        }
        Ok((auto, fixed_count, fixed_ports))
    }

    /// Expands the models into one slot per switch, sizing the model whose
    /// count is omitted ("as many as needed") so that every NIC can be cabled.
    fn resolve_switch_inventory(&self, nics: &[u32]) -> Result<(Vec<super::SwitchModel>, Vec<SwitchSlot>), SpecError> {
        let f = self.source.as_str();
        if self.switches.is_empty() {
            return Err(SpecError::field(f, "switches", "at least one switch model is needed"));
        }
        let reserve = match self.uplink.mode {
            UplinkMode::None => 0,
            _ => self.uplink.ports,
        };
        let (auto, fixed_count, fixed_ports) = self.check_switch_models(reserve)?;
        let needed_nics: u64 = nics.iter().map(|&n| n as u64).sum();
        let max_nics = nics.iter().copied().max().unwrap_or(0) as u64;
        let mut counts: Vec<u64> = self.switches.iter().map(|m| m.count.unwrap_or(0) as u64).collect();
        if let Some(i) = auto {
            let usable = (self.switches[i].ports - reserve) as u64;
            let for_ports = needed_nics.saturating_sub(fixed_ports).div_ceil(usable);
            let for_distinct = max_nics.saturating_sub(fixed_count);
            counts[i] = for_ports.max(for_distinct).max(1);
        }
        let total: u64 = counts.iter().sum();
        if total == 0 || total > MAX_SWITCHES {
            return Err(SpecError::field(
                f,
                "switches",
                format!("{total} FNN switches in all is not allowed: use 1 to {MAX_SWITCHES}"),
            ));
        }
        let mut slots = Vec::with_capacity(total as usize);
        for (i, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                slots.push(SwitchSlot {
                    model: i,
                    ports: self.switches[i].ports - reserve,
                });
            }
        }
        let models = self
            .switches
            .iter()
            .zip(&counts)
            .map(|(m, &c)| super::SwitchModel {
                count: Some(c as u32),
                ..m.clone()
            })
            .collect();
        Ok((models, slots))
    }

    /// Sizes the uplink: the separate switch must take every FNN switch's
    /// uplink and the hot spares; a folded hub gives up a port per other switch.
    fn resolve_uplink(&self, switches: &mut [SwitchSlot]) -> Result<Uplink, SpecError> {
        let f = self.source.as_str();
        let u = &self.uplink;
        let n = switches.len() as u64;
        let spares = self.pcs.hot_spares as u64;
        let mut uplink = Uplink {
            mode: u.mode,
            model: None,
            hub: None,
            speed_mbps: u.speed_mbps,
        };
        match u.mode {
            UplinkMode::None => {
                if spares > 0 {
                    return Err(SpecError::field(
                        f,
                        "pcs.hot_spares",
                        "hot spares sit on the uplink switch: use uplink.mode = \"separate\" or \"folded\"",
                    ));
                }
            }
            UplinkMode::Separate => {
                let idx = if u.model.is_empty() {
                    0
                } else {
                    self.switches.iter().position(|m| m.model == u.model).ok_or_else(|| {
                        let names: Vec<_> = self.switches.iter().map(|m| format!("\"{}\"", m.model)).collect();
                        SpecError::field(
                            f,
                            "uplink.model",
                            format!("\"{}\" is not a switch model: use one of {}", u.model, names.join(", ")),
                        )
                    })?
                };
                let need = n * u.ports as u64 + spares;
                let has = self.switches[idx].ports as u64;
                if need > has {
                    return Err(SpecError::infeasible(
                        f,
                        format!(
                            "the uplink switch \"{}\" has {has} ports but needs {n} x {} uplink port(s) + {spares} hot spare(s) = {need}",
                            self.switches[idx].model, u.ports
                        ),
                    ));
                }
                uplink.model = Some(idx);
            }
            UplinkMode::Folded => {
                // The widest switch (the last of equals) carries the fold.
                let hub = (0..switches.len()).max_by_key(|&s| switches[s].ports).unwrap_or(0);
                // The hub already reserved its own uplink ports; it needs one
                // per other switch plus the spares instead.
                let need = (n - 1) * u.ports as u64 + spares;
                let have = switches[hub].ports as u64 + u.ports as u64;
                if need >= have {
                    return Err(SpecError::infeasible(
                        f,
                        format!(
                            "a folded uplink needs {need} ports on the widest FNN switch ({} other switches x {} + {spares} spares) but it has {have}",
                            n - 1,
                            u.ports
                        ),
                    ));
                }
                switches[hub].ports = (have - need) as u32;
                uplink.hub = Some(hub);
            }
        }
        Ok(uplink)
    }

    fn resolve_pins(&self, pcs: usize, switches: usize) -> Result<Pins, SpecError> {
        let f = self.source.as_str();
        let mut pins = Pins::new(pcs, switches);
        for (i, p) in self.pins.iter().enumerate() {
            if p.pc >= pcs {
                return Err(SpecError::field(
                    f,
                    format!("pins[{i}].pc"),
                    format!("PC {} does not exist: PCs are 0 to {}", p.pc, pcs - 1),
                ));
            }
            if p.switch >= switches {
                return Err(SpecError::field(
                    f,
                    format!("pins[{i}].switch"),
                    format!(
                        "switch {} does not exist: FNN switches are 0 to {}",
                        p.switch,
                        switches - 1
                    ),
                ));
            }
            let clash = match p.kind {
                PinKind::Must => pins.is_forbidden(p.pc, p.switch),
                PinKind::Forbid => pins.is_must(p.pc, p.switch),
            };
            if clash {
                return Err(SpecError::field(
                    f,
                    format!("pins[{i}]"),
                    format!("PC {} on switch {} is both pinned and forbidden", p.pc, p.switch),
                ));
            }
            match p.kind {
                PinKind::Must => pins.set_must(p.pc, p.switch),
                PinKind::Forbid => pins.set_forbid(p.pc, p.switch),
            }
        }
        Ok(pins)
    }
}
