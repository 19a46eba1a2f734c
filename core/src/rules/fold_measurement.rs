//! `fold_measurement`: a program measured again keeps, per metric, the running mean of its
//! measurements. A mean needs only the count to fold one more value in (`database.json` keeps the
//! count, not every value), and it moves toward the true value with every measurement, where a
//! median would need every value kept. Benchmarks whose runs have outliers should take the median
//! of several runs first (`evodb trial --repeat N`) and fold that in.

use crate::error::{Error, Result};
use crate::json_text::shown;
use crate::metrics::Metrics;

/// `current` (the mean of `measurements` measurements) with `measured` folded in: each metric's
/// mean of `measurements + 1` values, in `current`'s order. `measured` must name exactly
/// `current`'s metrics.
pub(crate) fn fold_measurement(current: &Metrics, measurements: u64, measured: &Metrics) -> Result<Metrics> {
    if !current.same_names(measured) {
        let names = |m: &Metrics| m.iter().map(|(name, _)| name.to_string()).collect::<Vec<_>>().join(", ");
        return Err(Error::input(
            "metrics",
            format!(
                "name {{{}}}, but the program was measured as {{{}}}; a re-measurement reports the same metrics",
                names(measured),
                names(current)
            ),
        ));
    }
    let n = measurements as f64;
    Metrics::new(current.iter().map(|(name, mean)| {
        let value = measured.get(name).expect("same names");
        // A mean like (0.52 + 0.3) / 2 is stored as 0.41, not as 0.41000000000000003.
        (name.to_string(), shown((mean * n + value) / (n + 1.0)))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(pairs: &[(&str, f64)]) -> Metrics {
        Metrics::new(pairs.iter().map(|&(name, value)| (name, value))).unwrap()
    }

    #[test]
    fn the_running_mean_of_every_measurement() {
        let once = metrics(&[("score", 0.5), ("speed", 2.0)]);
        let twice = fold_measurement(&once, 1, &metrics(&[("speed", 4.0), ("score", 0.7)])).unwrap();
        assert_eq!(twice, metrics(&[("score", 0.6), ("speed", 3.0)]), "the first add's order is kept");
        let thrice = fold_measurement(&twice, 2, &metrics(&[("score", 0.9), ("speed", 3.0)])).unwrap();
        assert_eq!(thrice.get("speed"), Some(3.0));
        assert_eq!(thrice.get("score"), Some(0.7), "no binary artefact such as 0.7000000000000001");
        let artefact = fold_measurement(&metrics(&[("score", 0.52)]), 1, &metrics(&[("score", 0.3)])).unwrap();
        assert_eq!(artefact.get("score"), Some(0.41));
    }

    #[test]
    fn other_metrics_are_refused_by_name() {
        let err = fold_measurement(&metrics(&[("score", 0.5)]), 1, &metrics(&[("speed", 1.0)])).unwrap_err();
        assert!(err.to_string().contains("measured as {score}"), "{err}");
    }
}
