//! The one field list of every shape that crosses a face ([`face_shapes!`]), and the
//! conversions a face derives from it ([`bridge!`]).
//!
//! A WIT face (the component, the host that runs it) gets its records from its bindings
//! generator; `bridge!` writes both directions between those records and the core's types from
//! the list below. The generated code destructures each value without `..` and builds the other
//! with a struct literal, and matches enums without a wildcard, so a field or case that exists on
//! one side only is a compile error in every face — the two cannot drift.

use std::sync::Arc;

use crate::error::Result;
use crate::metrics::Metrics;

/// Core value → face value.
pub trait IntoFace<T> {
    fn into_face(self) -> T;
}

/// Face value → core value. Fails only where a core rule does (a non-finite metric).
pub trait IntoCore<T> {
    fn into_core(self) -> Result<T>;
}

macro_rules! same_on_both_sides {
    ($($t:ty),*) => {$(
        impl IntoFace<$t> for $t {
            fn into_face(self) -> $t {
                self
            }
        }
        impl IntoCore<$t> for $t {
            fn into_core(self) -> Result<$t> {
                Ok(self)
            }
        }
    )*};
}
same_on_both_sides!(String, bool, u32, u64, f64);

/// A program's shared text is an owned string in WIT.
impl IntoFace<String> for Arc<str> {
    fn into_face(self) -> String {
        String::from(&*self)
    }
}

impl IntoCore<Arc<str>> for String {
    fn into_core(self) -> Result<Arc<str>> {
        Ok(self.into())
    }
}

/// Counts are `usize` in the core and `u32` in WIT; a population never nears 2^32 programs
/// (memory runs out first), so the narrowing saturates rather than fails.
impl IntoFace<u32> for usize {
    fn into_face(self) -> u32 {
        u32::try_from(self).unwrap_or(u32::MAX)
    }
}

impl IntoCore<usize> for u32 {
    fn into_core(self) -> Result<usize> {
        Ok(self as usize)
    }
}

/// Metrics are `list<tuple<string, f64>>` in WIT: the order is kept, values are checked.
impl IntoFace<Vec<(String, f64)>> for Metrics {
    fn into_face(self) -> Vec<(String, f64)> {
        self.iter().map(|(name, value)| (name.to_owned(), value)).collect()
    }
}

impl IntoCore<Metrics> for Vec<(String, f64)> {
    fn into_core(self) -> Result<Metrics> {
        Metrics::new(self)
    }
}

impl<A: IntoFace<B>, B> IntoFace<Option<B>> for Option<A> {
    fn into_face(self) -> Option<B> {
        self.map(IntoFace::into_face)
    }
}

impl<A: IntoCore<B>, B> IntoCore<Option<B>> for Option<A> {
    fn into_core(self) -> Result<Option<B>> {
        self.map(IntoCore::into_core).transpose()
    }
}

impl<A: IntoFace<B>, B> IntoFace<Vec<B>> for Vec<A> {
    fn into_face(self) -> Vec<B> {
        self.into_iter().map(IntoFace::into_face).collect()
    }
}

impl<A: IntoCore<B>, B> IntoCore<Vec<B>> for Vec<A> {
    fn into_core(self) -> Result<Vec<B>> {
        self.into_iter().map(IntoCore::into_core).collect()
    }
}

