//! `CodeSignatures`: `db.nearDuplicates()` for a population the page holds rather than a
//! `Database` (the playground's run at the moment shown): each program's code signed once by the
//! core, then any set of live ids compared.

use wasm_bindgen::prelude::*;

use crate::convert::{error, to_js};

/// Programs' code signatures, for the near-duplicates among any set of them.
///
/// ```js
/// import { CodeSignatures } from "evodb";
/// const signatures = new CodeSignatures();
/// for (const p of programs) signatures.add(p.id, p.targetCode, p.codePath, p.migratedFrom ?? null);
/// const near = signatures.nearDuplicates(liveIdsInAddedOrder, config.nearDuplicate ?? null);
/// // [{ id: "c", of: "a", similarity: 0.96875 }, …]
/// ```
#[wasm_bindgen]
#[derive(Default)]
pub struct CodeSignatures {
    inner: evodb_core::CodeSignatures,
}

#[wasm_bindgen]
impl CodeSignatures {
    /// `new CodeSignatures()`: none signed yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> CodeSignatures {
        CodeSignatures::default()
    }

    /// `signatures.add(id, code, codePath, copyOf?)`: signs program `id`'s code (`codePath`'s
    /// extension names its comment syntax); `copyOf`: the program a copy-mode migration copied it
    /// from, which it is then never a near-duplicate of. Adding an id again replaces it.
    pub fn add(
        &mut self,
        id: &str,
        code: &str,
        #[wasm_bindgen(js_name = codePath)] code_path: &str,
        #[wasm_bindgen(js_name = copyOf)] copy_of: Option<String>,
    ) {
        self.inner.insert(id, code, code_path, copy_of.as_deref());
    }

    /// `signatures.remove(id)`: forgets program `id`.
    pub fn remove(&mut self, id: &str) {
        self.inner.remove(id);
    }

    /// `signatures.has(id)`: whether program `id` is signed.
    pub fn has(&self, id: &str) -> bool {
        self.inner.contains(id)
    }

    /// `signatures.size`: how many programs are signed.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }

    /// `signatures.nearDuplicates(live, threshold?)`: `db.nearDuplicates()` among the ids in
    /// `live`, given in the order they were added (ids never signed are left out), at `threshold`
    /// (0–1; `null`: the default, 0.9).
    #[wasm_bindgen(js_name = nearDuplicates, unchecked_return_type = "NearDuplicate[]")]
    pub fn near_duplicates(&self, live: Vec<String>, threshold: Option<f64>) -> Result<JsValue, JsValue> {
        if let Some(t) = threshold
            && !(0.0..=1.0).contains(&t)
        {
            return Err(error(
                "invalid-input",
                &format!("invalid input: `threshold` is {t}; pass a similarity from 0 to 1, or null for the default"),
            ));
        }
        to_js(&self.inner.near_duplicates(live.iter().map(String::as_str), threshold))
    }
}
