//! Reading scores as the seed skill does. A benchmark prints its score on stdout, as JSON (the
//! `--scoreKey` key of an object) or as the last number it prints; it must be finite and in
//! [0, 1]. The LLM judge answers `{"efficiency-score": n}` with n in 1–10, normalised to n / 10;
//! the object may sit in prose or a code fence.

use serde_json::Value;

/// The judge's key (the AlphaEvolve skill's `references/evaluator.md`).
pub const JUDGE_KEY: &str = "efficiency-score";

/// The default `--scoreKey`; an object without it is also read under the AlphaEvolve skill's
/// other keys for the same number, in this order.
pub const DEFAULT_SCORE_KEY: &str = "score";
const SCORE_KEY_ALTERNATIVES: [&str; 2] = ["result", "value"];

/// Why an output holds no usable score; the message names the problem and the fix.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ScoreError(pub String);

fn error(message: impl Into<String>) -> ScoreError {
    ScoreError(message.into())
}

const BENCH_FIX: &str = "the benchmark must print a score in [0, 1] on stdout, as JSON like {\"score\": 0.73} \
(see --scoreKey) or as its last number";

/// The benchmark's score: stdout as JSON (the whole of it, else its last non-empty line) when
/// that is an object or a number, else the last number in stdout.
pub fn benchmark_score(stdout: &str, key: &str) -> Result<f64, ScoreError> {
    let text = stdout.trim();
    if text.is_empty() {
        return Err(error(format!("the benchmark printed nothing on stdout; {BENCH_FIX}")));
    }
    let last_line = text.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or(text).trim();
    for candidate in [text, last_line] {
        match serde_json::from_str::<Value>(candidate) {
            Ok(Value::Object(object)) => {
                let alternatives: &[&str] = if key == DEFAULT_SCORE_KEY { &SCORE_KEY_ALTERNATIVES } else { &[] };
                let found = std::iter::once(key)
                    .chain(alternatives.iter().copied())
                    .find_map(|k| object.get(k).map(|v| (k, v)));
                let (key, value) = found.ok_or_else(|| {
                    let keys: Vec<String> = object.keys().take(10).map(|k| format!("\"{k}\"")).collect();
                    let has = if keys.is_empty() { "no keys".to_string() } else { keys.join(", ") };
                    let tried = if alternatives.is_empty() {
                        format!("no \"{key}\" key")
                    } else {
                        format!("no \"{key}\", \"result\" or \"value\" key")
                    };
                    error(format!(
                        "the benchmark's JSON has {tried} (it has {has}); pass --scoreKey <key> to name the score, or \
                         print {{\"{key}\": <score in [0, 1]>}}"
                    ))
                })?;
                let number = value.as_f64().ok_or_else(|| {
                    error(format!("the benchmark's \"{key}\" is {}, not a number; {BENCH_FIX}", describe(value)))
                })?;
                return in_unit_range(number, &format!("\"{key}\" in the benchmark's JSON"));
            }
            Ok(Value::Number(number)) => {
                let number = number.as_f64().unwrap_or(f64::NAN);
                return in_unit_range(number, "the benchmark's output");
            }
            _ => {}
        }
    }
    let (number, token) = last_number(text).ok_or_else(|| {
        let shown: String = text.chars().rev().take(80).collect::<Vec<_>>().into_iter().rev().collect();
        error(format!("the benchmark's stdout holds no JSON score and no number (it ends with {shown:?}); {BENCH_FIX}"))
    })?;
    in_unit_range(number, &format!("the last number on the benchmark's stdout (`{token}`)"))
}

fn in_unit_range(score: f64, source: &str) -> Result<f64, ScoreError> {
    if !score.is_finite() {
        return Err(error(format!("the benchmark score is not finite ({source}); {BENCH_FIX}")));
    }
    if !(0.0..=1.0).contains(&score) {
        return Err(error(format!(
            "the benchmark score {score} ({source}) is outside [0, 1]; {BENCH_FIX} (scale it, e.g. a percentage / 100)"
        )));
    }
    Ok(score)
}

