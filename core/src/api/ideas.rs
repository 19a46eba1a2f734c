//! Ideas (evoidea's members): the idea itself, its origin, the critic's eight criteria and the
//! brief a refine item carries. An idea is stored as a program whose `targetCode` is the idea's
//! canonical compact JSON ([`Idea::canonical_json`]), so islands, sampling, the archive, lineage,
//! events and replay carry over unchanged.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// The critic's criteria, each scored 0–10, in the seed's order: an idea's metrics.
pub const IDEA_CRITERIA: [&str; 8] =
    ["feasibility", "speed_to_value", "differentiation", "market_size", "distribution", "moats", "risk", "clarity"];

/// The lowest and highest score a criterion may get.
pub const IDEA_SCORE_RANGE: (f64, f64) = (0.0, 10.0);

/// The `codePath` every idea is stored under (an idea has no file; the path only names the kind).
pub const IDEA_PATH: &str = "idea.json";

/// Longest title, summary and facet, in bytes: an idea is a compact record, not a document.
pub const MAX_IDEA_TITLE_BYTES: usize = 200;
pub const MAX_IDEA_SUMMARY_BYTES: usize = 2_000;
pub const MAX_IDEA_FACET_BYTES: usize = 1_000;

/// How an idea came about (evoidea's `origin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum IdeaOrigin {
    /// Made from the run's prompt alone: no parent.
    Generated,
    /// One idea improved: one parent.
    Refined,
    /// Several ideas combined: two parents or more.
    Merged,
}

impl IdeaOrigin {
    pub fn name(self) -> &'static str {
        match self {
            IdeaOrigin::Generated => "generated",
            IdeaOrigin::Refined => "refined",
            IdeaOrigin::Merged => "merged",
        }
    }

    /// The origin a number of parents implies when the caller names none.
    pub fn implied_by(parents: usize) -> IdeaOrigin {
        match parents {
            0 => IdeaOrigin::Generated,
            1 => IdeaOrigin::Refined,
            _ => IdeaOrigin::Merged,
        }
    }

    /// Why `parents` parents do not fit this origin, if they do not.
    pub fn parent_problem(self, parents: usize) -> Option<String> {
        let fits = match self {
            IdeaOrigin::Generated => parents == 0,
            IdeaOrigin::Refined => parents == 1,
            IdeaOrigin::Merged => parents >= 2,
        };
        (!fits).then(|| {
            let wants = match self {
                IdeaOrigin::Generated => "no parent",
                IdeaOrigin::Refined => "exactly one parent",
                IdeaOrigin::Merged => "two parents or more",
            };
            format!("is `{}` but the idea has {parents} parent(s); a {} idea has {wants}", self.name(), self.name())
        })
    }
}

/// The six facets of an idea (each a short text; absent ones are empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Facets {
    pub audience: String,
    pub jtbd: String,
    pub differentiator: String,
    pub monetization: String,
    pub distribution: String,
    pub risks: String,
}

/// One idea, as evoidea's subagents write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Idea {
    pub title: String,
    pub summary: String,
    pub facets: Facets,
}

/// An idea as a subagent hands it in: the idea, plus the id it may carry and the `changes` a
/// refine lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdeaSubmission {
    pub idea: Idea,
    pub id: Option<String>,
    pub changes: Vec<String>,
}

/// The fields a submitted idea may have.
const IDEA_FIELDS: [&str; 5] = ["id", "title", "summary", "facets", "changes"];
const FACET_FIELDS: [&str; 6] = ["audience", "jtbd", "differentiator", "monetization", "distribution", "risks"];

impl Idea {
    /// Reads and checks an idea (`{"title", "summary", "facets": {…}}`; `id` and `changes` are
    /// accepted too, see [`IdeaSubmission`]). Errors name the field and the fix.
    ///
    /// ```
    /// let idea = evodb_core::Idea::from_json(r#"{"title":"Ship logs","summary":"Logs for solo devs.","facets":{"audience":"solo devs"}}"#).unwrap();
    /// assert_eq!(idea.canonical_json(), r#"{"title":"Ship logs","summary":"Logs for solo devs.","facets":{"audience":"solo devs","jtbd":"","differentiator":"","monetization":"","distribution":"","risks":""}}"#);
    /// let err = evodb_core::Idea::from_json(r#"{"summary":"no title"}"#).unwrap_err();
    /// assert!(err.to_string().contains("idea.title"), "{err}");
    /// ```
    pub fn from_json(text: &str) -> Result<Idea> {
        IdeaSubmission::from_json(text).map(|submission| submission.idea)
    }

    /// The idea as stored: compact JSON, fields in a fixed order, every facet present.
    pub fn canonical_json(&self) -> String {
        serde_json::to_string(self).expect("an idea is plain strings")
    }

