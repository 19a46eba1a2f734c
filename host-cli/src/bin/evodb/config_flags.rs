//! `init`'s config flags, read from the parser's matches into the core's [`ConfigFlags`]; the
//! rule that makes them a config is the core's (`evodb_core::config_from_flags`), which the Node
//! drop-in calls too.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_cli_spec::{CONFIG_SCALARS, STOPPING_RULES};
use evodb_core::{ConfigFile, ConfigFlags, config_from_flags};

use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{list, optional};

/// `init`'s config flags as given; `--config` is read when the config is made.
#[derive(Debug)]
pub struct InitConfig {
    pub config: Option<PathBuf>,
    pub flags: ConfigFlags,
}

impl InitConfig {
    pub fn from_matches(m: &ArgMatches) -> InitConfig {
        let given = |flags: &'static [evodb_cli_spec::Flag]| {
            flags
                .iter()
                .filter_map(|flag| optional::<String>(m, flag.name).map(|value| (flag.name.to_string(), value)))
                .collect()
        };
        let flags = ConfigFlags {
            config_file: None,
            scalars: given(CONFIG_SCALARS),
            fitness: optional(m, "fitness"),
            directions: list(m, "direction"),
            features: optional(m, "features"),
            operators: optional(m, "operators"),
            dedupe: m.get_flag("dedupe"),
            stopping: given(STOPPING_RULES),
            selection: optional(m, "selection"),
            objectives: optional(m, "objectives"),
        };
        InitConfig { config: optional(m, "config"), flags }
    }

    /// The config JSON for the engine to validate.
    pub fn to_json(&self) -> Result<String, Failure> {
        let mut flags = self.flags.clone();
        if let Some(path) = &self.config {
            let text = read_text("--config", path)?;
            flags.config_file = Some(ConfigFile { path: path.display().to_string(), text });
        }
        Ok(config_from_flags(&flags, "evodb")?)
    }
}
