"""The records, enums and aliases of the `population` interface (wit/population.wit), as Python types.

One frozen dataclass per WIT record, field for field (kebab-case names become snake_case); one
`Literal` alias per enum. `metrics` (a WIT `list<tuple<string, f64>>`) is a `dict` in insertion
order, and every other WIT `list` is a `tuple`. `tests/test_wit_drift.py` parses the WIT and fails
when a record, field or type here no longer matches it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

#: Metric name → value, in the order given; values must be finite.
Metrics = dict[str, float]
#: What became of an evaluated candidate.
Status = Literal["accepted", "rejected", "error"]
#: The four operators of the AlphaEvolve strategy playbook.
Operator = Literal["exploitation", "exploration", "crossover", "migration"]
#: What a note records.
NoteKind = Literal["lesson", "failure", "idea"]
#: What `Database.export` writes.
ExportFormat = Literal["json", "mermaid", "tree", "markdown", "evoidea"]
#: How an idea came about: no parent, one, or several.
IdeaOrigin = Literal["generated", "refined", "merged"]
#: `Database.admit`'s verdict before evaluation.
AdmissionVerdict = Literal["evaluate", "duplicate", "near-duplicate"]
#: Where a leased plan item stands (`Database.leases`).
LeaseState = Literal["live", "expired", "held"]


@dataclass(frozen=True)
class AddRequest:
    """A scored candidate to add. Only `target_code` and `metrics` are required."""

    target_code: str
    metrics: Metrics
    code_path: str = "program.py"
    parent_id: str = "0"
    changes: str = ""
    id: Optional[str] = None
    island: Optional[int] = None
    status: Status = "accepted"
    reason: Optional[str] = None
    operator: Optional[Operator] = None
    plan_item: Optional[str] = None
    #: A leased plan item's current token (`PlanItem.lease.token`); required for a leased item.
    token: Optional[str] = None
    branch: Optional[str] = None
    commit: Optional[str] = None
    target: Optional[str] = None
    #: The playbook's rule: accepted when fitter than its parent, else rejected with a reason.
    decide: bool = False
    #: Cost and attribution: the model, its tokens, the call's price and the evaluation's time.
    model: Optional[str] = None
    tokens_in: Optional[int] = None
    tokens_out: Optional[int] = None
    cost_usd: Optional[float] = None
    eval_seconds: Optional[float] = None
    #: Idea runs: how the idea came about, and every parent of a merged idea.
    origin: Optional[IdeaOrigin] = None
    parents: tuple[str, ...] = ()
    #: Per-instance scores, instance id → score (higher is better); required by an `instances`
    #: selection, reported as coverage in `PopulationStats.instances` in any mode.
    instance_scores: Metrics = field(default_factory=dict)
    #: Your own embedding of the code (every add of a run the same length), for `admit_embedding`.
    embedding: Optional[tuple[float, ...]] = None


@dataclass(frozen=True)
class AddOutcome:
    id: str
    metrics: Metrics
    best_program_id: Optional[str]
    best_metrics: Optional[Metrics]
    last_iteration: int
    warnings: tuple[str, ...]
    status: Status
    cached: bool
    cell: Optional[tuple[int, ...]]


@dataclass(frozen=True)
class RemeasureRequest:
    id: str
    metrics: Metrics


@dataclass(frozen=True)
class Remeasured:
    id: str
    metrics: Metrics
    measurements: int
    fitness: float
    previous_fitness: float
    best_program_id: Optional[str]


@dataclass(frozen=True)
class NoteRequest:
    kind: NoteKind
    text: str
    target: Optional[str] = None
    program_id: Optional[str] = None


@dataclass(frozen=True)
class Note:
    seq: int
    kind: NoteKind
    text: str
    target: Optional[str]
    program_id: Optional[str]
    iteration: int


@dataclass(frozen=True)
class SampledParent:
    id: str
    code_path: str
    target_code: str
    metrics: Metrics
    changes: str


@dataclass(frozen=True)
class Inspiration:
    id: str
    metrics: Metrics
    changes: str


@dataclass(frozen=True)
class SampleResult:
    parent: Optional[SampledParent]
    inspirations: tuple[Inspiration, ...]
    operator: Optional[Operator]
    island: Optional[int]
    second_parent: Optional[SampledParent]
    donor_island: Optional[int]
    forced_by: Optional[str]
    island_name: Optional[str]
    island_description: Optional[str]
    donor_island_name: Optional[str]
    notes: tuple[Note, ...]
    target: Optional[str]
    #: With operators configured: the parent's fitness (what `decide` compares with).
    parent_fitness: Optional[float]
    #: `Database.sample_at` handed out a leased plan item whose lease expired unanswered: its
    #: name and new lease (answer with `AddRequest(plan_item=…, token=…)`).
    plan_item: Optional[str]
    lease: Optional[Lease]


@dataclass(frozen=True)
class BestProgram:
    id: str
    code_path: str
    target_code: str
    metrics: Metrics
    changes: str
    iteration_found: int


@dataclass(frozen=True)
class DatabaseInfo:
    is_empty: bool
    last_iteration: int
    program_count: int
    best_program_id: Optional[str]
    best_metrics: Optional[Metrics]
    seed_code_path: Optional[str]
    seed_target_code: Optional[str]


@dataclass(frozen=True)
class IslandStats:
    island: int
    name: Optional[str]
    size: int
    best_program_id: Optional[str]
    best_fitness: Optional[float]
    mean_fitness: Optional[float]


@dataclass(frozen=True)
class CellStats:
    filled: int
    total: int
    coverage: float
    qd_score: float
    qd_offset: float


@dataclass(frozen=True)
class TargetStats:
    id: str
    islands: tuple[int, ...]
    program_count: int
    best_program_id: Optional[str]
    best_fitness: Optional[float]
    evaluations: int
    stagnation: int
    best_synergy_fitness: Optional[float]
    stop: bool
    reason: Optional[str]


@dataclass(frozen=True)
class PopulationStats:
    program_count: int
    evaluations: int
    best_program_id: Optional[str]
    best_fitness: Optional[float]
    mean_fitness: Optional[float]
    baseline_fitness: Optional[float]
    improvement: Optional[float]
    improvement_percent: Optional[float]
    islands: tuple[IslandStats, ...]
    archive: tuple[str, ...]
    stagnation: int
    rounds: int
    recent_statuses: tuple[Status, ...]
    cells: Optional[CellStats]
    targets: tuple[TargetStats, ...]
    cost: Optional[CostTotals]
    attribution: tuple[Attribution, ...]
    pareto: Optional[ParetoStats]
    instances: Optional[InstanceStats]


@dataclass(frozen=True)
class InstanceStats:
    """Per-instance coverage: the instance front (best on some instance) and each instance's best."""

    instance_count: int
    front_size: int
    front: tuple[str, ...]
    mean_best: float
    coverage: tuple[InstanceCoverage, ...]


