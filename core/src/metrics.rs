//! Metrics: name → finite number, in the order the caller gave them.

use std::fmt;
use std::sync::Arc;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// Most metric names one program may carry: evaluators report a handful, and a bound keeps a
/// hostile file or request from costing minutes (names are looked up linearly).
pub const MAX_METRICS: usize = 1000;
/// Longest metric name, in bytes.
pub const MAX_METRIC_NAME_BYTES: usize = 256;

/// A program's metrics. Order is kept (it is the order of the JSON object) because the seed's
/// mean sums values in that order and its files list them in that order.
// Immutable once built and shared: every result that shows a program's metrics (a sample's
// parent and inspirations, an add's outcome) clones a pointer, not the names.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify), tsify(type = "Record<string, number>"))]
pub struct Metrics(Arc<[(String, f64)]>);

/// Metrics being built: the checks of [`Metrics::new`] on a growing list.
#[derive(Default)]
struct MetricsBuilder(Vec<(String, f64)>);

impl Metrics {
    /// Builds metrics, rejecting NaN and ±inf with the metric's name. A repeated name keeps its
    /// first position and its last value, as a JSON object would.
    ///
    /// ```
    /// let m = evodb_core::Metrics::new([("score", 0.5)]).unwrap();
    /// assert_eq!(m.get("score"), Some(0.5));
    /// assert!(evodb_core::Metrics::new([("score", f64::NAN)]).is_err());
    /// ```
    pub fn new<K: Into<String>>(pairs: impl IntoIterator<Item = (K, f64)>) -> Result<Metrics> {
        let mut metrics = MetricsBuilder::default();
        for (name, value) in pairs {
            metrics.insert(name.into(), value)?;
        }
        Ok(metrics.finish())
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(n, v)| (n.as_str(), *v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether both name the same metrics, in any order (names are unique within each).
    pub(crate) fn same_names(&self, other: &Metrics) -> bool {
        self.len() == other.len()
            && (self.iter().zip(other.iter()).all(|((a, _), (b, _))| a == b)
                || self.iter().all(|(name, _)| other.get(name).is_some()))
    }
}

impl MetricsBuilder {
    fn finish(self) -> Metrics {
        Metrics(self.0.into())
    }

    fn insert(&mut self, name: String, value: f64) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::input(
                format!("metrics.{name}"),
                format!(
                    "is {value}; metrics must be finite numbers (report a failed evaluation as a low score or leave the candidate out)"
                ),
            ));
        }
        if name.len() > MAX_METRIC_NAME_BYTES {
            let shown: String = name.chars().take(40).collect();
            return Err(Error::input(
                format!("metrics.{shown}…"),
                format!("is a {}-byte name; metric names are at most {MAX_METRIC_NAME_BYTES} bytes", name.len()),
            ));
        }
        let full = self.0.len() == MAX_METRICS;
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None if full => {
                return Err(Error::input(
                    "metrics",
                    format!("has more than {MAX_METRICS} names; report the few that score the program"),
                ));
            }
            None => self.0.push((name, value)),
        }
        Ok(())
    }
}

impl Serialize for Metrics {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Metrics {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Metrics, D::Error> {
        struct MetricsVisitor;
        impl<'de> Visitor<'de> for MetricsVisitor {
            type Value = Metrics;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of metric names to numbers, e.g. {\"score\": 0.8}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Metrics, A::Error> {
                let mut metrics = MetricsBuilder::default();
                while let Some(name) = map.next_key::<String>()? {
                    // JSON has no NaN or ±inf; JavaScript's JSON.stringify writes them as null.
                    let value: Option<f64> = map.next_value()?;
                    let value = value.ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "metric `{name}` is null; metrics must be finite numbers (JSON.stringify turns NaN and ±Infinity into null)"
                        ))
                    })?;
                    metrics.insert(name, value).map_err(serde::de::Error::custom)?;
                }
                Ok(metrics.finish())
            }
        }
        deserializer.deserialize_map(MetricsVisitor)
    }
}

/// A fitness as prompts and reasons show it: at most six decimals, no trailing zeros (`0.8`, not
/// `0.7999999999999999`).
pub(crate) fn six_places(value: f64) -> String {
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_and_non_numeric_metrics_are_rejected_by_name() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = Metrics::new([("speed", bad)]).unwrap_err();
            assert!(err.to_string().contains("metrics.speed"), "{err}");
        }
        let err = serde_json::from_str::<Metrics>(r#"{"speed": "fast"}"#).unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
        let err = serde_json::from_str::<Metrics>(r#"{"speed": null}"#).unwrap_err();
        assert!(err.to_string().contains("NaN"), "{err}");
        let err = serde_json::from_str::<Metrics>(r#"[1, 2]"#).unwrap_err();
        assert!(err.to_string().contains("object of metric names"), "{err}");
    }

    #[test]
    fn order_is_kept_through_json() {
        let m: Metrics = serde_json::from_str(r#"{"z": 1, "a": 2.5}"#).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"z":1.0,"a":2.5}"#);
    }
}