    /// `title — summary`, the one-line benchmark a refine item carries.
    pub fn one_line(&self) -> String {
        format!("{} — {}", self.title, self.summary)
    }
}

impl IdeaSubmission {
    /// Reads and checks a submitted idea; see [`Idea::from_json`].
    pub fn from_json(text: &str) -> Result<IdeaSubmission> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Error::input("idea", format!("is not JSON ({e}); pass one object with `title`, `summary` and `facets`"))
        })?;
        let serde_json::Value::Object(object) = value else {
            return Err(Error::input("idea", "must be one JSON object with `title`, `summary` and `facets`"));
        };
        if let Some(unknown) = object.keys().find(|key| !IDEA_FIELDS.contains(&key.as_str())) {
            return Err(Error::input(
                format!("idea.{unknown}"),
                format!("is not an idea field; an idea has {}", IDEA_FIELDS.join(", ")),
            ));
        }
        let text_field = |name: &str, limit: usize, required: bool| -> Result<String> {
            match object.get(name) {
                None | Some(serde_json::Value::Null) if required => Err(Error::input(
                    format!("idea.{name}"),
                    format!("is missing; give the idea a {name} (at most {limit} bytes)"),
                )),
                None | Some(serde_json::Value::Null) => Ok(String::new()),
                Some(serde_json::Value::String(text)) => checked_text(&format!("idea.{name}"), text, limit, required),
                Some(_) => Err(Error::input(format!("idea.{name}"), "must be a string")),
            }
        };
        let title = text_field("title", MAX_IDEA_TITLE_BYTES, true)?;
        let summary = text_field("summary", MAX_IDEA_SUMMARY_BYTES, false)?;
        let facets = match object.get("facets") {
            None | Some(serde_json::Value::Null) => Facets::default(),
            Some(serde_json::Value::Object(facets)) => read_facets(facets)?,
            Some(_) => {
                return Err(Error::input(
                    "idea.facets",
                    format!("must be an object with the string fields {}", FACET_FIELDS.join(", ")),
                ));
            }
        };
        let id = match object.get("id") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(id)) if !id.trim().is_empty() => Some(id.clone()),
            Some(_) => return Err(Error::input("idea.id", "must be a non-empty string; leave it out to get one")),
        };
        let changes = match object.get("changes") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    serde_json::Value::String(text) => Ok(text.clone()),
                    _ => Err(Error::input(format!("idea.changes[{i}]"), "must be a string")),
                })
                .collect::<Result<Vec<_>>>()?,
            Some(_) => return Err(Error::input("idea.changes", "must be an array of strings")),
        };
        Ok(IdeaSubmission { idea: Idea { title, summary, facets }, id, changes })
    }
}

fn read_facets(facets: &serde_json::Map<String, serde_json::Value>) -> Result<Facets> {
    if let Some(unknown) = facets.keys().find(|key| !FACET_FIELDS.contains(&key.as_str())) {
        return Err(Error::input(
            format!("idea.facets.{unknown}"),
            format!("is not a facet; the facets are {}", FACET_FIELDS.join(", ")),
        ));
    }
    let facet = |name: &str| -> Result<String> {
        let field = format!("idea.facets.{name}");
        match facets.get(name) {
            None | Some(serde_json::Value::Null) => Ok(String::new()),
            Some(serde_json::Value::String(text)) => checked_text(&field, text, MAX_IDEA_FACET_BYTES, false),
            // A list of short points (risks often come as one) is joined into one text.
            Some(serde_json::Value::Array(items)) if items.iter().all(serde_json::Value::is_string) => {
                let joined = items.iter().filter_map(serde_json::Value::as_str).collect::<Vec<_>>().join("; ");
                checked_text(&field, &joined, MAX_IDEA_FACET_BYTES, false)
            }
            Some(_) => Err(Error::input(field, "must be a string (or a list of strings)")),
        }
    };
    Ok(Facets {
        audience: facet("audience")?,
        jtbd: facet("jtbd")?,
        differentiator: facet("differentiator")?,
        monetization: facet("monetization")?,
        distribution: facet("distribution")?,
        risks: facet("risks")?,
    })
}

fn checked_text(field: &str, text: &str, limit: usize, required: bool) -> Result<String> {
    let text = text.trim();
    if required && text.is_empty() {
        return Err(Error::input(field, "is empty; give it a few words"));
    }
    if text.len() > limit {
        return Err(Error::input(field, format!("is {} bytes; shorten it to at most {limit}", text.len())));
    }
    Ok(text.to_string())
}

