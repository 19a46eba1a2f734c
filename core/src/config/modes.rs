//! The variants a config picks between for each switchable rule: where a new program goes, how
//! migration moves programs, how the next operator is chosen, whether sampling counts work in
//! flight, and where inspirations come from. Each default is the seed's behaviour.

use serde::{Deserialize, Serialize};

/// Which island a new program joins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Placement {
    /// The seed's rule: `islands[currentIsland]`, then `currentIsland` advances.
    #[default]
    RoundRobin,
    /// The parent's home island (round-robin when the parent is unknown). Survives parallel
    /// workers interleaving sample and add.
    ParentIsland,
    /// The caller names the island on every add.
    Explicit,
}

/// How ring migration moves programs between neighbouring islands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum MigrationMode {
    /// The seed's rule: the same id joins the neighbour islands (one program, several islands).
    #[default]
    Share,
    /// A copy with a new id and `migratedFrom` provenance; migrants never migrate again and an
    /// island never receives code it already holds.
    Copy,
}

/// How the operators' next one is chosen (`adaptive_operator`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum OperatorPolicy {
    /// The AlphaEvolve strategy's rule: a draw weighted by `operators`' weights.
    #[default]
    Weights,
    /// UCB1 over the operators with a weight above 0, rewarded by improvements over the parent
    /// (the `stats.attribution` counts); no PRNG draw.
    Ucb,
}

impl OperatorPolicy {
    pub(super) fn is_weights(&self) -> bool {
        *self == OperatorPolicy::Weights
    }
}

/// Whether sampling accounts for work handed out and not yet answered (`in_flight_penalty`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum PendingMode {
    /// The seed's rule: every sample is drawn as if it were the only one.
    #[default]
    Ignore,
    /// Concurrent samples spread: each goes to the island with the least work in flight, and
    /// exploitation prefers a top parent nobody is working on.
    Aware,
}

impl PendingMode {
    pub(super) fn is_ignore(&self) -> bool {
        *self == PendingMode::Ignore
    }
}

/// Where inspirations are drawn from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum InspirationScope {
    /// The seed's behaviour: the sampled island.
    #[default]
    Island,
    /// The seed prose's variant: the whole population.
    AllIslands,
}
