//! MAP-Elites feature dimensions (the AlphaEvolve strategy): each program falls into one cell, a bucket per
//! dimension. A cell is stored with the program as its bucket indices (`"cell": [2, 0]`).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// Most buckets one dimension may have (cells are counted as a product, so keep them sane).
const MAX_BINS: u32 = 1_000;

/// One feature dimension.
///
/// ```
/// let dims: Vec<evodb_core::FeatureDim> = serde_json::from_str(r#"[
///   {"kind": "island"},
///   {"kind": "codeLines", "thresholds": [40, 100]},
///   {"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 4}
/// ]"#).unwrap();
/// assert_eq!(dims[1].bins(3), 3); // small / medium / large
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum FeatureDim {
    /// A metric's value over `[min, max]` in `bins` equal buckets; values outside are clipped to
    /// the edge buckets.
    Metric { metric: String, min: f64, max: f64, bins: u32 },
    /// Lines of `targetCode`: bucket 0 below `thresholds[0]`, bucket i from `thresholds[i-1]`
    /// (inclusive) below `thresholds[i]`, the last bucket at or above the last threshold.
    /// Labels default to small / medium / large for two thresholds.
    CodeLines {
        thresholds: Vec<u32>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        labels: Vec<String>,
    },
    /// The categorical label "approach family": the program's home island.
    Island,
}

impl FeatureDim {
    /// How many buckets this dimension has in a database with `num_islands` islands.
    pub fn bins(&self, num_islands: u32) -> u32 {
        match self {
            FeatureDim::Metric { bins, .. } => *bins,
            FeatureDim::CodeLines { thresholds, .. } => thresholds.len() as u32 + 1,
            FeatureDim::Island => num_islands,
        }
    }

    /// The bucket of one program.
    pub(crate) fn bucket(&self, metrics: &Metrics, target_code: &str, island: u32) -> Result<u32> {
        Ok(match self {
            FeatureDim::Metric { metric, min, max, bins } => {
                let value = metrics.get(metric).ok_or_else(|| {
                    Error::input(
                        format!("metrics.{metric}"),
                        "is missing; the feature dimensions bucket programs by it, so every candidate must report it",
                    )
                })?;
                let scaled = ((value - min) / (max - min) * f64::from(*bins)).floor();
                // Clipping to the edge buckets: below `min` is bucket 0, at or above `max` the last.
                scaled.clamp(0.0, f64::from(bins - 1)) as u32
            }
            FeatureDim::CodeLines { thresholds, .. } => {
                let lines = target_code.lines().count() as u32;
                thresholds.iter().take_while(|&&t| lines >= t).count() as u32
            }
            FeatureDim::Island => island,
        })
    }

    /// A readable name for bucket `b` (what the population markdown prints).
    pub fn label(&self, b: u32) -> String {
        match self {
            FeatureDim::Metric { metric, min, max, bins } => {
                let width = (max - min) / f64::from(*bins);
                let lo = min + width * f64::from(b);
                format!("{metric} {}–{}", short(lo), short(lo + width))
            }
            FeatureDim::CodeLines { thresholds, labels } => {
                if let Some(label) = labels.get(b as usize) {
                    return label.clone();
                }
                if thresholds.len() == 2 {
                    return ["small", "medium", "large"][b as usize].to_string();
                }
                match (b.checked_sub(1).map(|i| thresholds[i as usize]), thresholds.get(b as usize)) {
                    (None, Some(hi)) => format!("<{hi} lines"),
                    (Some(lo), Some(hi)) => format!("{lo}–{hi} lines"),
                    (Some(lo), None) => format!("≥{lo} lines"),
                    (None, None) => "any size".to_string(),
                }
            }
            FeatureDim::Island => format!("island {b}"),
        }
    }

