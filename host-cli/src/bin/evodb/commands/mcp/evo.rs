//! evo-anything's `evo_*` tools on evodb's engine.

use super::tools::Entry;

pub fn table() -> Vec<Entry> {
    Vec::new()
}
