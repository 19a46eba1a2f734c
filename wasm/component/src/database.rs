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
}