fn describe(value: &Value) -> String {
    let text = value.to_string();
    let text =
        if text.chars().count() > 40 { format!("{}…", text.chars().take(40).collect::<String>()) } else { text };
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} ({text})")
}

/// The last number in `text`, with its token: decimal (`-0.5`, `.5`, `1e-3`) or `nan`/`inf`/
/// `infinity` (any case, so that a non-finite score is reported as such). A number glued to a
/// letter, digit, `_` or `.` before it (`x86`, `v1.2`) is not one.
pub fn last_number(text: &str) -> Option<(f64, &str)> {
    let bytes = text.as_bytes();
    let mut last = None;
    let mut i = 0;
    while i < bytes.len() {
        let free = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b'.'));
        if free && let Some(end) = decimal_end(bytes, i).or_else(|| word_end(bytes, i)) {
            last = Some(&text[i..end]);
            i = end;
            continue;
        }
        i += 1;
    }
    let token = last?;
    let unsigned = token.trim_start_matches(['+', '-']).to_ascii_lowercase();
    let number = match unsigned.as_str() {
        "nan" => f64::NAN,
        "inf" | "infinity" if token.starts_with('-') => f64::NEG_INFINITY,
        "inf" | "infinity" => f64::INFINITY,
        _ => token.parse().ok()?,
    };
    Some((number, token))
}

fn digits(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

fn decimal_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if matches!(bytes.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_end = digits(bytes, i);
    let mut end = int_end;
    if bytes.get(int_end) == Some(&b'.') {
        let frac_end = digits(bytes, int_end + 1);
        if frac_end > int_end + 1 {
            end = frac_end;
        }
    }
    if end == i {
        return None;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(end + 1), Some(b'-' | b'+')));
        let exp_end = digits(bytes, end + 1 + sign);
        if exp_end > end + 1 + sign {
            end = exp_end;
        }
    }
    Some(end)
}

fn word_end(bytes: &[u8], start: usize) -> Option<usize> {
    let begin = start + usize::from(matches!(bytes.get(start), Some(b'-' | b'+')));
    let mut end = begin;
    while bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
        end += 1;
    }
    if bytes.get(end).is_some_and(|b| b.is_ascii_digit() || *b == b'_') {
        return None;
    }
    let word = std::str::from_utf8(&bytes[begin..end]).ok()?.to_ascii_lowercase();
    matches!(word.as_str(), "nan" | "inf" | "infinity").then_some(end)
}

/// A valid judge answer: the raw 1–10 score and its normalised value (n / 10).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JudgeScore {
    pub raw: f64,
    pub score: f64,
}

const JUDGE_FIX: &str = "the judge must answer {\"efficiency-score\": n} with n a number from 1 to 10; ask it again";

/// The judge's score: the JSON objects in `text` (prose and code fences around them are
/// skipped) that carry [`JUDGE_KEY`] must agree on one number in [1, 10].
pub fn judge_score(text: &str) -> Result<JudgeScore, ScoreError> {
    let objects = json_objects(text);
    let scored: Vec<&Value> = objects.iter().filter_map(|o| o.get(JUDGE_KEY)).collect();
    let Some(first) = scored.first() else {
        return Err(match objects.first() {
            None if text.trim().is_empty() => error(format!("the judge's output is empty; {JUDGE_FIX}")),
            None => error(format!("the judge's output holds no JSON object; {JUDGE_FIX}")),
            Some(object) => {
                let keys: Vec<String> = object.keys().take(10).map(|k| format!("\"{k}\"")).collect();
                let has = if keys.is_empty() { "no keys".to_string() } else { keys.join(", ") };
                error(format!("the judge's JSON has no \"{JUDGE_KEY}\" key (it has {has}); {JUDGE_FIX}"))
            }
        });
    };
    let same = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    if scored.iter().any(|other| !same(other, first)) {
        let all: Vec<String> = scored.iter().map(std::string::ToString::to_string).collect();
        return Err(error(format!("the judge's output holds scores that disagree ({}); {JUDGE_FIX}", all.join(", "))));
    }
    let raw = first.as_f64().ok_or_else(|| {
        error(format!("the judge's \"{JUDGE_KEY}\" is {}, not a number; {JUDGE_FIX}", describe(first)))
    })?;
    if !(1.0..=10.0).contains(&raw) {
        return Err(error(format!("the judge's \"{JUDGE_KEY}\" is {raw}, outside 1–10; {JUDGE_FIX}")));
    }
    Ok(JudgeScore { raw, score: raw / 10.0 })
}

