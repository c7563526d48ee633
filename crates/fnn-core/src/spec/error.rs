use thiserror::Error;

/// Everything that can be wrong with a spec before the search starts. Each
/// message names the file, the field and what is allowed, or the bound an
/// impossible spec breaks.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SpecError {
    /// `message` names the file and the operating system's reason.
    #[error("{message}")]
    Io { file: String, message: String },
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    #[error("{file}: field `{field}`: {message}")]
    Field {
        file: String,
        field: String,
        message: String,
    },
    #[error("{file}: impossible: {reason}")]
    Infeasible { file: String, reason: String },
}

impl SpecError {
    pub fn field(file: &str, field: impl Into<String>, message: impl Into<String>) -> Self {
        SpecError::Field {
            file: file.to_string(),
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn infeasible(file: &str, reason: impl Into<String>) -> Self {
        SpecError::Infeasible {
            file: file.to_string(),
            reason: reason.into(),
        }
    }

    /// The message without the file it names: for an edit made in the
    /// designer, where there is no file to name.
    pub fn without_file(&self) -> String {
        match self {
            SpecError::Io { message, .. } | SpecError::Parse { message, .. } => message.clone(),
            SpecError::Field { field, message, .. } => format!("field `{field}`: {message}"),
            SpecError::Infeasible { reason, .. } => format!("impossible: {reason}"),
        }
    }
}
