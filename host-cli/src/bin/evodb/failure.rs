//! Every way a command fails, each with its documented exit code (the table's exit codes, `evodb_cli_spec::CLI.exit_codes`).

use evodb_host::{HostError, population};
use evodb_trial::{ErrorKind, TrialError};

#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Limit(String),
    #[error("{0}")]
    Io(String),
    /// `trial --judge`: the judge's answer is invalid; the orchestrator asks again.
    #[error("{0}")]
    Retry(String),
    #[error("{0}")]
    Internal(String),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::BadInput(_) => 1,
            Failure::Usage(_) => 2,
            Failure::NotFound(_) => 3,
            Failure::Limit(_) => 4,
            Failure::Io(_) => 5,
            Failure::Retry(_) => 6,
            Failure::Internal(_) => 70,
        }
    }
}

/// A flag rule of the core (`config_from_flags`, `add_request_from_flags`): a flag's form is a
/// usage error (exit 2), a value the engine refuses is bad input (exit 1).
impl From<evodb_core::FlagError> for Failure {
    fn from(err: evodb_core::FlagError) -> Failure {
        match err {
            evodb_core::FlagError::Usage(message) => Failure::Usage(message),
            evodb_core::FlagError::BadInput(message) => Failure::BadInput(message),
        }
    }
}

impl From<HostError> for Failure {
    fn from(err: HostError) -> Failure {
        let message = err.to_string();
        match err {
            HostError::Database(population::Error::Io(_)) | HostError::Io(_) => Failure::Io(message),
            HostError::Database(_) => Failure::BadInput(message),
            HostError::TimeBudget(_)
            | HostError::MemoryCap(_)
            | HostError::Deadline(_)
            | HostError::AddressSpace(_) => Failure::Limit(message),
            HostError::Trap(_) => Failure::Internal(message),
        }
    }
}

/// `trial`, `apply`: the trial's taxonomy, one exit code each (a report that comes with the
/// error is the reply's, `Reply::from(TrialError)`).
impl From<TrialError> for Failure {
    fn from(err: TrialError) -> Failure {
        match err.kind {
            ErrorKind::Usage => Failure::Usage(err.message),
            ErrorKind::NotFound => Failure::NotFound(err.message),
            ErrorKind::BadInput => Failure::BadInput(err.message),
            ErrorKind::Timeout => Failure::Limit(err.message),
            ErrorKind::Retry => Failure::Retry(err.message),
            ErrorKind::Io => Failure::Io(err.message),
            ErrorKind::Internal => Failure::Internal(err.message),
        }
    }
}

/// The core's refusal of an input (a request, a config): the message names the field.
impl From<evodb_core::Error> for Failure {
    fn from(err: evodb_core::Error) -> Failure {
        Failure::BadInput(err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::Failure;

    #[test]
    fn every_exit_code_is_documented_in_the_table() {
        let failures = [
            Failure::BadInput,
            Failure::Usage,
            Failure::NotFound,
            Failure::Limit,
            Failure::Io,
            Failure::Retry,
            Failure::Internal,
        ];
        for failure in failures.map(|variant| variant(String::new())) {
            let code = failure.exit_code();
            assert!(
                evodb_cli_spec::CLI.exit_codes.iter().any(|class| i32::from(class.code) == code),
                "{failure:?} exits {code}, which the table does not document"
            );
        }
    }
}
