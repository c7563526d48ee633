//! Why a job of the designer's worker did not do what it was asked: the
//! errors its events carry to the UI, each with its cause.

use crate::export::ExportError;
use crate::export::choices::ChoiceError;
use crate::export::racks::PlacementError;
use crate::routing::addresses::AddressError;
use crate::session::SessionError;
use crate::spec::SpecError;

/// A background job that panicked, with the panic's message.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct Panicked(pub String);

#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A session not saved, or not opened.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// An edit the run refused (said without the spec file's name: the
    /// edit came from the designer, not from a file).
    #[error("{}", .0.without_file())]
    Refused(SpecError),
    /// The export form's choices do not hold.
    #[error(transparent)]
    Choice(#[from] ChoiceError),
    /// The export failed, in the designer's words.
    #[error("{}", export_words(.0))]
    Export(ExportError),
    /// The comparison's artifacts were not written.
    #[error(transparent)]
    Artifacts(ExportError),
    #[error(transparent)]
    Placement(#[from] PlacementError),
    #[error("the rack view shows the full-size design: wait for the scaled-down phase to end")]
    ScaledPhase,
    #[error("emulate is already running")]
    EmulateRunning,
    #[error("probe order: {0}")]
    ProbeOrder(AddressError),
    #[error(transparent)]
    Emulate(#[from] crate::emulate::EmulateError),
    #[error("emulate stopped: {0}")]
    EmulateStopped(Panicked),
    /// The spec's own pins, which no wiring can obey: why.
    #[error("{0}")]
    PinsImpossible(String),
}

/// An occupied export folder in the designer's words, named whole: the
/// form's folder is relative to wherever the designer was started, which
/// the user may not have in mind. (`path` is already escaped for a
/// message; the folder is escaped here.)
fn occupied_words(path: String, why: &str, cwd: Option<&std::path::Path>) -> String {
    let whole = match cwd {
        Some(cwd) if !path.starts_with('/') => format!("{}/{path}", crate::input::shown(cwd)),
        _ => path,
    };
    format!("refusing to write into {whole}: {why}; give another folder (or empty this one)")
}

/// An export's failure in the designer's words: its flags are the
/// command line's.
fn export_words(e: &crate::export::ExportError) -> String {
    match e {
        crate::export::ExportError::Invalid(n) => format!(
            "the design is not valid ({n} required pair(s) share no switch): labels and boot scripts would build a network that does not connect them; let the search reach VALID first (or export from the command line with --allow-invalid)"
        ),
        crate::export::ExportError::Output(crate::output::OutputError::Occupied { path, why }) => {
            occupied_words(path.clone(), why, std::env::current_dir().ok().as_deref())
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::occupied_words;
    use std::path::Path;

    #[test]
    fn an_occupied_export_folder_is_named_whole() {
        let said = occupied_words("userdir".into(), "it holds files", Some(Path::new("/home/ann")));
        assert!(
            said.starts_with("refusing to write into /home/ann/userdir: it holds files"),
            "{said}"
        );
        let said = occupied_words("/srv/out".into(), "it holds files", Some(Path::new("/home/ann")));
        assert!(said.starts_with("refusing to write into /srv/out:"), "{said}");
    }
}
