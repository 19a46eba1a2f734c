//! `decide_status`: the playbook's rule "a candidate no fitter than its parent is rejected",
//! applied by the engine when an add asks for it (`decide`), so an agent never compares
//! fitnesses by hand. A rejected candidate stays in the population as memory, and rejections in
//! a row are what trigger the operators' rut-breakers.

use crate::api::{AddRequest, Status};
use crate::database::Database;
use crate::metrics::six_places;

impl Database {
    /// The status and reason an add records. Without `decide`, the request's own. With it:
    /// accepted when the candidate's fitness beats its live parent's; rejected (the reason names
    /// both fitnesses) when it does not; accepted when the parent is not in the population (the
    /// seed, or pruned since), as there is nothing to compare with.
    pub(crate) fn decide_status(
        &self,
        request: &AddRequest,
        parent: Option<u32>,
        fitness: f64,
    ) -> (Status, Option<String>) {
        if !request.decide {
            return (request.status, request.reason.clone());
        }
        let Some(parent_fitness) = parent.map(|slot| self.population.get(slot).fitness) else {
            return (Status::Accepted, request.reason.clone());
        };
        match fitness > parent_fitness {
            true => (Status::Accepted, request.reason.clone()),
            false => (
                Status::Rejected,
                Some(format!(
                    "no fitter than its parent (fitness {} against the parent's {})",
                    six_places(fitness),
                    six_places(parent_fitness)
                )),
            ),
        }
    }
}
