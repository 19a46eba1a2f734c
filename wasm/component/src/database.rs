//! The `database` resource of the `population` interface.

use std::cell::RefCell;

use evodb_core::Config;

use crate::Component;
use crate::convert::{error, into, out};
use crate::exports::evodb::population::population as wit;

/// Resource methods take `&self`; the database lives in a `RefCell`.
pub(crate) struct Database(pub(crate) RefCell<evodb_core::Database>);

impl Database {
    pub(crate) fn new(db: evodb_core::Database) -> Database {
        Database(RefCell::new(db))
    }
}

impl wit::Guest for Component {
    type Database = Database;

    fn policy_check(
        changed_files: Vec<String>,
        target_file: String,
        protected: Option<Vec<String>>,
    ) -> wit::PolicyVerdict {
        let changed: Vec<&str> = changed_files.iter().map(String::as_str).collect();
        let protected: Option<Vec<&str>> = protected.as_ref().map(|p| p.iter().map(String::as_str).collect());
        out(evodb_core::policy_check(&changed, &target_file, protected.as_deref()))
    }

    fn validate(text: String) -> Vec<String> {
        evodb_core::Database::validate_json(&text)
    }
}

impl wit::GuestDatabase for Database {
    fn create(config_json: String, rng_seed: u64) -> Result<wit::Database, wit::Error> {
        let config = Config::from_json(&config_json).map_err(error)?;
        let db = evodb_core::Database::new(config, rng_seed).map_err(error)?;
        Ok(wit::Database::new(Database::new(db)))
    }

    fn from_json(text: String) -> Result<wit::Database, wit::Error> {
        let db = evodb_core::Database::from_json(&text).map_err(error)?;
        Ok(wit::Database::new(Database::new(db)))
    }

    fn add(&self, request: wit::AddRequest, now: f64) -> Result<wit::AddOutcome, wit::Error> {
        let request = into(request)?;
        self.0.borrow_mut().add(request, now).map(out).map_err(error)
    }

    fn sample(&self) -> wit::SampleResult {
        out(self.0.borrow_mut().sample())
    }

    fn sample_for(&self, target: Option<String>) -> Result<wit::SampleResult, wit::Error> {
        self.0.borrow_mut().sample_for(target.as_deref()).map(out).map_err(error)
    }

    fn admit_embedding(
        &self,
        code: String,
        code_path: String,
        embedding: Vec<f64>,
    ) -> Result<wit::Admission, wit::Error> {
        self.0.borrow().admit_embedding(&code, &code_path, &embedding).map(out).map_err(error)
    }

    fn sample_at(&self, target: Option<String>, now: f64) -> Result<wit::SampleResult, wit::Error> {
        self.0.borrow_mut().sample_at(target.as_deref(), now).map(out).map_err(error)
    }

    fn best(&self) -> Option<wit::BestProgram> {
        out(self.0.borrow().best())
    }

    fn best_for(&self, target: Option<String>) -> Result<Option<wit::BestProgram>, wit::Error> {
        self.0.borrow().best_for(target.as_deref()).map(out).map_err(error)
    }

    fn info(&self) -> wit::DatabaseInfo {
        out(self.0.borrow().info())
    }

    fn stats(&self) -> wit::PopulationStats {
        out(self.0.borrow().stats())
    }

    fn export(&self, format: wit::ExportFormat) -> String {
        // Infallible: every WIT case has its core twin.
        let format = into(format).unwrap_or_default();
        self.0.borrow().export(format)
    }

    fn lineage(&self, id: String) -> Option<wit::Lineage> {
        out(self.0.borrow().lineage(&id))
    }

    fn should_stop(&self) -> wit::StopVerdict {
        out(self.0.borrow().should_stop())
    }

    fn should_stop_for(&self, target: Option<String>) -> Result<wit::StopVerdict, wit::Error> {
        self.0.borrow().should_stop_for(target.as_deref()).map(out).map_err(error)
    }

    fn plan(&self, n: u32, frozen: Vec<u32>, boosted: Vec<u32>) -> Result<wit::WorkPlan, wit::Error> {
        self.0.borrow_mut().plan(n, &frozen, &boosted).map(out).map_err(error)
    }

    fn plan_at(
        &self,
        n: u32,
        frozen: Vec<u32>,
        boosted: Vec<u32>,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<wit::WorkPlan, wit::Error> {
        self.0.borrow_mut().plan_at(n, &frozen, &boosted, now, lease_seconds).map(out).map_err(error)
    }

    fn heartbeat(
        &self,
        item: String,
        token: String,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<wit::Lease, wit::Error> {
        self.0.borrow_mut().heartbeat(&item, &token, now, lease_seconds).map(out).map_err(error)
    }

    fn leases(&self, now: f64) -> Result<Vec<wit::LeaseEntry>, wit::Error> {
        self.0.borrow().leases(now).map(out).map_err(error)
    }

    fn note(&self, request: wit::NoteRequest) -> Result<wit::Note, wit::Error> {
        let request = into(request)?;
        self.0.borrow_mut().note(request).map(out).map_err(error)
    }

    fn remeasure(&self, request: wit::RemeasureRequest) -> Result<wit::Remeasured, wit::Error> {
        let request = into(request)?;
        self.0.borrow_mut().remeasure(request).map(out).map_err(error)
    }

    fn notes(&self, target: Option<String>, kind: Option<wit::NoteKind>, limit: Option<u32>) -> Vec<wit::Note> {
        // Infallible: every WIT case has its core twin.
        let kind = kind.and_then(|kind| into(kind).ok());
        out(self.0.borrow().notes(target.as_deref(), kind, limit))
    }

    fn admit(&self, code: String, code_path: String) -> wit::Admission {
        out(self.0.borrow().admit(&code, &code_path))
    }

    fn load_warnings(&self) -> Vec<String> {
        self.0.borrow().load_warnings().to_vec()
    }

    fn record_events(&self, on: bool) {
        self.0.borrow_mut().record_events(on);
    }

    fn take_events(&self) -> Vec<String> {
        self.0.borrow_mut().take_events().iter().map(evodb_core::json_text::to_compact_js).collect()
    }
}