/// Every record and enum that crosses a face, as `CoreName = WitName { fields or cases }`, in
/// the order the WIT declares them. Calls `$callback! { records { … } enums { … } }`.
///
/// Adding a field to a result means adding it to the core type, to this list and to
/// `wit/population.wit`; each face then compiles only when all three agree.
#[macro_export]
macro_rules! face_shapes {
    ($($callback:tt)*) => {
        $($callback)*! {
            records {
                AddRequest = AddRequest {
                    id, code_path, target_code, parent_id, metrics, changes, island, status, reason, operator,
                    plan_item, token, branch, commit, target, decide, model, tokens_in, tokens_out, cost_usd, eval_seconds,
                    origin, parents, instance_scores, embedding
                },
                AddOutcome = AddOutcome {
                    id, metrics, best_program_id, best_metrics, last_iteration, warnings, status, cached, cell
                },
                SampledParent = SampledParent { id, code_path, target_code, metrics, changes },
                Inspiration = Inspiration { id, metrics, changes },
                Sample = SampleResult {
                    parent, inspirations, operator, island, second_parent, donor_island, forced_by, island_name,
                    island_description, donor_island_name, notes, target, parent_fitness, plan_item, lease
                },
                BestProgram = BestProgram { id, code_path, target_code, metrics, changes, iteration_found },
                Info = DatabaseInfo {
                    is_empty, last_iteration, program_count, best_program_id, best_metrics, seed_code_path,
                    seed_target_code
                },
                IslandStats = IslandStats { island, name, size, best_program_id, best_fitness, mean_fitness },
                Stats = PopulationStats {
                    program_count, evaluations, best_program_id, best_fitness, mean_fitness, baseline_fitness,
                    improvement, improvement_percent, islands, archive, stagnation, rounds, recent_statuses, cells, targets,
                    cost, attribution, pareto, instances
                },
                CellStats = CellStats { filled, total, coverage, qd_score, qd_offset },
                ParetoStats = ParetoStats { objectives, front_size, front, hypervolume },
                InstanceStats = InstanceStats { instance_count, front_size, front, mean_best, coverage },
                InstanceCoverage = InstanceCoverage { instance, best, leader, leaders, scored },
                CostTotals = CostTotals { cost_usd, tokens_in, tokens_out, eval_seconds },
                Attribution = Attribution {
                    operator, model, island, candidates, errors, improvements, improvement_rate, cost_usd,
                    cost_per_improvement, tokens_in, tokens_out, eval_seconds
                },
                Admission = Admission { verdict, of, similarity },
                TargetStats = TargetStats {
                    id, islands, program_count, best_program_id, best_fitness, evaluations, stagnation,
                    best_synergy_fitness, stop, reason
                },
                StopVerdict = StopVerdict { stop, reason, evaluations, rounds, stagnation, best_fitness },
                Lease = Lease { token, expires, attempt },
                LeaseEntry = LeaseEntry { item, state, token, expires, attempt, island },
                PlanItem = PlanItem {
                    name, operator, island, parent_ids, donor_island, forced_by, island_name, island_description,
                    donor_island_name, notes, target, parent, parent_fitness, second_parent, inspirations, idea, lease
                },
                CriterionScore = CriterionScore { criterion, score },
                IdeaBrief = IdeaBrief { task, idea, weakest, best_summary },
                SynergyPart = SynergyPart { target, program_id },
                SynergyItem = SynergyItem { name, parts },
                NoteRequest = NoteRequest { kind, text, target, program_id },
                RemeasureRequest = RemeasureRequest { id, metrics },
                Remeasured = Remeasured { id, metrics, measurements, fitness, previous_fitness, best_program_id },
                Note = Note { seq, kind, text, target, program_id, iteration },
                Plan = WorkPlan { generation, items, synergy },
                PolicyVerdict = PolicyVerdict { pass, reason },
                Lineage = Lineage { id, ancestors, missing_ancestor, descendants },
            }
            enums {
                Status = Status { Accepted, Rejected, Error },
                Operator = Operator { Exploitation, Exploration, Crossover, Migration },
                ExportFormat = ExportFormat { Json, Mermaid, Tree, Markdown, Evoidea },
                NoteKind = NoteKind { Lesson, Failure, Idea },
                AdmissionVerdict = AdmissionVerdict { Evaluate, Duplicate, NearDuplicate },
                IdeaOrigin = IdeaOrigin { Generated, Refined, Merged },
                LeaseState = LeaseState { Live, Expired, Held },
            }
        }
    };
}

/// Writes [`IntoFace`] and [`IntoCore`] between the core's types and a WIT face's records for
/// every shape in [`face_shapes!`]. Invoke it where the bindings' interface module is in scope
/// as `wit`:
///
/// ```ignore
/// use crate::exports::evodb::population::population as wit;
/// evodb_core::bridge!();
/// ```
#[macro_export]
macro_rules! bridge {
    () => {
        $crate::face_shapes!($crate::__bridge_shapes);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bridge_shapes {
    (
        records { $($core:ident = $wit:ident { $($field:ident),* $(,)? }),* $(,)? }
        enums { $($core_enum:ident = $wit_enum:ident { $($case:ident),* $(,)? }),* $(,)? }
    ) => {
        $(
            impl $crate::api::IntoFace<wit::$wit> for $crate::$core {
                fn into_face(self) -> wit::$wit {
                    let $crate::$core { $($field),* } = self;
                    wit::$wit { $($field: $crate::api::IntoFace::into_face($field)),* }
                }
            }
            impl $crate::api::IntoCore<$crate::$core> for wit::$wit {
                fn into_core(self) -> $crate::Result<$crate::$core> {
                    let wit::$wit { $($field),* } = self;
                    Ok($crate::$core { $($field: $crate::api::IntoCore::into_core($field)?),* })
                }
            }
        )*
        $(
            impl $crate::api::IntoFace<wit::$wit_enum> for $crate::$core_enum {
                fn into_face(self) -> wit::$wit_enum {
                    match self {
                        $($crate::$core_enum::$case => wit::$wit_enum::$case),*
                    }
                }
            }
            impl $crate::api::IntoCore<$crate::$core_enum> for wit::$wit_enum {
                fn into_core(self) -> $crate::Result<$crate::$core_enum> {
                    Ok(match self {
                        $(wit::$wit_enum::$case => $crate::$core_enum::$case),*
                    })
                }
            }
        )*
    };
}
