//! `config_from_flags`: `init`'s flags → the config JSON the engine validates, the one rule both
//! CLIs call (`evodb` natively, the Node drop-in through the npm package's `configFromFlags`).
//! Flags only translate: each value goes in as JSON (a number stays a number, anything else
//! becomes a string), so every range and type check — and its message naming the field — stays
//! in [`Config::from_json`](crate::config::Config::from_json).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::FlagError;

/// `init`'s config flags as a CLI read them: text as given, the `--config` file already read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct ConfigFlags {
    /// `--config`: where the file was read (`-` for standard input) and its text.
    pub config_file: Option<ConfigFile>,
    /// The top-level scalar options given, as `[JSON key, flag text]`, in the table's order.
    pub scalars: Vec<(String, String)>,
    /// `--fitness`: `mean` | `primary:<metric>` | `weighted:<metric>=<weight>,…`.
    pub fitness: Option<String>,
    /// `--direction <metric>=min|max`, each given.
    pub directions: Vec<String>,
    pub features: Option<String>,
    /// `--operators`: a JSON object of weights, or `default`.
    pub operators: Option<String>,
    pub dedupe: bool,
    /// The `stopping` rules given, as `[JSON key, flag text]`.
    pub stopping: Vec<(String, String)>,
    /// `--selection`: `scalar` | `pareto` | `lexicographic` | `instances`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<String>,
    /// `--objectives`: metric names, comma-separated, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objectives: Option<String>,
}

/// A `--config` file: its name, for messages, and its text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct ConfigFile {
    pub path: String,
    pub text: String,
}

/// The config JSON `flags` give; `program` is the CLI's name, for the help it points to.
pub fn config_from_flags(flags: &ConfigFlags, program: &str) -> Result<String, FlagError> {
    let mut config = match &flags.config_file {
        None => Map::new(),
        Some(ConfigFile { path, text }) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(FlagError::BadInput(format!("--config: `{path}` must hold a JSON object"))),
            Err(e) => return Err(FlagError::BadInput(format!("--config: `{path}` is not valid JSON ({e})"))),
        },
    };
    let json_flag = |flag: &str, text: &str| {
        serde_json::from_str::<Value>(text)
            .map_err(|e| FlagError::BadInput(format!("{flag} is not valid JSON ({e}); see `{program} init --help`")))
    };
    for (key, value) in &flags.scalars {
        config.insert(key.clone(), scalar(value));
    }
    if let Some(rule) = &flags.fitness {
        config.insert("fitness".into(), fitness(rule)?);
    }
    if !flags.directions.is_empty() {
        let mut directions = Map::new();
        for pair in &flags.directions {
            let (metric, direction) = pair.split_once('=').ok_or_else(|| {
                FlagError::Usage(format!("--direction `{pair}`: expected <metric>=min or <metric>=max"))
            })?;
            directions.insert(metric.into(), json!(direction));
        }
        config.insert("directions".into(), Value::Object(directions));
    }
    if let Some(features) = &flags.features {
        config.insert("features".into(), json_flag("--features", features)?);
    }
    if let Some(operators) = &flags.operators {
        let weights = if operators == "default" { json!({}) } else { json_flag("--operators", operators)? };
        config.insert("operators".into(), weights);
    }
    if flags.dedupe {
        config.insert("dedupe".into(), json!(true));
    }
    if flags.selection.is_some() || flags.objectives.is_some() {
        let selection = config.entry("selection").or_insert_with(|| json!({}));
        let Some(selection) = selection.as_object_mut() else {
            return Err(FlagError::BadInput("--config: `selection` must be a JSON object".into()));
        };
        if let Some(mode) = &flags.selection {
            selection.insert("mode".into(), json!(mode));
        }
        if let Some(names) = &flags.objectives {
            let names: Vec<&str> = names.split(',').map(str::trim).collect();
            selection.insert("objectives".into(), json!(names));
        }
    }
    if !flags.stopping.is_empty() {
        let rules = config.entry("stopping").or_insert_with(|| json!({}));
        if let Some(rules) = rules.as_object_mut() {
            for (key, value) in &flags.stopping {
                rules.insert(key.clone(), scalar(value));
            }
        }
    }
    Ok(Value::Object(config).to_string())
}

