//! JSON as Python's `json` module writes it: `NaN`, `Infinity` and `-Infinity` appear bare
//! when a metric was not a finite number. They are read as `null` (the metric is left out).

use serde_json::Value;

/// Parses Python-written JSON, reading its non-finite numbers as `null`.
pub fn parse(text: &str) -> serde_json::Result<Value> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(first) => serde_json::from_str(&without_non_finite(text)).map_err(|_| first),
    }
}

/// `text` with every bare `NaN`, `Infinity` and `-Infinity` outside strings replaced by `null`.
fn without_non_finite(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if let Some(token) = ["-Infinity", "Infinity", "NaN"].into_iter().find(|t| rest.starts_with(t)) {
            out.push_str("null");
            rest = &rest[token.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The numbers of a metrics object, in its order (booleans as 0/1); the rest, as `name: value`
/// lines for the program's `changes`, so nothing the source recorded is lost from sight.
pub fn metrics(object: Option<&Value>, prefix: &str) -> (Vec<(String, f64)>, Vec<String>) {
    let (mut numbers, mut other) = (Vec::new(), Vec::new());
    for (name, value) in object.and_then(Value::as_object).into_iter().flatten() {
        let name = format!("{prefix}{name}");
        match value {
            Value::Number(n) => match n.as_f64().filter(|v| v.is_finite()) {
                Some(v) => numbers.push((name, v)),
                None => other.push(described(&name, &n.to_string())),
            },
            Value::Bool(b) => numbers.push((name, f64::from(u8::from(*b)))),
            Value::Null => other.push(described(&name, "not a finite number")),
            Value::String(s) => other.push(described(&name, s)),
            composite => other.push(described(&name, &composite.to_string())),
        }
    }
    (numbers, other)
}

/// The most of one metric's text kept in a program's `changes` (a test log can be megabytes;
/// the program's whole `changes` is bounded by the engine).
const DESCRIBED_BYTES: usize = 2_000;

/// `name: value` for a metric that is not a number, its value cut to [`DESCRIBED_BYTES`].
fn described(name: &str, value: &str) -> String {
    if value.len() <= DESCRIBED_BYTES {
        return format!("{name}: {value}");
    }
    let mut end = DESCRIBED_BYTES;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    format!("{name}: {}… ({} bytes in all)", &value[..end], value.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_read_as_null_outside_strings() {
        let value = parse(r#"{"a": NaN, "b": -Infinity, "c": "NaN \" Infinity", "d": [Infinity, 1]}"#).unwrap();
        assert_eq!(value, serde_json::json!({"a": null, "b": null, "c": "NaN \" Infinity", "d": [null, 1]}));
    }

    #[test]
    fn malformed_json_reports_the_original_error() {
        let err = parse(r#"{"a": NaN,"#).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
    }

    #[test]
    fn metrics_keep_numbers_and_describe_the_rest() {
        let value = serde_json::json!({"score": 0.5, "ok": true, "error": "timeout", "nan": null});
        let (numbers, other) = metrics(Some(&value), "");
        assert_eq!(numbers, [("score".to_string(), 0.5), ("ok".to_string(), 1.0)]);
        assert_eq!(other, ["error: timeout", "nan: not a finite number"]);
    }

    #[test]
    fn a_long_metric_text_is_cut_at_a_character() {
        let value = serde_json::json!({"log": "é".repeat(5_000)});
        let (_, other) = metrics(Some(&value), "");
        assert!(other[0].len() < 2_100 && other[0].ends_with("… (10000 bytes in all)"), "{}", other[0]);
    }
}
