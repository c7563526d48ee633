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
    #[error("{}", super::worker::export_words(.0))]
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
