//! The command-line rules both CLIs share (`evodb` natively, the Node drop-in through the npm
//! package): flags as a CLI read them → the JSON the engine validates. Flags only translate;
//! every range and type check, and its message naming the field, stays with the type it
//! checks ([`crate::Config::from_json`], [`crate::AddRequest::from_json`]).

mod add;
mod init;
mod playbook;

pub use add::{AddCommand, AddFlags, add_request_from_flags, embedding_from_flag, without_final_newline};
pub use init::{ConfigFile, ConfigFlags, config_from_flags};
pub use playbook::config_from_playbook;

/// Why the flags make no request: a usage error (a flag's form, exit 2) or bad input (a value
/// that is not JSON, exit 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    BadInput(String),
}