/// `check_idea_scores`: an idea's metrics are exactly the eight criteria, each from 0 to 10.
pub fn check_idea_scores(scores: &Metrics) -> Result<()> {
    if let Some((name, _)) = scores.iter().find(|(name, _)| !IDEA_CRITERIA.contains(name)) {
        return Err(Error::input(
            format!("scores.{name}"),
            format!("is not a criterion; score the eight criteria {}", IDEA_CRITERIA.join(", ")),
        ));
    }
    let (low, high) = IDEA_SCORE_RANGE;
    for criterion in IDEA_CRITERIA {
        match scores.get(criterion) {
            None => {
                return Err(Error::input(
                    format!("scores.{criterion}"),
                    format!("is missing; the critic scores all eight criteria, each {low}–{high}"),
                ));
            }
            Some(score) if !(low..=high).contains(&score) => {
                return Err(Error::input(
                    format!("scores.{criterion}"),
                    format!("is {score}; a score is from {low} to {high}"),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// One criterion and its score (a refine item's weakest areas).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CriterionScore {
    pub criterion: String,
    pub score: f64,
}

/// What an item of an idea run's plan asks for, carrying only what evoidea's context-rot rules
/// allow: a generate item nothing (the prompt is the caller's); a refine item its one idea, that
/// idea's weakest criteria, and a one-line summary of the current best — never the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct IdeaBrief {
    /// `generate` or `refine`.
    pub task: String,
    /// Refine: the idea to improve, as compact JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idea: Option<String>,
    /// Refine: its weakest criteria, lowest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weakest: Vec<CriterionScore>,
    /// Refine: `title — summary (score)` of the current best idea.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_summary: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(text: &str) -> String {
        match IdeaSubmission::from_json(text) {
            Err(Error::InvalidInput { field, .. }) => field,
            other => panic!("{text}: expected InvalidInput, got {other:?}"),
        }
    }

    #[test]
    fn bad_ideas_name_the_field() {
        assert_eq!(field_of(r#"{"summary":"x"}"#), "idea.title");
        assert_eq!(field_of(r#"{"title":"  "}"#), "idea.title");
        assert_eq!(field_of(r#"{"title":"t","facets":"all"}"#), "idea.facets");
        assert_eq!(field_of(r#"{"title":"t","facets":{"audience":3}}"#), "idea.facets.audience");
        assert_eq!(field_of(r#"{"title":"t","facets":{"moat":"x"}}"#), "idea.facets.moat");
        assert_eq!(field_of(r#"{"title":"t","score":3}"#), "idea.score");
        assert_eq!(field_of(&format!(r#"{{"title":"{}"}}"#, "x".repeat(201))), "idea.title");
        assert_eq!(field_of(r#"{"title":"t","changes":"more"}"#), "idea.changes");
        assert_eq!(field_of("[1]"), "idea");
        assert_eq!(field_of("{"), "idea");
    }

    #[test]
    fn a_submission_keeps_id_and_changes_and_canonicalises() {
        let s = IdeaSubmission::from_json(
            r#"{"id":"u1","changes":["sharper audience"],"facets":{"risks":["churn","price"]},"summary":" s ","title":"T"}"#,
        )
        .unwrap();
        assert_eq!(s.id.as_deref(), Some("u1"));
        assert_eq!(s.changes, ["sharper audience"]);
        assert_eq!(s.idea.facets.risks, "churn; price");
        let again = Idea::from_json(&s.idea.canonical_json()).unwrap();
        assert_eq!(again, s.idea);
    }

    #[test]
    fn scores_are_the_eight_criteria_from_0_to_10() {
        let all = |value: f64| Metrics::new(IDEA_CRITERIA.map(|c| (c, value))).unwrap();
        check_idea_scores(&all(0.0)).unwrap();
        check_idea_scores(&all(10.0)).unwrap();
        assert!(check_idea_scores(&all(10.5)).unwrap_err().to_string().contains("scores.feasibility"));
        let seven = Metrics::new(IDEA_CRITERIA[..7].iter().map(|c| (*c, 5.0))).unwrap();
        assert!(check_idea_scores(&seven).unwrap_err().to_string().contains("scores.clarity"));
        let extra = Metrics::new(IDEA_CRITERIA.iter().map(|c| (*c, 5.0)).chain([("vibes", 1.0)])).unwrap();
        assert!(check_idea_scores(&extra).unwrap_err().to_string().contains("scores.vibes"));
    }

    #[test]
    fn origins_fit_their_parent_counts() {
        assert_eq!(IdeaOrigin::implied_by(0), IdeaOrigin::Generated);
        assert_eq!(IdeaOrigin::implied_by(3), IdeaOrigin::Merged);
        assert!(IdeaOrigin::Merged.parent_problem(1).is_some());
        assert!(IdeaOrigin::Refined.parent_problem(1).is_none());
    }
}