/// Every JSON object in `text` that starts at a `{` outside an object already read.
fn json_objects(text: &str) -> Vec<serde_json::Map<String, Value>> {
    let mut objects = Vec::new();
    let mut i = 0;
    while let Some(offset) = text[i..].find('{') {
        let start = i + offset;
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(Value::Object(object))) => {
                objects.push(object);
                i = start + stream.byte_offset();
            }
            _ => i = start + 1,
        }
    }
    objects
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(stdout: &str) -> Result<f64, String> {
        benchmark_score(stdout, "score").map_err(|e| e.0)
    }

    #[test]
    fn benchmark_json_takes_the_key() {
        assert_eq!(bench(r#"{"score": 0.73, "ms": 12}"#), Ok(0.73));
        assert_eq!(benchmark_score(r#"{"score": 0.1, "speed": 0.9}"#, "speed"), Ok(0.9));
        assert_eq!(bench("warming up...\nrun 3 of 3\n{\"score\": 0.5}\n"), Ok(0.5), "JSON on the last line");
        assert_eq!(bench("{\n  \"score\": 1\n}"), Ok(1.0), "pretty-printed");
        assert_eq!(bench("0.25\n"), Ok(0.25), "a bare JSON number");
        assert_eq!(bench(r#"{"result": 0.6, "ms": 3}"#), Ok(0.6), "the AlphaEvolve skill's `result`");
        assert_eq!(bench(r#"{"value": 0.4}"#), Ok(0.4), "and its `value`");
        assert_eq!(bench(r#"{"value": 0.4, "result": 0.6, "score": 0.2}"#), Ok(0.2), "score first, then result");
        let named = benchmark_score(r#"{"result": 0.6}"#, "speed").unwrap_err().0;
        assert!(named.contains("no \"speed\" key (it has"), "a named key has no fallback: {named}");
    }

    #[test]
    fn benchmark_json_errors_name_the_problem() {
        let missing = bench(r#"{"speed": 0.7}"#).unwrap_err();
        assert!(
            missing.contains("no \"score\", \"result\" or \"value\" key")
                && missing.contains("\"speed\"")
                && missing.contains("--scoreKey")
        );
        assert!(bench(r#"{"score": "0.7"}"#).unwrap_err().contains("is a string"));
        assert!(bench(r#"{"score": null}"#).unwrap_err().contains("is null"));
        assert!(bench(r#"{"score": 1.5}"#).unwrap_err().contains("outside [0, 1]"));
        assert!(bench(r#"{"score": -0.1}"#).unwrap_err().contains("outside [0, 1]"));
    }

    #[test]
    fn benchmark_falls_back_to_the_last_number() {
        assert_eq!(bench("run 1 of 3\nrun 2 of 3\nscore: 0.42"), Ok(0.42));
        assert_eq!(bench("score=0.9 (best)"), Ok(0.9));
        assert_eq!(bench("Score: .5"), Ok(0.5));
        assert_eq!(bench("fitness 5e-1\n"), Ok(0.5));
        assert_eq!(bench("x86_64 v1.2 result 0.3 v2"), Ok(0.3), "glued numbers are not numbers");
        assert_eq!(bench("total: 0.0."), Ok(0.0));
    }

    #[test]
    fn benchmark_rejects_out_of_range_non_finite_and_garbage() {
        assert!(bench("took 12 ms").unwrap_err().contains("12 (the last number"));
        assert!(bench("score: 73%").unwrap_err().contains("outside [0, 1]"));
        assert!(bench("score: -0.2").unwrap_err().contains("outside [0, 1]"));
        assert!(bench("score: NaN").unwrap_err().contains("not finite"));
        assert!(bench(r#"{"score": NaN}"#).unwrap_err().contains("not finite"), "Python's json.dumps(nan)");
        assert!(bench("score: -Infinity").unwrap_err().contains("not finite"));
        assert!(bench("1e999").unwrap_err().contains("not finite"));
        assert!(bench("all good!").unwrap_err().contains("no JSON score and no number"));
        assert!(bench("   \n").unwrap_err().contains("printed nothing"));
        assert!(bench("information").unwrap_err().contains("no number"), "`inf` inside a word is no number");
    }

    #[test]
    fn last_number_tokens() {
        assert_eq!(last_number("a 1 b 2.5 c"), Some((2.5, "2.5")));
        assert_eq!(last_number("-3"), Some((-3.0, "-3")));
        assert_eq!(last_number("1.2.3"), Some((1.2, "1.2")));
        assert_eq!(last_number("5."), Some((5.0, "5")));
        assert_eq!(last_number("2e"), Some((2.0, "2")));
        assert_eq!(last_number("id_7 abc"), None);
        assert_eq!(last_number("é 0.5 ü"), Some((0.5, "0.5")));
        assert!(last_number("-inf").unwrap().0 == f64::NEG_INFINITY);
    }

    fn judge(text: &str) -> Result<f64, String> {
        judge_score(text).map(|j| j.score).map_err(|e| e.0)
    }

    #[test]
    fn judge_reads_the_object_in_prose_and_fences() {
        assert_eq!(judge(r#"{"efficiency-score": 7}"#), Ok(0.7));
        assert_eq!(judge("Here is my verdict:\n```json\n{\"efficiency-score\": 8}\n```\nThanks."), Ok(0.8));
        assert_eq!(judge(r#"{"efficiency-score": 10}"#), Ok(1.0));
        assert_eq!(judge(r#"{"efficiency-score": 1}"#), Ok(0.1));
        assert_eq!(judge(r#"{"efficiency-score": 7.5}"#), Ok(0.75));
        assert_eq!(judge(r#"{"notes": {"a": 1}, "efficiency-score": 6}"#), Ok(0.6));
        assert_eq!(judge("{ not json } then {\"efficiency-score\": 9}"), Ok(0.9));
        assert_eq!(judge("{\"efficiency-score\": 4}\nagain: {\"efficiency-score\": 4.0}"), Ok(0.4), "agreeing repeats");
        assert_eq!(judge_score(r#"{"efficiency-score": 3}"#).unwrap().raw, 3.0);
    }

    #[test]
    fn judge_rejects_anything_else() {
        for (text, expected) in [
            (r#"{"efficiency-score": 11}"#, "outside 1–10"),
            (r#"{"efficiency-score": 0}"#, "outside 1–10"),
            (r#"{"efficiency-score": -3}"#, "outside 1–10"),
            (r#"{"efficiency-score": "8"}"#, "is a string"),
            (r#"{"efficiency-score": null}"#, "is null"),
            (r#"{"score": 8}"#, "no \"efficiency-score\" key (it has \"score\")"),
            (r#"{"efficiency-score": NaN}"#, "no JSON object"),
            ("I think it deserves an 8.", "no JSON object"),
            ("{'efficiency-score': 8}", "no JSON object"),
            ("", "empty"),
            ("{\"efficiency-score\": 7} or maybe {\"efficiency-score\": 8}", "disagree (7, 8)"),
        ] {
            let message = judge(text).unwrap_err();
            assert!(message.contains(expected), "{text:?}: {message}");
            assert!(message.contains("ask it again"), "{text:?}: {message}");
        }
    }
}
