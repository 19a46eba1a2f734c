//! `--repeat N`: a benchmark run N times is summarised per metric by its median (what the trial
//! reports as the metric) and its spread — min, max and the median absolute deviation (MAD),
//! which one outlying run (a busy machine, a cold cache) does not move the way a mean and a
//! standard deviation move.

use serde_json::{Value, json};

/// The summary of one metric's values (at least one, all finite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// The median absolute deviation from the median.
    pub mad: f64,
}

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

impl Spread {
    /// `None` when `values` is empty.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let middle = median(values)?;
        let deviations: Vec<f64> = values.iter().map(|v| (v - middle).abs()).collect();
        Some(Spread {
            median: middle,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            mad: median(&deviations).unwrap_or(0.0),
        })
    }

    /// `{"median", "min", "max", "mad", "values"}`, each rounded like the report's seconds are
    /// (`round`), so the printed numbers carry no binary artefacts.
    pub fn to_json(self, values: &[f64], round: fn(f64) -> f64) -> Value {
        json!({
            "median": round(self.median),
            "min": round(self.min),
            "max": round(self.max),
            "mad": round(self.mad),
            "values": values.iter().map(|v| round(*v)).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_odd_and_an_even_count() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[0.9, 0.1, 0.5]), Some(0.5));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn one_outlier_moves_neither_the_median_nor_the_mad() {
        let calm = Spread::of(&[0.50, 0.52, 0.48, 0.51, 0.49]).unwrap();
        let noisy = Spread::of(&[0.50, 0.52, 0.48, 0.51, 0.05]).unwrap();
        assert_eq!(calm.median, 0.50);
        assert_eq!(noisy.median, 0.50);
        assert!((calm.mad - 0.01).abs() < 1e-12, "{calm:?}");
        assert!((noisy.mad - 0.02).abs() < 1e-12, "{noisy:?}");
        assert_eq!((noisy.min, noisy.max), (0.05, 0.52));
    }
}
