//! `policyCheck`: evo-anything's file policy for a candidate.

use wasm_bindgen::prelude::*;

use crate::convert::to_js;

/// `policyCheck(changedFiles, targetFile, protectedPatterns?)`: `{pass, reason}` — evo-anything's rule
/// that a candidate changes only its target file and no protected one (`benchmark*.py`,
/// `eval*.py`, `*.sh` by default).
///
/// ```js
/// policyCheck(["model.py", "benchmark.py"], "model.py"); // {pass: false, reason: "Protected file modified: 'benchmark.py'"}
/// ```
#[wasm_bindgen(js_name = policyCheck, unchecked_return_type = "PolicyVerdict")]
pub fn policy_check(
    #[wasm_bindgen(js_name = changedFiles)] changed_files: Vec<String>,
    #[wasm_bindgen(js_name = targetFile)] target_file: &str,
    #[wasm_bindgen(js_name = protectedPatterns)] protected: Option<Vec<String>>,
) -> Result<JsValue, JsValue> {
    let changed: Vec<&str> = changed_files.iter().map(String::as_str).collect();
    let protected: Option<Vec<&str>> = protected.as_ref().map(|p| p.iter().map(String::as_str).collect());
    to_js(&evodb_core::policy_check(&changed, target_file, protected.as_deref()))
}
