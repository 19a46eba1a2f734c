"""evodb for Python: the population database of LLM-driven evolutionary code search.

    from evodb import Database, AddRequest
    db = Database(config={"numIslands": 2}, seed=42)
    db.add(AddRequest(target_code="def f(): ...", metrics={"score": 0.5}))
    parent = db.sample().parent
    db.save("run/database")          # `evodb view run/database` shows it

The engine is evodb's `pure` WebAssembly component run by wasmtime: the same bytes, the same
results and the same `database.json` as the `evodb` CLI, the npm package and the browser.
"""

from .database import Database, policy_check, validate
from .errors import CorruptDatabase, DuplicateId, EvodbError, InvalidConfig, InvalidInput, StoreError
from .types import (
    AddOutcome,
    AddRequest,
    Admission,
    AdmissionVerdict,
    Attribution,
    BestProgram,
    CellStats,
    CostTotals,
    CriterionScore,
    DatabaseInfo,
    ExportFormat,
    IdeaBrief,
    IdeaOrigin,
    Inspiration,
    InstanceCoverage,
    InstanceStats,
    IslandStats,
    Lease,
    LeaseEntry,
    LeaseState,
    Lineage,
    Metrics,
    Note,
    NoteKind,
    NoteRequest,
    Operator,
    ParetoStats,
    PlanItem,
    PolicyVerdict,
    PopulationStats,
    Remeasured,
    RemeasureRequest,
    SampledParent,
    SampleResult,
    Status,
    StopVerdict,
    SynergyItem,
    SynergyPart,
    TargetStats,
    WorkPlan,
)

__version__ = "0.1.0"

__all__ = [
    "AddOutcome", "AddRequest", "Admission", "AdmissionVerdict", "Attribution", "BestProgram", "CellStats",
    "CostTotals", "CriterionScore", "IdeaBrief", "IdeaOrigin", "CorruptDatabase", "Database", "DatabaseInfo",
    "DuplicateId", "EvodbError", "ExportFormat", "Inspiration", "InstanceCoverage", "InstanceStats", "InvalidConfig", "InvalidInput", "IslandStats",
    "Lease", "LeaseEntry", "LeaseState", "Lineage", "Metrics", "Note", "NoteKind", "NoteRequest", "Operator",
    "ParetoStats", "PlanItem", "PolicyVerdict",
    "PopulationStats", "Remeasured", "RemeasureRequest", "SampleResult", "SampledParent", "Status",
    "StopVerdict", "StoreError", "SynergyItem", "SynergyPart", "TargetStats", "WorkPlan", "policy_check",
    "validate",
]