@dataclass(frozen=True)
class InstanceCoverage:
    """One instance: its best live score, the fittest program reaching it, how many reach it and score it."""

    instance: str
    best: float
    leader: str
    leaders: int
    scored: int


@dataclass(frozen=True)
class ParetoStats:
    """A pareto run's first front: ids by the pareto rank, hypervolume against the reference."""

    objectives: tuple[str, ...]
    front_size: int
    front: tuple[str, ...]
    hypervolume: Optional[float]


@dataclass(frozen=True)
class CostTotals:
    cost_usd: float
    tokens_in: int
    tokens_out: int
    eval_seconds: float


@dataclass(frozen=True)
class Attribution:
    """One operator × model × island row of `PopulationStats.attribution`."""

    operator: Optional[Operator]
    model: Optional[str]
    island: Optional[int]
    candidates: int
    errors: int
    improvements: int
    improvement_rate: float
    cost_usd: float
    cost_per_improvement: Optional[float]
    tokens_in: int
    tokens_out: int
    eval_seconds: float


@dataclass(frozen=True)
class Admission:
    """`Database.admit`: duplicate, near-duplicate or evaluate, and the closest live program."""

    verdict: AdmissionVerdict
    of: Optional[str]
    similarity: float


@dataclass(frozen=True)
class StopVerdict:
    stop: bool
    reason: Optional[str]
    evaluations: int
    rounds: int
    stagnation: int
    best_fitness: Optional[float]


