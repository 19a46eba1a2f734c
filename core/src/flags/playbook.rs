//! `config_from_playbook`: a filled strategy playbook (`strategy.md`) → the run's config JSON, so
//! the island table and the stopping rules are written once, in the playbook, and never copied by
//! hand into `config.json` (`evodb strategy config`); `evodb strategy check --db` compares them
//! with a run's config.

use serde_json::{Map, Value, json};

use super::FlagError;

/// The stopping rules a playbook states (`- `key`: value` in its "Stopping rules" section).
const STOPPING: [&str; 5] = ["scoreThreshold", "maxEvaluations", "patience", "maxRounds", "noiseMargin"];

/// The config a filled playbook gives: `islands` from its island table (in order), `operators`
/// on with the default weights, and the `stopping` rules it states (`none` leaves one out). An
/// unfilled `<CUSTOMIZE: …>` marker in either section, or a stopping value that is not a number,
/// is refused naming it.
///
/// ```
/// let playbook = "## Island families\n\n| island | name | family |\n|---|---|---|\n| 0 | loops | plain loops |\n\n## Stopping rules\n\n- `patience`: 8\n- `maxRounds`: none\n";
/// let config = evodb_core::config_from_playbook(playbook).unwrap();
/// assert_eq!(config, r#"{"islands":[{"name":"loops","description":"plain loops"}],"operators":{},"stopping":{"patience":8}}"#);
/// ```
pub fn config_from_playbook(strategy_md: &str) -> Result<String, FlagError> {
    let islands = section(strategy_md, "Island families")
        .filter(|line| line.trim_start().starts_with('|'))
        .map(|line| line.trim().trim_matches('|').split('|').map(str::trim).collect::<Vec<_>>())
        .filter(|cells| cells.len() >= 3 && cells[0].parse::<u32>().is_ok())
        .map(|cells| {
            for cell in &cells[1..3] {
                unfilled(cell, "the island table")?;
            }
            Ok(json!({"name": cells[1], "description": cells[2]}))
        })
        .collect::<Result<Vec<_>, FlagError>>()?;
    if islands.is_empty() {
        return Err(FlagError::BadInput(
            "strategy.md has no island table (rows `| 0 | name | family |` under \"## Island families\"); \
             fill it, or write the run's config by hand"
                .into(),
        ));
    }
    let mut stopping = Map::new();
    for line in section(strategy_md, "Stopping rules") {
        let Some(rest) = line.trim_start().strip_prefix("- `") else { continue };
        let Some((key, value)) = rest.split_once("`:") else { continue };
        if !STOPPING.contains(&key) {
            continue;
        }
        let value = value.trim();
        unfilled(value, &format!("the stopping rule `{key}`"))?;
        if value.eq_ignore_ascii_case("none") {
            continue;
        }
        let number: serde_json::Number = value.parse().map_err(|_| {
            FlagError::BadInput(format!("strategy.md: the stopping rule `{key}` is `{value}`; write a number or none"))
        })?;
        stopping.insert(key.to_string(), Value::Number(number));
    }
    let mut config = json!({"islands": islands, "operators": {}});
    if !stopping.is_empty() {
        config["stopping"] = Value::Object(stopping);
    }
    Ok(config.to_string())
}

/// The lines of the `## <title>` section.
fn section<'a>(text: &'a str, title: &str) -> impl Iterator<Item = &'a str> {
    let heading = format!("## {title}");
    text.lines().skip_while(move |line| line.trim() != heading).skip(1).take_while(|line| !line.starts_with("## "))
}

fn unfilled(text: &str, what: &str) -> Result<(), FlagError> {
    match text.contains("<CUSTOMIZE") {
        true => Err(FlagError::BadInput(format!(
            "strategy.md: {what} still holds a <CUSTOMIZE: …> marker; fill it (`evodb strategy check` lists them)"
        ))),
        false => Ok(()),
    }
}
