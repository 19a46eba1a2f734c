//! The fitness rule: a program's metrics as the one comparable value programs are ranked by.

use crate::config::{Config, Direction, FitnessSpec};
use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// `fitness_of`: the single value programs are ranked by (higher is better).
///
/// - mean (seed): the mean of all values, summed in order, 0 when there are none;
/// - primary: the named metric;
/// - weighted: Σ weight × value over the weighted metrics.
///
/// A metric whose direction is `min` counts negated. `-0.0` is folded into `0.0` so that ties
/// compare equal, as they do in JavaScript.
pub(crate) fn fitness_of(config: &Config, metrics: &Metrics) -> Result<f64> {
    let signed = |name: &str, value: f64| match config.direction(name) {
        Direction::Max => value,
        Direction::Min => -value,
    };
    let fitness = match &config.fitness {
        FitnessSpec::Mean => {
            if metrics.is_empty() {
                0.0
            } else {
                let sum = metrics.iter().fold(0.0, |sum, (name, value)| sum + signed(name, value));
                sum / metrics.len() as f64
            }
        }
        FitnessSpec::Primary { metric } => {
            let value = metrics.get(metric).ok_or_else(|| missing_metric(metric))?;
            signed(metric, value)
        }
        FitnessSpec::Weighted { weights } => {
            let mut sum = 0.0;
            for (name, weight) in weights {
                let value = metrics.get(name).ok_or_else(|| missing_metric(name))?;
                sum += weight * signed(name, value);
            }
            sum
        }
    };
    if !fitness.is_finite() {
        return Err(Error::input("metrics", format!("give a fitness of {fitness}; use smaller values or weights")));
    }
    Ok(fitness + 0.0)
}

fn missing_metric(name: &str) -> Error {
    Error::input(format!("metrics.{name}"), "is missing; the configured fitness needs it on every program")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(pairs: &[(&str, f64)]) -> Metrics {
        Metrics::new(pairs.iter().map(|(n, v)| (*n, *v))).unwrap()
    }

    #[test]
    fn mean_is_the_seeds_average_and_zero_when_empty() {
        let c = Config::default();
        assert_eq!(fitness_of(&c, &metrics(&[("a", 0.5), ("b", 1.0)])).unwrap(), 0.75);
        assert_eq!(fitness_of(&c, &Metrics::default()).unwrap(), 0.0);
    }

    #[test]
    fn directions_primary_and_weights() {
        let mut c = Config::default();
        c.directions.insert("latency".into(), Direction::Min);
        assert_eq!(fitness_of(&c, &metrics(&[("score", 1.0), ("latency", 3.0)])).unwrap(), -1.0);
        c.fitness = FitnessSpec::Primary { metric: "latency".into() };
        assert_eq!(fitness_of(&c, &metrics(&[("latency", 3.0)])).unwrap(), -3.0);
        assert!(fitness_of(&c, &metrics(&[("score", 3.0)])).is_err());
        c.fitness =
            FitnessSpec::Weighted { weights: [("score".to_string(), 2.0), ("latency".to_string(), 0.5)].into() };
        assert_eq!(fitness_of(&c, &metrics(&[("score", 1.0), ("latency", 2.0)])).unwrap(), 1.0);
    }
}