@dataclass(frozen=True)
class PlanItem:
    name: str
    operator: Operator
    island: int
    parent_ids: tuple[str, ...]
    donor_island: Optional[int]
    forced_by: Optional[str]
    island_name: Optional[str]
    island_description: Optional[str]
    donor_island_name: Optional[str]
    notes: tuple[Note, ...]
    target: Optional[str]
    #: What a sample carries: the parent and its fitness, the second parent, the inspirations.
    parent: Optional[SampledParent]
    parent_fitness: Optional[float]
    second_parent: Optional[SampledParent]
    inspirations: tuple[Inspiration, ...]
    #: Idea runs: what the item asks for and the context evoidea's rules allow.
    idea: Optional[IdeaBrief]
    #: Handed out under a lease (`Database.plan_at` with a lease length): answer with its token.
    lease: Optional[Lease]


@dataclass(frozen=True)
class Lease:
    """The lease a plan item is handed out under: its token, expiry (seconds) and attempt."""

    token: str
    expires: float
    attempt: int


@dataclass(frozen=True)
class LeaseEntry:
    """One leased item not applied yet (`Database.leases`)."""

    item: str
    state: LeaseState
    token: str
    expires: float
    attempt: int
    island: int


@dataclass(frozen=True)
class CriterionScore:
    criterion: str
    score: float


@dataclass(frozen=True)
class IdeaBrief:
    """An idea run's plan item: generate, or refine one idea given its weakest criteria."""

    task: str
    idea: Optional[str]
    weakest: tuple[CriterionScore, ...]
    best_summary: Optional[str]


@dataclass(frozen=True)
class SynergyPart:
    target: str
    program_id: str


@dataclass(frozen=True)
class SynergyItem:
    name: str
    parts: tuple[SynergyPart, ...]


@dataclass(frozen=True)
class WorkPlan:
    generation: int
    items: tuple[PlanItem, ...]
    synergy: Optional[SynergyItem]


@dataclass(frozen=True)
class PolicyVerdict:
    pass_: bool = field(metadata={"wit": "pass"})
    reason: Optional[str] = None


@dataclass(frozen=True)
class Lineage:
    id: str
    ancestors: tuple[str, ...]
    missing_ancestor: Optional[str]
    descendants: tuple[str, ...]


#: Every record of the interface by its WIT name (the drift test walks this).
RECORDS: dict[str, type] = {
    "add-request": AddRequest,
    "add-outcome": AddOutcome,
    "remeasure-request": RemeasureRequest,
    "remeasured": Remeasured,
    "note-request": NoteRequest,
    "note": Note,
    "sampled-parent": SampledParent,
    "inspiration": Inspiration,
    "sample-result": SampleResult,
    "best-program": BestProgram,
    "database-info": DatabaseInfo,
    "island-stats": IslandStats,
    "population-stats": PopulationStats,
    "cell-stats": CellStats,
    "pareto-stats": ParetoStats,
    "instance-stats": InstanceStats,
    "instance-coverage": InstanceCoverage,
    "target-stats": TargetStats,
    "stop-verdict": StopVerdict,
    "lease": Lease,
    "lease-entry": LeaseEntry,
    "plan-item": PlanItem,
    "synergy-part": SynergyPart,
    "synergy-item": SynergyItem,
    "work-plan": WorkPlan,
    "policy-verdict": PolicyVerdict,
    "lineage": Lineage,
    "cost-totals": CostTotals,
    "attribution": Attribution,
    "admission": Admission,
    "criterion-score": CriterionScore,
    "idea-brief": IdeaBrief,
}

#: Every enum of the interface by its WIT name, as its `Literal` alias.
ENUMS: dict[str, object] = {
    "status": Status,
    "operator": Operator,
    "note-kind": NoteKind,
    "export-format": ExportFormat,
    "admission-verdict": AdmissionVerdict,
    "idea-origin": IdeaOrigin,
    "lease-state": LeaseState,
}
