//! The playground's live run: the core's synthetic evolution (`evodb_core::simulation`, the same
//! one `evodb demo` drives through the component) with its events handed to JS after each batch.

use evodb_core::simulation::Landscape;
use wasm_bindgen::prelude::*;

use crate::convert::{config_from, error, seed_from, stringify, to_js, to_js_error};

/// A synthetic evolution with no LLM: sample → mutate → evaluate → add, from a seed.
///
/// ```js
/// import { Simulation } from "evodb";
/// const sim = new Simulation({ numIslands: 4 }, 7, { terms: 4, ruggedness: 0.5 });
/// const events = sim.step(100);        // [{event: "created", …}, {event: "added", …}, …]
/// sim.stats().bestFitness;             // same as `evodb demo --seed 7 --iterations 100 …`
/// ```
#[wasm_bindgen]
pub struct Simulation {
    inner: evodb_core::simulation::Simulation,
}

#[wasm_bindgen]
impl Simulation {
    /// `new Simulation(config?, seed?, landscape?)`: creates the database and adds the seed
    /// program; `landscape` is `{terms: 2–8, ruggedness: 0–1}` (default `{terms: 4, ruggedness: 0}`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Config | null")] config: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seed: Option<f64>,
        #[wasm_bindgen(unchecked_optional_param_type = "Landscape | null")] landscape: JsValue,
    ) -> Result<Simulation, JsValue> {
        let landscape: Landscape = if landscape.is_undefined() || landscape.is_null() {
            Landscape::default()
        } else {
            serde_json::from_str(&stringify(&landscape)?).map_err(|e| {
                error("invalid-config", &format!("invalid config: `landscape` {e}; pass {{terms, ruggedness}}"))
            })?
        };
        let inner = evodb_core::simulation::Simulation::new(config_from(&config)?, seed_from(seed)?, landscape)
            .map_err(to_js_error)?;
        Ok(Simulation { inner })
    }

    /// `sim.step(n)`: runs `n` iterations and returns the events since the last call.
    #[wasm_bindgen(unchecked_return_type = "Event[]")]
    pub fn step(&mut self, n: u32) -> Result<JsValue, JsValue> {
        for _ in 0..n {
            self.inner.step().map_err(to_js_error)?;
        }
        to_js(&self.inner.take_events())
    }

    /// `sim.iteration`: iterations run so far (the seed program is iteration 0).
    #[wasm_bindgen(getter)]
    pub fn iteration(&self) -> f64 {
        self.inner.iteration() as f64
    }

    /// `sim.stats()`: the database's statistics, as `Database.stats()`.
    #[wasm_bindgen(unchecked_return_type = "Stats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.database().stats())
    }

    /// `sim.best()`: the best program, or `null`.
    #[wasm_bindgen(unchecked_return_type = "BestProgram | null")]
    pub fn best(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.database().best())
    }

    /// `sim.bestId`: the best program's id (`undefined` before any), without copying its code.
    #[wasm_bindgen(getter, js_name = bestId)]
    pub fn best_id(&self) -> Option<String> {
        self.inner.database().best_id().map(String::from)
    }

    /// `sim.toJson()`: the database as `database.json` text (what `evodb demo` writes).
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.database().to_json()
    }
}
