//! The `database` resource of the `population` interface.

use std::cell::RefCell;

use evodb_core::Config;

use crate::Component;
use crate::convert;
use crate::exports::evodb::population::population as wit;

/// Resource methods take `&self`; the database lives in a `RefCell`.
pub(crate) struct Database(RefCell<evodb_core::Database>);

impl wit::Guest for Component {
    type Database = Database;

    fn policy_check(
        changed_files: Vec<String>,
        target_file: String,
        protected: Option<Vec<String>>,
    ) -> wit::PolicyVerdict {
        let changed: Vec<&str> = changed_files.iter().map(String::as_str).collect();
        let protected: Option<Vec<&str>> = protected.as_ref().map(|p| p.iter().map(String::as_str).collect());
        let verdict = evodb_core::policy_check(&changed, &target_file, protected.as_deref());
        wit::PolicyVerdict { pass: verdict.pass, reason: verdict.reason }
    }

    fn validate(text: String) -> Vec<String> {
        evodb_core::Database::validate_json(&text)
    }
}

impl wit::GuestDatabase for Database {
    fn create(config_json: String, seed: u64) -> Result<wit::Database, wit::Error> {
        let config = Config::from_json(&config_json).map_err(convert::error)?;
        let db = evodb_core::Database::new(config, seed).map_err(convert::error)?;
        Ok(wit::Database::new(Database(RefCell::new(db))))
    }

    fn from_json(text: String) -> Result<wit::Database, wit::Error> {
        let db = evodb_core::Database::from_json(&text).map_err(convert::error)?;
        Ok(wit::Database::new(Database(RefCell::new(db))))
    }

    fn add(&self, request: wit::AddRequest, now: f64) -> Result<wit::AddOutcome, wit::Error> {
        let request = convert::add_request(request)?;
        self.0.borrow_mut().add(request, now).map(convert::add_outcome).map_err(convert::error)
    }

    fn sample(&self) -> wit::SampleResult {
        convert::sample(self.0.borrow_mut().sample())
    }

    fn best(&self) -> Option<wit::BestProgram> {
        convert::best(self.0.borrow().best())
    }

    fn info(&self) -> wit::DatabaseInfo {
        convert::info(self.0.borrow().info())
    }

    fn stats(&self) -> wit::PopulationStats {
        convert::stats(self.0.borrow().stats())
    }

    fn to_json(&self) -> String {
        self.0.borrow().to_json()
    }

    fn lineage(&self, id: String) -> Option<wit::Lineage> {
        self.0.borrow().lineage(&id).map(convert::lineage)
    }

    fn lineage_mermaid(&self) -> String {
        self.0.borrow().lineage_mermaid()
    }

    fn lineage_tree(&self) -> String {
        self.0.borrow().lineage_tree()
    }

    fn population_markdown(&self) -> String {
        self.0.borrow().population_markdown()
    }

    fn should_stop(&self) -> wit::StopVerdict {
        convert::stop_verdict(self.0.borrow().should_stop())
    }

    fn plan(&self, n: u32, frozen: Vec<u32>, boosted: Vec<u32>) -> Result<wit::WorkPlan, wit::Error> {
        self.0.borrow_mut().plan(n, &frozen, &boosted).map(convert::plan).map_err(convert::error)
    }

    fn record_events(&self, on: bool) {
        self.0.borrow_mut().record_events(on);
    }

    fn take_events(&self) -> Vec<String> {
        self.0.borrow_mut().take_events().iter().map(evodb_core::json_text::to_compact_js).collect()
    }
}
