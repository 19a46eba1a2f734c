//! `remeasure`: a live program measured again, and what its metrics became.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, parse_json};
use crate::metrics::Metrics;

/// A new measurement of a live program: the same metrics its add reported, measured again.
///
/// ```
/// let request = evodb_core::RemeasureRequest::from_json(r#"{"id": "p3", "metrics": {"score": 0.71}}"#).unwrap();
/// assert_eq!(request.metrics.get("score"), Some(0.71));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemeasureRequest {
    pub id: String,
    pub metrics: Metrics,
}

impl RemeasureRequest {
    /// Parses a request from JSON; errors name the offending field.
    pub fn from_json(text: &str) -> Result<RemeasureRequest> {
        parse_json(text).map_err(|(path, e)| Error::input(path.unwrap_or_else(|| "request".into()), e.to_string()))
    }
}

/// What `remeasure` did: the program's metrics now (the running mean of its `measurements`), its
/// fitness before and after, and the best program after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Remeasured {
    pub id: String,
    pub metrics: Metrics,
    /// How many measurements the metrics are the mean of (the add's included).
    pub measurements: u64,
    pub fitness: f64,
    pub previous_fitness: f64,
    pub best_program_id: Option<String>,
}
