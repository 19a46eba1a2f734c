//! `init`'s flags → the config JSON the engine validates. Flags only translate: each value goes
//! in as JSON (a number stays a number, anything else becomes a string), so every range and
//! type check — and its message naming the field — stays in the engine.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_cli_spec::{CONFIG_SCALARS, STOPPING_RULES};
use serde_json::{Map, Value, json};

use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{list, optional};

/// `init`'s config flags. Values are passed to the engine as JSON (a number stays a number,
/// anything else is a string), so its validation names the field.
#[derive(Debug)]
pub struct ConfigFlags {
    pub config: Option<PathBuf>,
    /// The top-level scalar options given, as (JSON key, flag value), in the table's order.
    pub scalars: Vec<(&'static str, String)>,
    pub fitness: Option<String>,
    pub directions: Vec<String>,
    pub features: Option<String>,
    pub operators: Option<String>,
    pub dedupe: bool,
    /// The `stopping` rules given, as (JSON key, flag value).
    pub stopping: Vec<(&'static str, String)>,
}

impl ConfigFlags {
    pub fn from_matches(m: &ArgMatches) -> ConfigFlags {
        let given = |flags: &'static [evodb_cli_spec::Flag]| {
            flags.iter().filter_map(|flag| optional::<String>(m, flag.name).map(|value| (flag.name, value))).collect()
        };
        ConfigFlags {
            config: optional(m, "config"),
            scalars: given(CONFIG_SCALARS),
            fitness: optional(m, "fitness"),
            directions: list(m, "direction"),
            features: optional(m, "features"),
            operators: optional(m, "operators"),
            dedupe: m.get_flag("dedupe"),
            stopping: given(STOPPING_RULES),
        }
    }
}

pub fn config_json(args: &ConfigFlags) -> Result<String, Failure> {
    let mut config = match &args.config {
        None => Map::new(),
        Some(path) => {
            let text = read_text("--config", path)?;
            match serde_json::from_str(&text) {
                Ok(Value::Object(map)) => map,
                Ok(_) => {
                    return Err(Failure::BadInput(format!("--config: `{}` must hold a JSON object", path.display())));
                }
                Err(e) => {
                    return Err(Failure::BadInput(format!("--config: `{}` is not valid JSON ({e})", path.display())));
                }
            }
        }
    };
    for (key, value) in &args.scalars {
        config.insert((*key).into(), scalar(value));
    }
    if let Some(rule) = &args.fitness {
        config.insert("fitness".into(), fitness(rule)?);
    }
    if !args.directions.is_empty() {
        let mut directions = Map::new();
        for pair in &args.directions {
            let (metric, direction) = pair.split_once('=').ok_or_else(|| {
                Failure::Usage(format!("--direction `{pair}`: expected <metric>=min or <metric>=max"))
            })?;
            directions.insert(metric.into(), json!(direction));
        }
        config.insert("directions".into(), Value::Object(directions));
    }
    if let Some(features) = &args.features {
        config.insert("features".into(), json_flag("--features", features)?);
    }
    if let Some(operators) = &args.operators {
        let weights = if operators == "default" { json!({}) } else { json_flag("--operators", operators)? };
        config.insert("operators".into(), weights);
    }
    if args.dedupe {
        config.insert("dedupe".into(), json!(true));
    }
    if !args.stopping.is_empty() {
        let rules = config.entry("stopping").or_insert_with(|| json!({}));
        for (key, value) in &args.stopping {
            if let Some(rules) = rules.as_object_mut() {
                rules.insert((*key).into(), scalar(value));
            }
        }
    }
    Ok(Value::Object(config).to_string())
}

fn json_flag(flag: &str, text: &str) -> Result<Value, Failure> {
    serde_json::from_str(text)
        .map_err(|e| Failure::BadInput(format!("{flag} is not valid JSON ({e}); see `evodb init --help`")))
}

fn scalar(value: &str) -> Value {
    match serde_json::from_str::<Value>(value) {
        Ok(number @ Value::Number(_)) => number,
        _ => json!(value),
    }
}

/// `mean` | `primary:<metric>` | `weighted:<metric>=<weight>,…` → the engine's `fitness` object.
fn fitness(rule: &str) -> Result<Value, Failure> {
    let usage = || {
        Failure::Usage(format!("--fitness `{rule}`: expected mean, primary:<metric> or weighted:<metric>=<weight>,…"))
    };
    match rule.split_once(':') {
        None if rule == "mean" => Ok(json!({"kind": "mean"})),
        Some(("primary", metric)) => Ok(json!({"kind": "primary", "metric": metric})),
        Some(("weighted", pairs)) => {
            let mut weights = Map::new();
            for pair in pairs.split(',') {
                let (metric, weight) = pair.split_once('=').ok_or_else(usage)?;
                weights.insert(metric.into(), scalar(weight));
            }
            Ok(json!({"kind": "weighted", "weights": weights}))
        }
        _ => Err(usage()),
    }
}
