//! `add_request_from_flags`: `seed`'s and `add`'s flags → the [`AddRequest`] the engine adds. In
//! two steps, because a flag may name a file (or standard input) that a CLI reads in between:
//! [`AddCommand::check_required`] refuses a missing flag before anything is read, in the seed's
//! order; [`add_request_from_flags`] then builds the request from the texts and checks it, so a
//! refused request never reaches a database.

use serde::{Deserialize, Serialize};

use super::FlagError;
use crate::api::{AddRequest, ROOT_PARENT_ID, SEED_CHANGES};

/// Which command's flags: `seed` (the initial program) or `add` (a child).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub enum AddCommand {
    Seed,
    Add,
}

impl AddCommand {
    /// The flags the command requires, in the seed's order of checks, each with the flags that
    /// give it (`--targetCode` or `--targetCodeFile`).
    pub fn required(self) -> &'static [(&'static str, &'static [&'static str])] {
        const CODE: [(&str, &[&str]); 2] =
            [("codePath", &["codePath"]), ("targetCode", &["targetCode", "targetCodeFile"])];
        match self {
            AddCommand::Seed => &[CODE[0], CODE[1], ("metrics", &["metrics"])],
            AddCommand::Add => &[
                CODE[0],
                CODE[1],
                ("parentId", &["parentId"]),
                ("metrics", &["metrics"]),
                ("changes", &["changes", "changesFile"]),
            ],
        }
    }

    /// Refuses the first required flag that `given` (the flags on the command line, by their
    /// table names) lacks, with the seed's message, word for word.
    pub fn check_required(self, given: &[&str]) -> Result<(), FlagError> {
        match self.required().iter().find(|(_, any_of)| !any_of.iter().any(|flag| given.contains(flag))) {
            Some((name, _)) => Err(FlagError::Usage(format!("Missing required flag: --{name}"))),
            None => Ok(()),
        }
    }
}

/// `seed`'s and `add`'s flags as a CLI read them: text as given, files already read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct AddFlags {
    pub code_path: Option<String>,
    /// `--targetCode`, or the text of `--targetCodeFile` (its bytes as they are).
    pub target_code: Option<String>,
    /// `--metrics`: JSON text.
    pub metrics: Option<String>,
    pub changes: Option<String>,
    /// `changes` is the text of `--changesFile`: its final newline is not part of it.
    pub changes_from_file: bool,
    pub parent_id: Option<String>,
    pub id: Option<String>,
    pub island: Option<u32>,
    pub status: Option<String>,
    /// `--decide`: the engine applies the playbook's rule (`decide_status`).
    pub decide: bool,
    pub reason: Option<String>,
    pub operator: Option<String>,
    pub plan_item: Option<String>,
    /// `--token`: the lease token of the plan item it answers.
    pub token: Option<String>,
    /// `--targetId`: the request's `target`.
    pub target_id: Option<String>,
    /// Cost and attribution, as given.
    pub model: Option<String>,
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    pub cost_usd: Option<f64>,
    pub eval_seconds: Option<f64>,
    /// `--instanceScores`: JSON text, instance id → score.
    pub instance_scores: Option<String>,
    /// `--embedding`: JSON text, a list of numbers ([`embedding_from_flag`]).
    pub embedding: Option<String>,
}

/// The request `flags` give `command`, checked with the engine's own rules (errors name the
/// field, e.g. `metrics.score`): everything a database's add checks about the request alone.
///
/// ```
/// use evodb_core::{AddCommand, AddFlags, add_request_from_flags};
/// let flags = AddFlags {
///     code_path: Some("a.py".into()),
///     target_code: Some("def f(): pass".into()),
///     metrics: Some(r#"{"score": 0.5}"#.into()),
///     ..AddFlags::default()
/// };
/// let request = add_request_from_flags(AddCommand::Seed, &flags).unwrap();
/// assert_eq!((request.parent_id.as_str(), request.changes.as_str()), ("0", "initial implementation"));
/// ```
pub fn add_request_from_flags(command: AddCommand, flags: &AddFlags) -> Result<AddRequest, FlagError> {
    let present: Vec<&str> = [
        ("codePath", flags.code_path.is_some()),
        ("targetCode", flags.target_code.is_some()),
        ("parentId", flags.parent_id.is_some()),
        ("metrics", flags.metrics.is_some()),
        ("changes", flags.changes.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, given)| given.then_some(name))
    .collect();
    command.check_required(&present)?;
    let metrics = flags.metrics.as_deref().unwrap_or_default();
    let metrics: serde_json::Value = serde_json::from_str(metrics).map_err(|e| {
        FlagError::BadInput(format!(
            "--metrics is not valid JSON ({e}); pass an object of finite numbers, e.g. --metrics '{{\"score\": 0.8}}'"
        ))
    })?;
    let embedding = flags.embedding.as_deref().map(embedding_from_flag).transpose()?;
    let changes = flags.changes.as_deref().map(|text| match flags.changes_from_file {
        true => without_final_newline(text),
        false => text,
    });
    let mut request = serde_json::json!({
        "codePath": flags.code_path,
        "targetCode": flags.target_code,
        "metrics": metrics,
    });
    let fields = request.as_object_mut().expect("an object");
    let (parent, changes) = match command {
        AddCommand::Seed => (Some(ROOT_PARENT_ID), Some(changes.unwrap_or(SEED_CHANGES))),
        AddCommand::Add => (flags.parent_id.as_deref(), changes),
    };
    let optional = [
        ("parentId", parent.map(Into::into)),
        ("changes", changes.map(Into::into)),
        ("id", flags.id.clone().map(Into::into)),
        ("island", flags.island.map(Into::into)),
        ("status", flags.status.clone().map(Into::into)),
        ("reason", flags.reason.clone().map(Into::into)),
        ("operator", flags.operator.clone().map(Into::into)),
        ("planItem", flags.plan_item.clone().map(Into::into)),
        ("token", flags.token.clone().map(Into::into)),
        ("target", flags.target_id.clone().map(Into::into)),
        ("decide", flags.decide.then_some(true.into())),
        ("model", flags.model.clone().map(Into::into)),
        ("tokensIn", flags.tokens_in.map(Into::into)),
        ("tokensOut", flags.tokens_out.map(Into::into)),
        ("costUsd", flags.cost_usd.map(Into::into)),
        ("evalSeconds", flags.eval_seconds.map(Into::into)),
        ("embedding", embedding.map(Into::into)),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            fields.insert(key.into(), value);
        }
    }
    if let Some(text) = &flags.instance_scores {
        let scores: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            FlagError::BadInput(format!(
                "--instanceScores is not valid JSON ({e}); pass an object of instance ids to finite scores, e.g. \
                 --instanceScores '{{\"test_1\": 1, \"test_2\": 0}}'"
            ))
        })?;
        fields.insert("instanceScores".into(), scores);
    }
    let request = AddRequest::from_json(&request.to_string()).map_err(|e| FlagError::BadInput(e.to_string()))?;
    request.validate().map_err(|e| FlagError::BadInput(e.to_string()))?;
    Ok(request)
}

