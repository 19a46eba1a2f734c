//! `in_flight_penalty`: with `pending: "aware"` in the config, sampling and planning account for
//! work handed out and not yet answered, so K workers sampling at once spread over islands and
//! parents instead of all exploiting the same best program (OpenEvolve #435 measured 16 workers
//! doing worse than one).
//!
//! Each `sample` and each `plan` item remembers the parent it handed out and the island its
//! child is for (`hand_out`); the add that names that parent settles one entry
//! (`settle_in_flight`). While entries are open:
//!
//! - a sample goes to the island in its scope with the fewest open entries, the current island
//!   first on ties and then the rotation after it (`least_busy_island`);
//! - exploration counts the children in flight to an island as its members (`in_flight_to`);
//! - exploitation picks among the island's best `exploitationTop` programs those with the
//!   fewest open entries (`least_busy_top`): the seed's uniform pick among them, or the
//!   operators' best (most recent on ties) of them.
//!
//! Nothing here reads a clock or draws more from the PRNG than the seed does, so a run stays
//! replayable byte for byte; with `pending` left at `ignore` nothing is remembered and every
//! rule is the seed's. The entries live in `database.json` (`evodb.inFlight`), at most
//! `MAX_IN_FLIGHT`, the oldest dropped first (a worker that never answers stops counting).

use crate::config::{PendingMode, Scope};
use crate::database::{Database, InFlight};

/// Most open entries kept; past it the oldest are forgotten.
pub(crate) const MAX_IN_FLIGHT: usize = 1024;

impl Database {
    /// Whether the config asks for in-flight-aware sampling.
    pub(crate) fn pending_aware(&self) -> bool {
        self.config.pending == PendingMode::Aware
    }

    /// `hand_out`: a sample or plan item handed out `parent` for a child on `island`.
    pub(crate) fn hand_out(&mut self, parent: Option<u32>, island: u32) {
        if !self.pending_aware() {
            return;
        }
        let Some(slot) = parent else { return };
        let parent_id = self.population.get(slot).program.id.to_string();
        self.in_flight.push(InFlight { parent_id, island });
        let excess = self.in_flight.len().saturating_sub(MAX_IN_FLIGHT);
        self.in_flight.drain(..excess);
    }

    /// `settle_in_flight`: an add answered work on `parent_id`: its oldest open entry closes.
    pub(crate) fn settle_in_flight(&mut self, parent_id: &str) {
        if let Some(index) = self.in_flight.iter().position(|entry| entry.parent_id == parent_id) {
            self.in_flight.remove(index);
        }
    }

    /// How many children are in flight to `island` (0 when not aware).
    pub(crate) fn in_flight_to(&self, island: u32) -> usize {
        self.in_flight.iter().filter(|entry| entry.island == island).count()
    }

    /// `least_busy_island`: the island of `scope` with the fewest open entries, `home` first on
    /// ties, then the islands after it in rotation. `home` itself when not aware.
    pub(crate) fn least_busy_island(&self, scope: Scope, home: u32) -> u32 {
        if !self.pending_aware() || self.in_flight.is_empty() {
            return home;
        }
        let range = self.config.scope_islands(scope);
        let len = range.len() as u32;
        let start = home.saturating_sub(range.start);
        (0..len)
            .map(|step| range.start + (start + step) % len)
            .min_by_key(|&island| self.in_flight_to(island))
            .unwrap_or(home)
    }

    /// `least_busy_top`: of `top` (slots best first), those with the fewest open entries, in the
    /// same order. All of `top` when not aware or nothing is open.
    pub(crate) fn least_busy_top(&self, top: Vec<u32>) -> Vec<u32> {
        if !self.pending_aware() || self.in_flight.is_empty() || top.len() < 2 {
            return top;
        }
        let busy = |slot: u32| {
            let id = &self.population.get(slot).program.id;
            self.in_flight.iter().filter(|entry| *entry.parent_id == **id).count()
        };
        let counts: Vec<usize> = top.iter().map(|&slot| busy(slot)).collect();
        let least = counts.iter().copied().min().unwrap_or(0);
        top.into_iter().zip(counts).filter(|&(_, n)| n == least).map(|(slot, _)| slot).collect()
    }
}
