//! What a user chose for an export, as typed (the CLI's flags or the
//! designer's export form), read into [`Options`] the same way for both:
//! artifacts checked against the list, the probe order parsed, the MAC
//! discovery file read against it, the rewire source opened.

use super::{ARTIFACTS, Options};
use crate::routing::addresses::AddressError;
use crate::routing::{Interfaces, MacTable};
use fnn_core::design::{Design, TableError, parse_table};
use fnn_core::input::{InputError, read_text};
use fnn_core::session::SessionError;
use fnn_core::spec::Cluster;
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

/// Which of the choices an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Artifacts,
    ProbeOrder,
    Macs,
    Rewire,
}

impl Choice {
    /// Its name in the designer's export form.
    pub fn label(self) -> &'static str {
        match self {
            Choice::Artifacts => "artifacts",
            Choice::ProbeOrder => "probe order",
            Choice::Macs => "MAC file",
            Choice::Rewire => "rewire from",
        }
    }

    /// Its flag on the command line, where the message does not already
    /// name what was typed (a file's errors name the file).
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Choice::Artifacts => Some("--only"),
            Choice::ProbeOrder => Some("--probe-order"),
            Choice::Macs | Choice::Rewire => None,
        }
    }
}

/// What was wrong with a choice.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    #[error("`{0}` is not an artifact: use {list}", list = ARTIFACTS.join(", "))]
    UnknownArtifact(String),
    #[error(transparent)]
    Addresses(#[from] AddressError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Macs(#[from] crate::routing::macs::MacReadError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// A choice that cannot be used, named as the export form names it.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", choice.label())]
pub struct ChoiceError {
    pub choice: Choice,
    #[source]
    pub source: Problem,
}

impl ChoiceError {
    /// The message with the choice named by its command-line flag.
    pub fn for_command_line(&self) -> String {
        match self.choice.flag() {
            Some(flag) => format!("{flag}: {}", self.source),
            None => self.source.to_string(),
        }
    }
}

/// Tags an error with the choice it is about.
fn about<E: Into<Problem>>(choice: Choice) -> impl FnOnce(E) -> ChoiceError {
    move |e| ChoiceError {
        choice,
        source: e.into(),
    }
}

impl Choices {
    /// The export options, or what is wrong, naming the field.
    pub fn resolve(&self, c: &Cluster, session_dirs: &[PathBuf]) -> Result<Options, ChoiceError> {
        for a in &self.only {
            if !ARTIFACTS.contains(&a.as_str()) {
                return Err(about(Choice::Artifacts)(Problem::UnknownArtifact(a.clone())));
            }
        }
        let interfaces = match &self.probe_order {
            Some(p) => Some(Interfaces::parse(p).map_err(about(Choice::ProbeOrder))?),
            None => None,
        };
        let ifaces = interfaces.clone().unwrap_or(Interfaces {
            probe_order: (1..=c.max_nics().max(1) as usize).collect(),
        });
        let macs = match &self.macs {
            Some(path) => {
                let names = |s: &str| c.pc_named(s);
                Some(MacTable::read(path, &names, &ifaces).map_err(about(Choice::Macs))?)
            }
            None => None,
        };
        let from = match &self.rewire {
            None => None,
            Some(Rewire::Design(d)) => Some(d.clone()),
            Some(Rewire::Table(path)) => {
                let text = read_text(path).map_err(about(Choice::Rewire))?;
                Some(
                    parse_table(&text, &fnn_core::input::shown(path), c.pcs(), c.switch_count())
                        .map_err(about(Choice::Rewire))?,
                )
            }
            Some(Rewire::Session(name)) => {
                let (session, _) =
                    fnn_core::session::open_session(name, session_dirs).map_err(about(Choice::Rewire))?;
                let (_, engine) = session.restore_best().map_err(about(Choice::Rewire))?;
                Some(engine.best_design())
            }
        };
        Ok(Options {
            only: self.only.clone(),
            interfaces,
            macs,
            from,
            ..Options::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    fn cluster() -> Cluster {
        fnn_core::spec::Spec::klat2().resolve().unwrap()
    }

    #[test]
    fn a_refused_choice_is_named_for_the_form_and_for_the_command_line() {
        let c = cluster();
        let bad = Choices {
            only: vec!["routnig".into()],
            ..Choices::default()
        };
        let e = bad.resolve(&c, &[]).unwrap_err();
        assert_eq!(e.choice, Choice::Artifacts);
        assert!(
            e.to_string().starts_with("artifacts: `routnig` is not an artifact"),
            "{e}"
        );
        assert!(
            e.for_command_line().starts_with("--only: `routnig`"),
            "{}",
            e.for_command_line()
        );
        let order = Choices {
            probe_order: Some("1,x".into()),
            ..Choices::default()
        };
        let e = order.resolve(&c, &[]).unwrap_err();
        assert!(e.to_string().starts_with("probe order: "), "{e}");
        assert!(
            e.for_command_line().starts_with("--probe-order: "),
            "{}",
            e.for_command_line()
        );
    }

    #[test]
    fn a_file_choice_keeps_the_reading_error_as_its_source() {
        let missing = PathBuf::from("/nonexistent/macs.txt");
        let e = Choices {
            macs: Some(missing),
            ..Choices::default()
        }
        .resolve(&cluster(), &[])
        .unwrap_err();
        assert_eq!(e.choice, Choice::Macs);
        let source = e.source().expect("the reading error");
        assert!(
            source
                .downcast_ref::<Problem>()
                .is_some_and(|p| matches!(p, Problem::Macs(crate::routing::macs::MacReadError::Input(_))))
        );
        // The file's own error names the file: the command line adds nothing.
        assert_eq!(e.for_command_line(), source.to_string());
        assert!(
            e.for_command_line().contains("/nonexistent/macs.txt"),
            "{}",
            e.for_command_line()
        );
    }
}