/// `--embedding`'s text (of `add`, `seed` and `admit`) as the vector it gives: a JSON list of
/// numbers. Only its form is checked here; the engine checks the numbers (finite, not all zeros,
/// the run's length).
///
/// ```
/// assert_eq!(evodb_core::embedding_from_flag("[0.5, -1, 2e-3]").unwrap(), [0.5, -1.0, 0.002]);
/// assert!(evodb_core::embedding_from_flag("0.5, 1").unwrap_err().to_string().contains("--embedding '[0.12"));
/// ```
pub fn embedding_from_flag(text: &str) -> Result<Vec<f64>, FlagError> {
    serde_json::from_str(text).map_err(|e| {
        FlagError::BadInput(format!(
            "--embedding is not a JSON list of numbers ({e}); pass your model's vector of the code, e.g. \
             --embedding '[0.12, -0.5, 0.33]'"
        ))
    })
}

/// A description or note read from a file ends where its text does: the file's final newline
/// (`\n` or `\r\n`) is not part of it.
pub fn without_final_newline(text: &str) -> &str {
    text.strip_suffix("\r\n").or_else(|| text.strip_suffix('\n')).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add_flags() -> AddFlags {
        AddFlags {
            code_path: Some("c.py".into()),
            target_code: Some("x = 1".into()),
            parent_id: Some("p".into()),
            metrics: Some(r#"{"score": 1}"#.into()),
            changes: Some("tried\r\n".into()),
            changes_from_file: true,
            ..AddFlags::default()
        }
    }

    #[test]
    fn a_missing_flag_is_named_in_the_seeds_order() {
        let flags = AddFlags { code_path: None, metrics: None, ..add_flags() };
        let err = add_request_from_flags(AddCommand::Add, &flags).unwrap_err();
        assert_eq!(err, FlagError::Usage("Missing required flag: --codePath".into()));
        assert!(AddCommand::Seed.check_required(&["codePath", "targetCodeFile", "metrics"]).is_ok());
        let err = AddCommand::Add.check_required(&["codePath", "targetCode", "parentId", "metrics"]).unwrap_err();
        assert_eq!(err, FlagError::Usage("Missing required flag: --changes".into()));
    }

    #[test]
    fn a_description_from_a_file_loses_its_final_newline_only() {
        let request = add_request_from_flags(AddCommand::Add, &add_flags()).unwrap();
        assert_eq!(request.changes, "tried");
        let given = AddFlags { changes_from_file: false, changes: Some("tried\n".into()), ..add_flags() };
        assert_eq!(add_request_from_flags(AddCommand::Add, &given).unwrap().changes, "tried\n");
    }

    #[test]
    fn bad_metrics_and_bad_fields_are_bad_input_naming_them() {
        for (metrics, expected) in [
            ("{", "--metrics is not valid JSON"),
            (r#"{"s": 1e999}"#, "--metrics is not valid JSON"),
            (r#"{"s": "high"}"#, "metrics.s"),
        ] {
            let flags = AddFlags { metrics: Some(metrics.into()), ..add_flags() };
            match add_request_from_flags(AddCommand::Add, &flags) {
                Err(FlagError::BadInput(message)) => assert!(message.contains(expected), "{metrics}: {message}"),
                other => panic!("{metrics}: {other:?}"),
            }
        }
        let flags = AddFlags { status: Some("error".into()), ..add_flags() };
        let err = add_request_from_flags(AddCommand::Add, &flags).unwrap_err();
        assert!(err.to_string().contains("reason"), "{err}");
    }

    #[test]
    fn a_seed_gets_the_root_parent_and_the_seed_description() {
        let flags = AddFlags { parent_id: None, changes: None, target_id: Some("t".into()), ..add_flags() };
        let request = add_request_from_flags(AddCommand::Seed, &flags).unwrap();
        assert!(request.is_seed());
        assert_eq!(request.target.as_deref(), Some("t"));
    }
}