/// A flag's text as a finite number where it is one, else as it is (the engine judges its type).
fn scalar(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(number @ Value::Number(_)) => number,
        _ => json!(text),
    }
}

/// `mean` | `primary:<metric>` | `weighted:<metric>=<weight>,…` → the engine's `fitness` object.
fn fitness(rule: &str) -> Result<Value, FlagError> {
    let usage = || {
        FlagError::Usage(format!("--fitness `{rule}`: expected mean, primary:<metric> or weighted:<metric>=<weight>,…"))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn flags() -> ConfigFlags {
        ConfigFlags {
            config_file: Some(ConfigFile {
                path: "c.json".into(),
                text: r#"{"numIslands": 3, "stopping": {"maxIterations": 9}}"#.into(),
            }),
            scalars: vec![("numIslands".into(), "4".into()), ("migration".into(), "copy".into())],
            fitness: Some("weighted:score=2,speed=x".into()),
            directions: vec!["speed=min".into()],
            features: Some("[]".into()),
            operators: Some("default".into()),
            dedupe: true,
            stopping: vec![("patience".into(), "5".into())],
            selection: None,
            objectives: None,
        }
    }

    #[test]
    fn selection_and_objectives_make_the_selection_object() {
        let flags = ConfigFlags {
            selection: Some("pareto".into()),
            objectives: Some("speed, accuracy".into()),
            ..ConfigFlags::default()
        };
        let config = config_from_flags(&flags, "evodb").unwrap();
        assert_eq!(config, r#"{"selection":{"mode":"pareto","objectives":["speed","accuracy"]}}"#);
        crate::Config::from_json(&config).unwrap();
        let one = ConfigFlags { objectives: Some("speed".into()), ..flags };
        let err = crate::Config::from_json(&config_from_flags(&one, "evodb").unwrap()).unwrap_err().to_string();
        assert!(err.contains("at least 2"), "{err}");
    }

    #[test]
    fn flags_override_the_file_and_keep_their_order() {
        let config = config_from_flags(&flags(), "evodb").unwrap();
        assert_eq!(
            config,
            r#"{"numIslands":4,"stopping":{"maxIterations":9,"patience":5},"migration":"copy","fitness":{"kind":"weighted","weights":{"score":2,"speed":"x"}},"directions":{"speed":"min"},"features":[],"operators":{},"dedupe":true}"#
        );
    }

    #[test]
    fn a_flag_of_the_wrong_form_is_usage_and_bad_json_is_bad_input() {
        let bad_fitness = ConfigFlags { fitness: Some("best".into()), ..ConfigFlags::default() };
        assert!(
            matches!(config_from_flags(&bad_fitness, "evodb"), Err(FlagError::Usage(m)) if m.contains("--fitness `best`"))
        );
        let bad_direction = ConfigFlags { directions: vec!["speed".into()], ..ConfigFlags::default() };
        assert!(matches!(config_from_flags(&bad_direction, "evodb"), Err(FlagError::Usage(_))));
        let bad_features = ConfigFlags { features: Some("{bad".into()), ..ConfigFlags::default() };
        let err = config_from_flags(&bad_features, "db-cli.mjs").unwrap_err();
        assert!(matches!(&err, FlagError::BadInput(m) if m.contains("see `db-cli.mjs init --help`")), "{err:?}");
        let array = ConfigFlags {
            config_file: Some(ConfigFile { path: "a".into(), text: "[1]".into() }),
            ..ConfigFlags::default()
        };
        assert_eq!(
            config_from_flags(&array, "evodb"),
            Err(FlagError::BadInput("--config: `a` must hold a JSON object".into()))
        );
    }
}
