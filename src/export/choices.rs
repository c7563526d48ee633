//! What a user chose for an export, as typed (the CLI's flags or the
//! designer's export form), read into [`Options`] the same way for both:
//! artifacts checked against the list, the probe order parsed, the MAC
//! discovery file read against it, the rewire source opened.

use super::{ARTIFACTS, Options};
use crate::design::{Design, parse_table};
use crate::input::read_text;
use crate::routing::{Interfaces, MacTable};
use crate::spec::Cluster;
use std::path::PathBuf;

/// Where the rewire plan starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Rewire {
    /// A switch table file.
    Table(PathBuf),
    /// A saved session (name or path): its best design.
    Session(String),
    /// A design at hand (the one last saved or opened in the designer).
    Design(Design),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choices {
    /// Artifacts to write; all when empty.
    pub only: Vec<String>,
    pub probe_order: Option<String>,
    pub macs: Option<PathBuf>,
    pub rewire: Option<Rewire>,
}

impl Choices {
    /// The export options, or what is wrong, naming the field.
    pub fn resolve(&self, c: &Cluster, session_dirs: &[PathBuf]) -> Result<Options, String> {
        for a in &self.only {
            if !ARTIFACTS.contains(&a.as_str()) {
                return Err(format!(
                    "artifacts: `{a}` is not an artifact: use {}",
                    ARTIFACTS.join(", ")
                ));
            }
        }
        let interfaces = match &self.probe_order {
            Some(p) => Some(Interfaces::parse(p).map_err(|e| format!("probe order: {e}"))?),
            None => None,
        };
        let ifaces = interfaces.clone().unwrap_or(Interfaces {
            probe_order: (1..=c.max_nics().max(1) as usize).collect(),
        });
        let macs = match &self.macs {
            Some(path) => {
                let text = read_text(path).map_err(|e| format!("MAC file: {e}"))?;
                let names = |s: &str| c.pc_named(s);
                Some(
                    MacTable::parse(&text, &path.display().to_string(), &names, &ifaces)
                        .map_err(|e| format!("MAC file: {e}"))?,
                )
            }
            None => None,
        };
        let from = match &self.rewire {
            None => None,
            Some(Rewire::Design(d)) => Some(d.clone()),
            Some(Rewire::Table(path)) => {
                let text = read_text(path).map_err(|e| format!("rewire from: {e}"))?;
                Some(
                    parse_table(&text, &path.display().to_string(), c.pcs(), c.switch_count())
                        .map_err(|e| format!("rewire from: {e}"))?,
                )
            }
            Some(Rewire::Session(name)) => {
                let (session, _) =
                    crate::session::open_session(name, session_dirs).map_err(|e| format!("rewire from: {e}"))?;
                let (_, engine) = session.restore_best().map_err(|e| format!("rewire from: {e}"))?;
                Some(engine.best_design())
            }
        };
        Ok(Options {
            only: self.only.clone(),
            interfaces,
            macs,
            from,
        })
    }
}