    pub(crate) fn validate(&self, i: usize) -> Result<()> {
        let field = |name: &str| format!("features[{i}].{name}");
        match self {
            FeatureDim::Metric { metric, min, max, bins } => {
                if metric.is_empty() {
                    return Err(Error::config(field("metric"), "must name a metric, e.g. \"score\""));
                }
                if !(min.is_finite() && max.is_finite() && min < max) {
                    return Err(Error::config(
                        field("max"),
                        format!("is {max} with min {min}; pass finite numbers with min < max"),
                    ));
                }
                if *bins == 0 || *bins > MAX_BINS {
                    return Err(Error::config(
                        field("bins"),
                        format!("is {bins}; it must be between 1 and {MAX_BINS}"),
                    ));
                }
            }
            FeatureDim::CodeLines { thresholds, labels } => {
                if thresholds.is_empty() || thresholds.len() >= MAX_BINS as usize {
                    return Err(Error::config(field("thresholds"), "must list 1 to 999 line counts, e.g. [40, 100]"));
                }
                if thresholds.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(Error::config(field("thresholds"), "must be strictly increasing, e.g. [40, 100]"));
                }
                if !labels.is_empty() && labels.len() != thresholds.len() + 1 {
                    return Err(Error::config(
                        field("labels"),
                        format!(
                            "has {} labels; {} thresholds make {} buckets",
                            labels.len(),
                            thresholds.len(),
                            thresholds.len() + 1
                        ),
                    ));
                }
            }
            FeatureDim::Island => {}
        }
        Ok(())
    }
}

/// Numbers in labels: at most three decimals, no trailing zeros.
fn short(x: f64) -> String {
    let text = format!("{:.3}", x + 0.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The cell of a program under `dims`.
pub(crate) fn cell_of(dims: &[FeatureDim], metrics: &Metrics, target_code: &str, island: u32) -> Result<Vec<u32>> {
    dims.iter().map(|dim| dim.bucket(metrics, target_code, island)).collect()
}

/// A cell as one number (mixed radix over the dimensions' bins); cells compare as their keys.
pub(crate) fn cell_key(dims: &[FeatureDim], num_islands: u32, cell: &[u32]) -> u64 {
    dims.iter().zip(cell).fold(0, |key, (dim, &b)| key * u64::from(dim.bins(num_islands)) + u64::from(b))
}

/// Whether a stored cell has a bucket for each dimension, each within its bins.
pub(crate) fn cell_fits(dims: &[FeatureDim], num_islands: u32, cell: &[u32]) -> bool {
    cell.len() == dims.len() && cell.iter().zip(dims).all(|(&b, dim)| b < dim.bins(num_islands))
}

/// How many cells the grid has.
pub(crate) fn cell_count(dims: &[FeatureDim], num_islands: u32) -> u64 {
    dims.iter().map(|d| u64::from(d.bins(num_islands))).product()
}

/// `"small · island 2"`: the labels of a cell's buckets.
pub(crate) fn cell_label(dims: &[FeatureDim], cell: &[u32]) -> String {
    dims.iter().zip(cell).map(|(dim, &b)| dim.label(b)).collect::<Vec<_>>().join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(v: f64) -> Metrics {
        Metrics::new([("speed", v)]).unwrap()
    }

    #[test]
    fn metric_values_outside_the_range_clip_to_the_edge_buckets() {
        let dim = FeatureDim::Metric { metric: "speed".into(), min: 0.0, max: 1.0, bins: 4 };
        let buckets: Vec<u32> =
            [-5.0, 0.0, 0.3, 0.5, 0.99, 1.0, 7.0].iter().map(|&v| dim.bucket(&metrics(v), "x", 0).unwrap()).collect();
        assert_eq!(buckets, [0, 0, 1, 2, 3, 3, 3]);
        assert_eq!(dim.label(1), "speed 0.25–0.5");
    }

    #[test]
    fn code_lines_use_the_seeds_thresholds() {
        let dim = FeatureDim::CodeLines { thresholds: vec![40, 100], labels: vec![] };
        let code = |n: usize| "x\n".repeat(n);
        let buckets: Vec<u32> =
            [1, 39, 40, 99, 100, 500].iter().map(|&n| dim.bucket(&metrics(0.0), &code(n), 0).unwrap()).collect();
        assert_eq!(buckets, [0, 0, 1, 1, 2, 2]);
        assert_eq!((dim.label(0), dim.label(2)), ("small".to_string(), "large".to_string()));
    }

    #[test]
    fn a_missing_metric_is_named() {
        let dim = FeatureDim::Metric { metric: "memory".into(), min: 0.0, max: 1.0, bins: 2 };
        let err = dim.bucket(&metrics(0.1), "x", 0).unwrap_err();
        assert!(err.to_string().contains("metrics.memory"), "{err}");
    }
}
