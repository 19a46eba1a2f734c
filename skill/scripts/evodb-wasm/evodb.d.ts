/* tslint:disable */
/* eslint-disable */
/**
 * A `--config` file: its name, for messages, and its text.
 */
export interface ConfigFile {
    path: string;
    text: string;
}

/**
 * A `plan` round's synergy item: combine each target's current best into one candidate,
 * evaluate it, and add it naming this item; its result is recorded against every target.
 */
export interface SynergyItem {
    /**
     * `gen-{N}/synergy`: the `planItem` of the add that answers it.
     */
    name: string;
    parts: SynergyPart[];
}

/**
 * A live program whose code is alike an earlier-added live program's beyond the config's
 * `nearDuplicate` (what `near_duplicates` lists; `admit` would call it a near-duplicate, or a
 * duplicate at 1).
 */
export interface NearDuplicate {
    id: string;
    /**
     * The earlier-added live program it is closest to (the earliest of equally close ones).
     */
    of: string;
    /**
     * How alike they are, 0–1, as `admit` measures it (1 for equal normalised code).
     */
    similarity: number;
}

/**
 * A new measurement of a live program: the same metrics its add reported, measured again.
 *
 * ```
 * let request = evodb_core::RemeasureRequest::from_json(r#"{"id": "p3", "metrics": {"score": 0.71}}"#).unwrap();
 * assert_eq!(request.metrics.get("score"), Some(0.71));
 * ```
 */
export interface RemeasureRequest {
    id: string;
    metrics: Metrics;
}

/**
 * A note as `note` asks for it.
 *
 * ```
 * let req: evodb_core::NoteRequest =
 *     serde_json::from_str(r#"{"kind": "lesson", "text": "numpy beats list comprehensions here"}"#).unwrap();
 * assert_eq!(req.kind, evodb_core::NoteKind::Lesson);
 * ```
 */
export interface NoteRequest {
    kind: NoteKind;
    text: string;
    /**
     * The target the note is about; none: the whole run.
     */
    target?: string;
    /**
     * The program the note is about, if one.
     */
    programId?: string;
}

/**
 * A pareto run's first front: its size, its ids by the pareto rank, and its hypervolume
 * against `selection.reference` (absent without one).
 */
export interface ParetoStats {
    objectives: string[];
    frontSize: number;
    front: string[];
    hypervolume?: number;
}

/**
 * A program a handout names.
 */
export interface HandoutProgram {
    id?: string;
}

/**
 * A program's metrics. Order is kept (it is the order of the JSON object) because the seed's
 * mean sums values in that order and its files list them in that order.
 */
export type Metrics = Record<string, number>;

/**
 * A run's spending: the sums of every add's `costUsd`, tokens and `evalSeconds`.
 */
export interface CostTotals {
    costUsd: number;
    tokensIn: number;
    tokensOut: number;
    evalSeconds: number;
}

/**
 * A sample or a plan item as `sample` and `plan` print them: only the fields a prompt reads.
 */
export interface Handout {
    /**
     * A sample's parent (`{"id": …}`; its other fields are read from the database).
     */
    parent?: HandoutProgram | null;
    /**
     * A sample's second parent (crossover's diverse parent, migration's donor program).
     */
    secondParent?: HandoutProgram | null;
    /**
     * A plan item's parents: the parent first, the second parent after it.
     */
    parentIds?: string[];
    inspirations?: HandoutProgram[];
    operator?: Operator | null;
    island?: number | null;
    islandName?: string | null;
    islandDescription?: string | null;
    donorIslandName?: string | null;
    notes?: Note[];
}

/**
 * A scored candidate to add.
 *
 * ```
 * let req: evodb_core::AddRequest = serde_json::from_str(r#"{
 *   "codePath": "/p/candidates/iteration_1.py", "targetCode": "def f(): return 1",
 *   "parentId": "0", "metrics": {"score": 0.5}, "changes": "first try"
 * }"#).unwrap();
 * assert_eq!(req.metrics.get("score"), Some(0.5));
 * ```
 */
export interface AddRequest {
    /**
     * Omit to get a deterministic UUID-shaped id: from the plan item's name for a planned add,
     * else from the database's PRNG. An add that names a
     * live program's id with that program's fields is a retry: it is answered again and adds
     * nothing; with other fields the id is a duplicate.
     */
    id?: string;
    codePath: string;
    targetCode: string;
    parentId?: string;
    metrics: Metrics;
    changes?: string;
    /**
     * Target island; required with explicit placement, an override otherwise.
     */
    island?: number;
    /**
     * `accepted` (default), `rejected` (kept in the population as memory), or `error` (the
     * evaluation failed: recorded with fitness null, never placed on an island).
     */
    status?: Status;
    /**
     * Why a candidate was rejected or failed; required for `error`.
     */
    reason?: string;
    operator?: Operator;
    /**
     * The `plan` item this candidate answers: it lands on that item's island and operator.
     */
    planItem?: string;
    /**
     * The lease token of the plan item it answers (`plan` with `leaseSeconds`): required for
     * a leased item, refused when the item was handed out again under another token.
     */
    token?: string;
    /**
     * The git branch holding the candidate (git mode), kept with the program.
     */
    branch?: string;
    /**
     * The candidate's git commit (git mode), kept with the program.
     */
    commit?: string;
    /**
     * In a several-target run: the target the candidate is a version of (else taken from its
     * plan item, island or parent).
     */
    target?: string;
    /**
     * The playbook's rule, applied by the engine (`decide_status`): the candidate is accepted
     * when it is fitter than its parent, else rejected with a reason naming both fitnesses.
     */
    decide?: boolean;
    /**
     * Cost and attribution (each optional): the model that wrote the candidate, the tokens it
     * read and wrote, the price of the call in US dollars and the evaluation's wall time.
     * `stats` totals them per operator × model × island; `stopping.maxCostUsd` caps the run.
     */
    model?: string;
    tokensIn?: number;
    tokensOut?: number;
    costUsd?: number;
    evalSeconds?: number;
    /**
     * Idea runs: how the idea came about (implied by its parents when left out).
     */
    origin?: IdeaOrigin;
    /**
     * Idea runs: every parent, first one first (a merged idea has several); the first is the
     * `parentId`.
     */
    parents?: string[];
    /**
     * Per-instance scores: test or instance id → score, higher is better (`selection.mode`
     * `instances` keeps every program that is the best on some instance; `stats.instances`
     * reports per-instance coverage in any mode).
     */
    instanceScores?: Metrics;
    /**
     * The caller's own embedding of the candidate (any model, every add of a run the same
     * length), kept with the program so that `admit` with an embedding compares against it.
     */
    embedding?: number[];
}

/**
 * A stored note.
 */
export interface Note {
    /**
     * 1, 2, 3, … in the order the notes were taken.
     */
    seq: number;
    kind: NoteKind;
    text: string;
    target?: string;
    programId?: string;
    /**
     * `lastIteration` when the note was taken: how far the run had come.
     */
    iteration: number;
}

/**
 * Everything that shapes a database's behaviour. Deserializes from camelCase JSON with every
 * field optional (missing fields take the seed defaults) and unknown fields rejected.
 */
export interface Config {
    /**
     * The number of islands; with named `islands`, their count (leave it out then).
     */
    numIslands?: number;
    /**
     * Named islands (seed 004's families of approaches): each sample and plan item carries its
     * island's name and description. Empty: islands are numbered only, as in the seed.
     */
    islands?: IslandSpec[];
    maxIslandSize?: number;
    migrationInterval?: number;
    migrationRate?: number;
    explorationRatio?: number;
    /**
     * Exploitation picks uniformly among this many best programs of the island.
     */
    exploitationTop?: number;
    /**
     * Inspirations: `inspirations_from_top` drawn from the island's best `inspiration_top_pool`…
     */
    inspirationTopPool?: number;
    inspirationsFromTop?: number;
    /**
     * …plus `inspirations_from_rest` drawn from the rest of the island.
     */
    inspirationsFromRest?: number;
    placement?: Placement;
    migration?: MigrationMode;
    inspirationScope?: InspirationScope;
    fitness?: FitnessSpec;
    /**
     * Per-metric direction; metrics not named here are maximised.
     */
    directions?: Record<string, Direction>;
    /**
     * MAP-Elites feature dimensions (the AlphaEvolve strategy). Empty: no cells, the seed's worst-first pruning.
     * With dimensions, an island over capacity loses the worst member of its most crowded cell.
     */
    features?: FeatureDim[];
    /**
     * The elite archive: this many best programs are never evicted (the AlphaEvolve strategy's default 10).
     */
    archiveSize?: number;
    /**
     * Subtracted from each cell's best fitness in the QD score (pyribs' convention).
     */
    qdOffset?: number;
    /**
     * The four operators of the AlphaEvolve strategy; `None` keeps the seed's exploration/exploitation sample.
     */
    operators?: OperatorWeights;
    /**
     * `weights` (default): the operators' weighted draw; `ucb`: the adaptive policy
     * (`adaptive_operator`). Needs `operators`.
     */
    operatorPolicy?: OperatorPolicy;
    /**
     * Code-hash dedupe (evo-anything's fitness cache): a repeated candidate returns the earlier result.
     */
    dedupe?: boolean;
    /**
     * `admit`: the similarity (0–1, MinHash over token shingles) from which a candidate is a
     * near-duplicate of a live program. Absent: `DEFAULT_NEAR_DUPLICATE` (0.9).
     */
    nearDuplicate?: number;
    /**
     * `admit` with the caller's embedding: the cosine similarity (0–1) from which a candidate
     * is a near-duplicate of a live program with a stored embedding. Absent: `nearDuplicate`,
     * else `DEFAULT_NEAR_DUPLICATE` (0.9).
     */
    embeddingThreshold?: number;
    /**
     * `aware`: sampling and planning account for parents handed out and not yet answered
     * (`in_flight_penalty`); `ignore` (the default) is the seed's.
     */
    pending?: PendingMode;
    /**
     * `plan`'s lease length in seconds when it is given none (`plan --leaseSeconds`): each item
     * is handed out under a lease that a heartbeat extends and whose expiry hands the item out
     * again. Absent: no leases (the seed's plan).
     */
    leaseSeconds?: number;
    /**
     * Budget and stopping rules; all off by default.
     */
    stopping?: StopRules;
    /**
     * How much run memory (`notes`) each sample and plan item carries.
     */
    notes?: NoteLimits;
    /**
     * Several targets (files or functions) evolved in one run, each on its own group of
     * `numIslands / targets` islands. Empty: one target, as in the seed.
     */
    targets?: TargetSpec[];
    /**
     * With several targets: every this many plan rounds, a `synergy` item names each target's
     * best, to be combined and evaluated together.
     */
    synergyEvery?: number;
    /**
     * What the members are: programs (the default) or ideas (evoidea; `config/ideas.rs`).
     */
    kind?: RunKind;
    /**
     * An idea run's population and elite.
     */
    ideas?: IdeaSettings;
    /**
     * How programs are compared: `scalar` (the fitness, the default), `pareto` or
     * `lexicographic` over named objectives (`config/selection.rs`, `rules/pareto.rs`).
     */
    selection?: Selection;
}

/**
 * How a new candidate is made from the population.
 */
export type Operator = "exploitation" | "exploration" | "crossover" | "migration";

/**
 * How a program's metrics become one fitness value (higher is better after directions apply).
 */
export type FitnessSpec = { kind: "mean" } | { kind: "primary"; metric: string } | { kind: "weighted"; weights: Record<string, number> };

/**
 * How an idea came about (evoidea's `origin`).
 */
export type IdeaOrigin = "generated" | "refined" | "merged";

/**
 * How ring migration moves programs between neighbouring islands.
 */
export type MigrationMode = "share" | "copy";

/**
 * How the operators' next one is chosen (`adaptive_operator`).
 */
export type OperatorPolicy = "weights" | "ucb";

/**
 * MAP-Elites figures. The QD score follows pyribs: Σ over filled cells of (the cell's best
 * fitness − `qdOffset`); QDax adds the offset instead. Choose `qdOffset` at most the lowest
 * fitness you expect so that every filled cell adds a non-negative amount.
 */
export interface CellStats {
    filled: number;
    total: number;
    /**
     * `filled / total`.
     */
    coverage: number;
    qdScore: number;
    qdOffset: number;
}

/**
 * One criterion and its score (a refine item's weakest areas).
 */
export interface CriterionScore {
    criterion: string;
    score: number;
}

/**
 * One event. Serialized with an `event` tag: `{"event": "added", …}`.
 */
export type Event = { event: "created"; seed: number; config: Config } | { event: "added"; seq: number; id: string; island: number; status: Status; fitness: number; cell?: number[]; request: AddRequest; now: number; released?: boolean } | { event: "status"; seq: number; id: string; status: Status; reason: string; request: AddRequest; now: number; released?: boolean } | { event: "cached"; id: string; request: AddRequest; now: number; released?: boolean } | { event: "held"; item: string; id: string; request: AddRequest; now: number } | { event: "sampled"; operator?: Operator; island?: number; parentId: string | null; target?: string; planItem?: string; now?: number } | { event: "synergy"; seq: number; id: string; fitness: number; request: AddRequest; now: number; released?: boolean } | { event: "noted"; request: NoteRequest } | { event: "remeasured"; id: string; metrics: Metrics; fitness: number; measurements: number } | { event: "planned"; n: number; frozen: number[]; boosted: number[]; items: string[]; now?: number; leaseSeconds?: number } | { event: "heartbeat"; item: string; token: string; now: number; leaseSeconds?: number } | { event: "migrated"; id: string; from: number; to: number; copyId?: string } | { event: "evicted"; id: string; island: number; deleted: boolean } | { event: "archive"; entered: string[]; left: string[] };

/**
 * One feature dimension.
 *
 * ```
 * let dims: Vec<evodb_core::FeatureDim> = serde_json::from_str(r#"[
 *   {"kind": "island"},
 *   {"kind": "codeLines", "thresholds": [40, 100]},
 *   {"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 4}
 * ]"#).unwrap();
 * assert_eq!(dims[1].bins(3), 3); // small / medium / large
 * ```
 */
export type FeatureDim = { kind: "metric"; metric: string; min: number; max: number; bins: number } | { kind: "codeLines"; thresholds: number[]; labels?: string[] } | { kind: "island" };

/**
 * One instance: the best live score on it, the fittest program reaching it, how many reach it
 * and how many scored it at all.
 */
export interface InstanceCoverage {
    instance: string;
    best: number;
    leader: string;
    leaders: number;
    scored: number;
}

/**
 * One leased item that is not applied yet, as `leases` lists it.
 */
export interface LeaseEntry {
    item: string;
    state: LeaseState;
    token: string;
    expires: number;
    attempt: number;
    island: number;
}

/**
 * One named island: the family of approaches its programs explore.
 */
export interface IslandSpec {
    name: string;
    description?: string;
}

/**
 * One operator × model × island row: what its candidates bought and cost. An improvement is a
 * candidate fitter than its parent; errors have no island.
 */
export interface Attribution {
    operator: Operator | null;
    model: string | null;
    island: number | null;
    candidates: number;
    errors: number;
    improvements: number;
    /**
     * `improvements / candidates`.
     */
    improvementRate: number;
    costUsd: number;
    /**
     * `costUsd / improvements`; null without an improvement.
     */
    costPerImprovement: number | null;
    tokensIn: number;
    tokensOut: number;
    evalSeconds: number;
}

/**
 * One target of a several-target run.
 */
export interface TargetSpec {
    /**
     * What programs and commands call it, e.g. `"parse"` or `"src/solver.py"`.
     */
    id: string;
    description?: string;
    /**
     * Plan items per round: a target of weight 2 gets two for each one of a weight-1 target.
     */
    weight?: number;
}

/**
 * One target's figures (`stats.targets`): its programs, its best, and its own stopping verdict
 * (the threshold on its best, the budget, patience on its own evaluations).
 */
export interface TargetStats {
    id: string;
    /**
     * Its islands, lowest first.
     */
    islands: number[];
    programCount: number;
    bestProgramId: string | null;
    bestFitness: number | null;
    /**
     * Evaluations of its candidates; synergy evaluations count for every target.
     */
    evaluations: number;
    /**
     * Of those, in a row without a new best of the target.
     */
    stagnation: number;
    /**
     * The best fitness a synergy candidate holding this target's program reached.
     */
    bestSynergyFitness: number | null;
    stop: boolean;
    reason: string | null;
}

/**
 * One target's program in a synergy item.
 */
export interface SynergyPart {
    target: string;
    programId: string;
}

/**
 * One worker's task.
 */
export interface PlanItem {
    /**
     * `gen-{N}/island-{target}/{operator}-{i}`: a ready-made branch name.
     */
    name: string;
    operator: Operator;
    /**
     * The target island: the candidate joins it.
     */
    island: number;
    /**
     * The parent first; crossover's diverse parent or migration's donor second.
     */
    parentIds: string[];
    donorIsland?: number;
    forcedBy?: string;
    /**
     * Named islands: the target island's name and description, and the donor island's name.
     */
    islandName?: string;
    islandDescription?: string;
    donorIslandName?: string;
    /**
     * Run memory: the notes by relevance (lessons, then those about the parent, then the rest;
     * newest first within each), within `config.notes` (`recent_notes`).
     */
    notes?: Note[];
    /**
     * In a several-target run: the target the candidate is a version of.
     */
    target?: string;
    /**
     * What a sample carries, so a worker needs nothing else: the parent (with its fitness),
     * the second parent, and the inspirations, best first (`plan_inspirations`).
     */
    parent?: SampledParent;
    parentFitness?: number;
    secondParent?: SampledParent;
    inspirations?: Inspiration[];
    /**
     * In an idea run: what the item asks for (generate, or refine one idea) and the context it
     * may use.
     */
    idea?: IdeaBrief;
    /**
     * Handed out under a lease (`plan` with `leaseSeconds`): answer with its token before it
     * expires, or `heartbeat` to extend it.
     */
    lease?: Lease;
}

/**
 * Per-instance coverage of the live population: its instance front (the programs best on some
 * instance, dominated ones left out; ranked by instances led, then the scalar order) and, per
 * instance, the best score reached.
 */
export interface InstanceStats {
    /**
     * Instances scored by some live program.
     */
    instanceCount: number;
    frontSize: number;
    front: string[];
    /**
     * The mean over instances of the best score reached: what the front scores together, to
     * set beside the best program's own mean.
     */
    meanBest: number;
    /**
     * Per instance, in instance-id order.
     */
    coverage: InstanceCoverage[];
}

/**
 * The comparison every rule uses (elite, pruning, cells, archive, migration, best).
 */
export type SelectionMode = "scalar" | "pareto" | "lexicographic" | "instances";

/**
 * The fitness landscape: how many polynomial terms a candidate has, and how rugged the score
 * surface is (0 is a single smooth basin; 1 adds a ring of local optima at every whole unit of
 * distance from the target, where greedy search stalls).
 */
export interface Landscape {
    terms?: number;
    ruggedness?: number;
}

/**
 * The lease an item is handed out under.
 */
export interface Lease {
    /**
     * What the answer (`add --token`) and every `heartbeat` must name. UUID-shaped, derived
     * from the seed, the item's name and the attempt: a reissued item gets a new one.
     */
    token: string;
    /**
     * When the lease runs out (the host's seconds, as `now` is given).
     */
    expires: number;
    /**
     * 1 when first handed out, counted up each time the item is handed out again.
     */
    attempt: number;
}

/**
 * The memetic loop's sizes (evoidea's `--population` and `--elite`).
 */
export interface IdeaSettings {
    /**
     * Ideas generated when a round generates (the first, or after all were pruned).
     */
    population?: number;
    /**
     * Ideas refined in each later round: the best this many live ideas.
     */
    elite?: number;
}

/**
 * The most recent notes a sample or plan item carries: at most `perSample` notes whose texts
 * add up to at most `maxBytes` (newest first; a note that does not fit is left out).
 */
export interface NoteLimits {
    perSample?: number;
    maxBytes?: number;
}

/**
 * The operator weights of the AlphaEvolve strategy (normalised by their sum, so they need not add up to 1).
 */
export interface OperatorWeights {
    exploitation?: number;
    exploration?: number;
    crossover?: number;
    migration?: number;
}

/**
 * What `admit` answers before a candidate is evaluated.
 */
export interface Admission {
    verdict: AdmissionVerdict;
    /**
     * The live program it duplicates, or the closest one (none in an empty population).
     */
    of: string | null;
    /**
     * How alike the closest program is, 0–1 (1 for a duplicate): a MinHash estimate of the
     * Jaccard index of their token shingles.
     */
    similarity: number;
}

/**
 * What `lineage(id)` returns.
 */
export interface Lineage {
    id: string;
    /**
     * The parent first, then its parent, … up to the seed program or a pruned ancestor.
     */
    ancestors: string[];
    /**
     * The first ancestor no longer in the population; `None` when the chain reaches the root.
     */
    missingAncestor: string | null;
    /**
     * Every live program descending from `id`, oldest first (`iterationFound`, then id).
     */
    descendants: string[];
}

/**
 * What `plan` returns.
 */
export interface Plan {
    /**
     * The batch number (`gen-{N}` in the names), counted from 0.
     */
    generation: number;
    items: PlanItem[];
    /**
     * Every `synergyEvery` rounds of a several-target run: the item combining each target's best.
     */
    synergy?: SynergyItem;
}

/**
 * What `policy_check` answers.
 */
export interface PolicyVerdict {
    pass: boolean;
    /**
     * Why it failed, naming the file: e.g. `Protected file modified: 'benchmark.py'`.
     */
    reason: string | null;
}

/**
 * What `remeasure` did: the program's metrics now (the running mean of its `measurements`), its
 * fitness before and after, and the best program after it.
 */
export interface Remeasured {
    id: string;
    metrics: Metrics;
    /**
     * How many measurements the metrics are the mean of (the add's included).
     */
    measurements: number;
    fitness: number;
    previousFitness: number;
    bestProgramId: string | null;
}

/**
 * What `should_stop` answers.
 */
export interface StopVerdict {
    stop: boolean;
    /**
     * `threshold reached`, `budget exhausted`, `stagnation` or `max rounds`; null to go on.
     */
    reason: string | null;
    evaluations: number;
    rounds: number;
    /**
     * Evaluations in a row without a new best fitness.
     */
    stagnation: number;
    bestFitness: number | null;
}

/**
 * What `stats` returns. Fitness values are the ranking value (`fitness_of`): higher is better,
 * metrics configured with direction `min` already count negated, so `improvement` =
 * `bestFitness − baselineFitness` is positive exactly when the run got better. Every figure is
 * shown to 12 significant digits (`json_text::shown`), so none prints as 0.7985500000000001.
 */
export interface Stats {
    programCount: number;
    /**
     * Evaluations spent: every add, errors and cached repeats included (a database the seed's
     * CLI wrote starts from its `lastIteration`).
     */
    evaluations: number;
    bestProgramId: string | null;
    bestFitness: number | null;
    meanFitness: number | null;
    /**
     * The fitness of the seed program (`iterationFound` 0), while it is still in the population.
     */
    baselineFitness: number | null;
    improvement: number | null;
    /**
     * `improvement` as a percentage of the baseline's magnitude, to two decimals (null without a
     * baseline, or when the baseline is 0).
     */
    improvementPercent: number | null;
    islands: IslandStats[];
    /**
     * The elite archive: the best `archiveSize` ids, best first.
     */
    archive: string[];
    /**
     * Evaluations in a row without a new best fitness.
     */
    stagnation: number;
    /**
     * `plan` batches so far.
     */
    rounds: number;
    /**
     * The last statuses, oldest first (what the operator overrides read).
     */
    recentStatuses: Status[];
    /**
     * MAP-Elites figures, when feature dimensions are configured.
     */
    cells?: CellStats;
    /**
     * Per target, in a several-target run.
     */
    targets?: TargetStats[];
    /**
     * What the run cost, once it has attribution rows (operators on, or an add that reported a cost).
     */
    cost?: CostTotals;
    /**
     * Per operator × model × island: candidates, errors, improvements and what they cost.
     */
    attribution?: Attribution[];
    /**
     * The first front, in a pareto run (`selection.mode` `pareto`).
     */
    pareto?: ParetoStats;
    /**
     * Per-instance coverage, once a live program carries `instanceScores`.
     */
    instances?: InstanceStats;
}

/**
 * What a note records.
 */
export type NoteKind = "lesson" | "failure" | "idea";

/**
 * What a run's members are.
 */
export type RunKind = "programs" | "ideas";

/**
 * What an item of an idea run's plan asks for, carrying only what evoidea's context-rot rules
 * allow: a generate item nothing (the prompt is the caller's); a refine item its one idea, that
 * idea's weakest criteria, and a one-line summary of the current best — never the history.
 */
export interface IdeaBrief {
    /**
     * `generate` or `refine`.
     */
    task: string;
    /**
     * Refine: the idea to improve, as compact JSON.
     */
    idea?: string;
    /**
     * Refine: its weakest criteria, lowest first.
     */
    weakest?: CriterionScore[];
    /**
     * Refine: `title — summary (score)` of the current best idea.
     */
    bestSummary?: string;
}

/**
 * What became of an evaluated candidate.
 */
export type Status = "accepted" | "rejected" | "error";

/**
 * What fills a prompt beyond what the database knows: the problem, from the playbook and the
 * agent's workspace.
 */
export interface PromptParts {
    goal?: string;
    targetName?: string;
    candidatePath?: string;
    context?: string;
}

/**
 * When a run should stop (evoidea's rules plus evo-anything's evaluation budget).
 */
export interface StopRules {
    /**
     * Stop after this many evaluations (adds, including errors and cached repeats).
     */
    maxEvaluations?: number;
    /**
     * Stop once the best fitness reaches this value.
     */
    scoreThreshold?: number;
    /**
     * Stop after this many evaluations in a row without a new best fitness.
     */
    patience?: number;
    /**
     * For `patience`: a new best counts as progress only when it beats the previous best by
     * more than this (in fitness units), so a lucky measurement within the benchmark's noise
     * does not reset the count. Absent (0): any new best does, as in the seed.
     */
    noiseMargin?: number;
    /**
     * Stop after this many rounds (`plan` batches).
     */
    maxRounds?: number;
    /**
     * Stop once the adds' `costUsd` add up to this many US dollars.
     */
    maxCostUsd?: number;
    /**
     * Stop once one live program reaches every one of these metric values at once (each in
     * its metric's direction: at least a `max` value, at most a `min` one), e.g.
     * `{"accuracy": 0.99, "speed": 2.0}` — a threshold on named objectives.
     */
    objectiveThresholds?: Record<string, number>;
}

/**
 * Where a leased item stands (`leases`).
 */
export type LeaseState = "live" | "expired" | "held";

/**
 * Where inspirations are drawn from.
 */
export type InspirationScope = "island" | "allIslands";

/**
 * Whether a larger or a smaller metric value is better.
 */
export type Direction = "max" | "min";

/**
 * Whether sampling accounts for work handed out and not yet answered (`in_flight_penalty`).
 */
export type PendingMode = "ignore" | "aware";

/**
 * Which command's flags: `seed` (the initial program) or `add` (a child).
 */
export type AddCommand = "seed" | "add";

/**
 * Which island a new program joins.
 */
export type Placement = "roundRobin" | "parentIsland" | "explicit";

/**
 * `add`: `{id, metrics, bestProgramId, bestMetrics, lastIteration}`, plus `warnings` when there
 * are any (e.g. an unknown parent id, which the seed silently treats as generation 0). Beyond the
 * seed: `status` unless accepted; `cached: true` when dedupe answered with an earlier
 * candidate (then `id` and `metrics` are that candidate's). The best fields are null only when
 * an error candidate arrives before any program.
 */
export interface AddOutcome {
    id: string;
    metrics: Metrics;
    bestProgramId: string | null;
    bestMetrics: Metrics | null;
    lastIteration: number;
    warnings?: string[];
    status?: Status;
    cached?: boolean;
    /**
     * The MAP-Elites cell, when feature dimensions are configured.
     */
    cell?: number[];
}

/**
 * `best`: `{id, codePath, targetCode, metrics, changes, iterationFound}` (or `null`).
 */
export interface BestProgram {
    id: string;
    codePath: string;
    targetCode: string;
    metrics: Metrics;
    changes: string;
    iterationFound: number;
}

/**
 * `evaluate`, `duplicate` (equal once comments and whitespace are normalised) or
 * `nearDuplicate` (at least the config's `nearDuplicate` alike).
 */
export type AdmissionVerdict = "evaluate" | "duplicate" | "near-duplicate";

/**
 * `info`: `{isEmpty, lastIteration, programCount, bestProgramId, bestMetrics, seedCodePath, seedTargetCode}`.
 */
export interface Info {
    isEmpty: boolean;
    lastIteration: number;
    programCount: number;
    bestProgramId: string | null;
    bestMetrics: Metrics | null;
    seedCodePath: string | null;
    seedTargetCode: string | null;
}

/**
 * `init`'s config flags as a CLI read them: text as given, the `--config` file already read.
 */
export interface ConfigFlags {
    /**
     * `--config`: where the file was read (`-` for standard input) and its text.
     */
    configFile?: ConfigFile | null;
    /**
     * The top-level scalar options given, as `[JSON key, flag text]`, in the table's order.
     */
    scalars?: [string, string][];
    /**
     * `--fitness`: `mean` | `primary:<metric>` | `weighted:<metric>=<weight>,…`.
     */
    fitness?: string | null;
    /**
     * `--direction <metric>=min|max`, each given.
     */
    directions?: string[];
    features?: string | null;
    /**
     * `--operators`: a JSON object of weights, or `default`.
     */
    operators?: string | null;
    dedupe?: boolean;
    /**
     * The `stopping` rules given, as `[JSON key, flag text]`.
     */
    stopping?: [string, string][];
    /**
     * `--selection`: `scalar` | `pareto` | `lexicographic` | `instances`.
     */
    selection?: string;
    /**
     * `--objectives`: metric names, comma-separated, in order.
     */
    objectives?: string;
}

/**
 * `sample`: `{parent: {...} | null, inspirations: [...]}`; with operators configured, also
 * `operator`, `island`, `secondParent`, `donorIsland` and `forcedBy` (when an override decided);
 * with named islands, `island`, `islandName` and `islandDescription`; with notes, `notes`.
 */
export interface Sample {
    parent: SampledParent | null;
    inspirations: Inspiration[];
    operator?: Operator;
    island?: number;
    secondParent?: SampledParent;
    donorIsland?: number;
    forcedBy?: string;
    /**
     * Named islands: the sampled island's name and description, and the donor island's name.
     */
    islandName?: string;
    islandDescription?: string;
    donorIslandName?: string;
    /**
     * Run memory: the notes by relevance (lessons, then those about the parent, then the rest;
     * newest first within each), within `config.notes` (`recent_notes`).
     */
    notes?: Note[];
    /**
     * In a several-target run: the target the candidate is a version of.
     */
    target?: string;
    /**
     * With operators configured: the parent's fitness, what a child must beat to be accepted
     * under the playbook's rule (`add --decide`).
     */
    parentFitness?: number;
    /**
     * A leased plan item whose lease expired, handed out again by this sample (`sample_at`):
     * answer it with `add --planItem` and this lease's token, like a plan item.
     */
    planItem?: string;
    lease?: Lease;
}

/**
 * `seed`'s and `add`'s flags as a CLI read them: text as given, files already read.
 */
export interface AddFlags {
    codePath?: string | null;
    /**
     * `--targetCode`, or the text of `--targetCodeFile` (its bytes as they are).
     */
    targetCode?: string | null;
    /**
     * `--metrics`: JSON text.
     */
    metrics?: string | null;
    changes?: string | null;
    /**
     * `changes` is the text of `--changesFile`: its final newline is not part of it.
     */
    changesFromFile?: boolean;
    parentId?: string | null;
    id?: string | null;
    island?: number | null;
    status?: string | null;
    /**
     * `--decide`: the engine applies the playbook's rule (`decide_status`).
     */
    decide?: boolean;
    reason?: string | null;
    operator?: string | null;
    planItem?: string | null;
    /**
     * `--token`: the lease token of the plan item it answers.
     */
    token?: string | null;
    /**
     * `--targetId`: the request's `target`.
     */
    targetId?: string | null;
    /**
     * Cost and attribution, as given.
     */
    model?: string | null;
    tokensIn?: number | null;
    tokensOut?: number | null;
    costUsd?: number | null;
    evalSeconds?: number | null;
    /**
     * `--instanceScores`: JSON text, instance id → score.
     */
    instanceScores?: string | null;
    /**
     * `--embedding`: JSON text, a list of numbers ([`embedding_from_flag`]).
     */
    embedding?: string | null;
}

/**
 * `selection` in the config. Each objective is a metric; its direction is the metric's
 * `directions` entry (`max` unless set), as for fitness.
 */
export interface Selection {
    mode?: SelectionMode;
    /**
     * The metrics compared, in order (the order matters for `lexicographic`).
     */
    objectives?: string[];
    /**
     * `lexicographic`: per objective, the difference within which two programs count as tied on
     * it (absent: 0, exact ties only).
     */
    tolerances?: number[];
    /**
     * The hypervolume's reference point: per objective, a value every program of interest is
     * better than (in the metric's own units and direction). Absent: no hypervolume in stats.
     */
    reference?: Record<string, number>;
}

export interface Inspiration {
    id: string;
    metrics: Metrics;
    changes: string;
}

export interface IslandStats {
    island: number;
    /**
     * The island's name, when the islands are named.
     */
    name?: string;
    size: number;
    bestProgramId: string | null;
    bestFitness: number | null;
    meanFitness: number | null;
}

export interface SampledParent {
    id: string;
    codePath: string;
    targetCode: string;
    metrics: Metrics;
    changes: string;
}


/**
 * Programs' code signatures, for the near-duplicates among any set of them.
 *
 * ```js
 * import { CodeSignatures } from "evodb";
 * const signatures = new CodeSignatures();
 * for (const p of programs) signatures.add(p.id, p.targetCode, p.codePath, p.migratedFrom ?? null);
 * const near = signatures.nearDuplicates(liveIdsInAddedOrder, config.nearDuplicate ?? null);
 * // [{ id: "c", of: "a", similarity: 0.96875 }, …]
 * ```
 */
export class CodeSignatures {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `signatures.add(id, code, codePath, copyOf?)`: signs program `id`'s code (`codePath`'s
     * extension names its comment syntax); `copyOf`: the program a copy-mode migration copied it
     * from, which it is then never a near-duplicate of. Adding an id again replaces it.
     */
    add(id: string, code: string, codePath: string, copyOf?: string | null): void;
    /**
     * `signatures.has(id)`: whether program `id` is signed.
     */
    has(id: string): boolean;
    /**
     * `signatures.nearDuplicates(live, threshold?)`: `db.nearDuplicates()` among the ids in
     * `live`, given in the order they were added (ids never signed are left out), at `threshold`
     * (0–1; `null`: the default, 0.9).
     */
    nearDuplicates(live: string[], threshold?: number | null): NearDuplicate[];
    /**
     * `new CodeSignatures()`: none signed yet.
     */
    constructor();
    /**
     * `signatures.remove(id)`: forgets program `id`.
     */
    remove(id: string): void;
    /**
     * `signatures.size`: how many programs are signed.
     */
    readonly size: number;
}

/**
 * A population database.
 *
 * ```js
 * import { Database } from "evodb";
 * const db = new Database({ numIslands: 3 }, 42);
 * const seed = db.add({ codePath: "/src/f.py", targetCode: "def f(): ...", parentId: "0",
 *                       metrics: { score: 0.5 }, changes: "initial implementation" }, Date.now() / 1000);
 * const { parent, inspirations } = db.sample();
 * ```
 */
export class Database {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `db.add(request, now)`: `{id, metrics, bestProgramId, bestMetrics, lastIteration, warnings?}`.
     * `now` is seconds since the epoch (`Date.now() / 1000`).
     *
     * ```js
     * const { id } = db.add({ codePath: "/c/1.py", targetCode, parentId, metrics: { score } }, Date.now() / 1000);
     * ```
     */
    add(request: AddRequest, now: number): AddOutcome;
    /**
     * `db.admitEmbedding(code, codePath, embedding)`: `admit` by your own embedding of the code
     * (numbers; the same model and length as the adds' `embedding`): near-duplicates by cosine
     * similarity. Throws for an embedding that is empty, not finite, all zeros or of another length.
     *
     * ```js
     * db.add({ ...seed, embedding: await embed(seed.targetCode) }, now);
     * const { verdict } = db.admitEmbedding(code, "c.py", await embed(code));
     * ```
     */
    admitEmbedding(code: string, codePath: string, embedding: Float64Array | number[]): Admission;
    /**
     * `db.admit(code, codePath)`: before evaluating a candidate, whether it duplicates (or nearly
     * duplicates) a live program; reads only. `codePath`'s extension names the comment syntax.
     *
     * ```js
     * const { verdict, of, similarity } = db.admit(code, "candidates/iter_7.py");
     * if (verdict !== "evaluate") console.log(`skip: ${verdict} of ${of} (${similarity})`);
     * ```
     */
    admit(code: string, codePath: string): Admission;
    /**
     * `db.best(target?)`: `{id, codePath, targetCode, metrics, changes, iterationFound}` or
     * `null`; with `target`, that target's best.
     *
     * ```js
     * const score = db.best()?.metrics.score;
     * ```
     */
    best(target?: string | null): BestProgram | null;
    /**
     * `Database.compareHistory(text, history)`: `history.ndjson` replayed and compared with a
     * `database.json` text; every disagreement, named (empty: they agree).
     *
     * ```js
     * const disagreements = Database.compareHistory(databaseText, historyText);
     * ```
     */
    static compareHistory(text: string, history: string): string[];
    /**
     * `db.evoideaExport()`: an idea run as evoidea's files, `{kind, state, final}` (JSON text;
     * `state` and `final` are null for a programs run, `run_id` is the caller's to fill).
     */
    evoideaExport(): string;
    /**
     * `Database.fromJson(text)`: reads `database.json` text (evodb's or the seed CLI's).
     *
     * ```js
     * const db = Database.fromJson(fs.readFileSync("database.json", "utf8"));
     * ```
     */
    static fromJson(text: string): Database;
    /**
     * `db.heartbeat(item, token, now, leaseSeconds?)`: extends a leased item's lease to `now` +
     * `leaseSeconds` (else its own length); a stale token is refused.
     *
     * ```js
     * const { expires } = db.heartbeat(item.name, item.lease.token, Date.now() / 1000);
     * ```
     */
    heartbeat(item: string, token: string, now: number, leaseSeconds?: number | null): Lease;
    /**
     * `db.info()`: the seed CLI's `info` object.
     *
     * ```js
     * const { isEmpty, lastIteration, bestProgramId } = db.info();
     * ```
     */
    info(): Info;
    /**
     * `db.lacksEvodbSection()`: the file it was read from had no `evodb` section.
     */
    lacksEvodbSection(): boolean;
    /**
     * `db.leases(now)`: every leased item not applied yet, in plan order: live, expired or held.
     *
     * ```js
     * const expired = db.leases(Date.now() / 1000).filter((l) => l.state === "expired");
     * ```
     */
    leases(now: number): LeaseEntry[];
    /**
     * `db.lineageMermaid()`: the live population's family tree as a Mermaid flowchart.
     *
     * ```js
     * document.querySelector("pre.mermaid").textContent = db.lineageMermaid();
     * ```
     */
    lineageMermaid(): string;
    /**
     * `db.lineageTree()`: the same family tree as indented ASCII (evoidea's `tree`).
     *
     * ```js
     * console.log(db.lineageTree()); // "#1 3f2a… fitness 0.500 gen 0 island 0\n└── #2 …"
     * ```
     */
    lineageTree(): string;
    /**
     * `db.lineage(id)`: `{id, ancestors, missingAncestor, descendants}` of a live program, or
     * `null` when no live program has that id.
     *
     * ```js
     * const { ancestors } = db.lineage(db.best().id); // parent first, back to the seed program
     * ```
     */
    lineage(id: string): Lineage | null;
    /**
     * `db.loadWarnings()`: what loading noticed that the user should be told.
     */
    loadWarnings(): string[];
    /**
     * `db.nearDuplicates()`: each live program whose code is at least the config's
     * `nearDuplicate` (default 0.9) alike an earlier-added live program, as `admit` measures it,
     * with the closest such program (the earliest on a tie), in the order they were added.
     *
     * ```js
     * for (const { id, of, similarity } of db.nearDuplicates()) {
     *   console.log(`${id} ≈ ${of} (${similarity})`); // e.g. a retry with only comments changed: 1
     * }
     * ```
     */
    nearDuplicates(): NearDuplicate[];
    /**
     * `new Database(config?, seed?)`: `config` is a plain object of options (missing ones take
     * the seed's defaults); `seed` a non-negative integer (default 0).
     *
     * ```js
     * const db = new Database({ numIslands: 4, fitness: { kind: "primary", metric: "score" } }, 7);
     * ```
     */
    constructor(config?: Config | null, seed?: number | null);
    /**
     * `db.note(request)`: keeps a note (run memory) that later samples and plan items carry.
     *
     * ```js
     * db.note({ kind: "lesson", text: "numpy's sieve beats the pure-Python loop", target: "sieve" });
     * ```
     */
    note(request: NoteRequest): Note;
    /**
     * `db.notes(target?, kind?, limit?)`: the notes, newest first (a target's and the run-wide ones).
     *
     * ```js
     * const failures = db.notes(null, "failure", 10);
     * ```
     */
    notes(target: string | null | undefined, kind: NoteKind | null, limit?: number | null): Note[];
    /**
     * `db.noticeLostSection(history)`: after `fromJson`, when the file had no `evodb` section but
     * `history` (history.ndjson's text) holds evodb's events, a warning naming what was lost
     * joins `db.loadWarnings()`.
     */
    noticeLostSection(history: string): void;
    /**
     * `db.paretoFront()`: a pareto run's first front, best-ranked first (largest crowding
     * distance, then fitness); throws in the other selection modes.
     *
     * ```js
     * const front = db.paretoFront(); // [{id, metrics, …}, …]
     * ```
     */
    paretoFront(): BestProgram[];
    /**
     * `db.planAt(n, frozen, boosted, now, leaseSeconds?)`: `plan` at time `now` (seconds), each
     * item under a lease of `leaseSeconds` (else the config's `leaseSeconds`, else none). An
     * item's `lease.token` goes with its answer (`token`) and its heartbeats; expired, unanswered
     * items are handed out again first, with a new token.
     *
     * ```js
     * const { items } = db.planAt(4, [], [], Date.now() / 1000, 600);
     * db.add({ ...candidate, planItem: items[0].name, token: items[0].lease.token }, Date.now() / 1000);
     * ```
     */
    planAt(n: number, frozen: Uint32Array | number[] | null | undefined, boosted: Uint32Array | number[] | null | undefined, now: number, leaseSeconds?: number | null): Plan;
    /**
     * `db.plan(n, frozen?, boosted?)`: `n` work items for parallel workers, each with a name,
     * operator, target island and parent ids; pass an item's name as `planItem` when adding.
     *
     * ```js
     * const { items } = db.plan(8, [], [2]); // island 2 gets twice the share
     * ```
     */
    plan(n: number, frozen?: Uint32Array | number[] | null, boosted?: Uint32Array | number[] | null): Plan;
    /**
     * `db.populationMarkdown()`: the AlphaEvolve strategy's `## 🧬 Population` section, newest first.
     *
     * ```js
     * fs.writeFileSync("population.md", db.populationMarkdown());
     * ```
     */
    populationMarkdown(): string;
    /**
     * `db.recordEvents(on)`: start (or stop) recording events; `db.takeEvents()` drains them.
     *
     * ```js
     * db.recordEvents(true);
     * db.add(request, now);
     * for (const e of db.takeEvents()) history.push(e); // {event: "added", …}, {event: "evicted", …}
     * ```
     */
    recordEvents(on: boolean): void;
    /**
     * `db.remeasure({id, metrics})`: folds a new measurement of live program `id` into its
     * metrics (their running mean, with the count in `measurements`) and re-ranks it.
     *
     * ```js
     * const { fitness, measurements } = db.remeasure({ id: best.id, metrics: { score: 0.41 } });
     * ```
     */
    remeasure(request: RemeasureRequest): any;
    /**
     * `Database.replay(events)`: rebuilds a database from its events (the first is `created`).
     *
     * ```js
     * const again = Database.replay(history); // same toJson() as the original
     * ```
     */
    static replay(events: Event[]): Database;
    /**
     * `db.sampleAt(target, now)`: `sample` at time `now` (seconds). A leased plan item whose
     * lease expired unanswered (its worker died) is handed out again in place of a draw: the
     * sample then carries its `planItem` and a new `lease` to answer it with.
     *
     * ```js
     * const s = db.sampleAt(undefined, Date.now() / 1000);
     * if (s.planItem) db.add({ ...candidate, planItem: s.planItem, token: s.lease.token }, now);
     * ```
     */
    sampleAt(target: string | null | undefined, now: number): Sample;
    /**
     * `db.sample(target?)`: `{parent, inspirations}`; `parent` is `null` for an empty database.
     * In a several-target run, `target` keeps every draw within that target's islands.
     *
     * ```js
     * const { parent, inspirations } = db.sample(); // the prompt's program and its examples
     * const forParser = db.sample("parse");
     * ```
     */
    sample(target?: string | null): Sample;
    /**
     * `db.shouldStop(target?)`: `{stop, reason, evaluations, rounds, stagnation, bestFitness}`;
     * with `target`, that target's verdict.
     *
     * ```js
     * while (!db.shouldStop().stop) { const { parent } = db.sample(); db.add(await evolve(parent), now()); }
     * ```
     */
    shouldStop(target?: string | null): StopVerdict;
    /**
     * `db.stats()`: `{programCount, evaluations, bestProgramId, bestFitness, meanFitness,
     * baselineFitness, improvement, islands: [{island, size, bestProgramId, bestFitness, meanFitness}]}`.
     *
     * ```js
     * const { improvement, islands } = db.stats(); // improvement > 0: better than the seed program
     * ```
     */
    stats(): Stats;
    /**
     * `db.takeEvents()`: the events recorded since the last call, oldest first.
     *
     * ```js
     * const added = db.takeEvents().filter((e) => e.event === "added"); // typed by `event`
     * ```
     */
    takeEvents(): Event[];
    /**
     * `db.toJson()`: the whole database as `database.json` text.
     *
     * ```js
     * fs.writeFileSync("database.json", db.toJson()); // the same bytes the native core writes
     * ```
     */
    toJson(): string;
    /**
     * `Database.validate(text)`: every problem found in a `database.json` text (empty: sound).
     *
     * ```js
     * const problems = Database.validate(fs.readFileSync("database.json", "utf8"));
     * ```
     */
    static validate(text: string): string[];
}

/**
 * A saved run, event by event, with the engine's best program after each event.
 *
 * ```js
 * import { Replay } from "evodb";
 * const replay = Replay.open(databaseJson, historyNdjson); // history: null for a seed-written file
 * const events = JSON.parse(replay.eventsJson(0));           // [{event: "created", …}, …]
 * replay.bestAfter(events.length);                           // the run's best id, as `evodb best`
 * replay.append(newLines);                                   // a followed run's next lines
 * ```
 */
export class Replay {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `replay.append(lines)`: a followed run's new `history.ndjson` lines, re-run and added;
     * returns how many events were added (an operation not yet whole waits for its next lines).
     */
    append(lines: string): number;
    /**
     * `replay.bestAfter(k)`: the best program's id once the first `k` events have happened
     * (`undefined` before any program).
     */
    bestAfter(k: number): string | undefined;
    /**
     * `replay.eventsJson(from)`: the events from index `from` on, as one JSON array's text.
     */
    eventsJson(from: number): string;
    /**
     * `Replay.open(databaseJson, historyNdjson?)`: the run `database.json` and its
     * `history.ndjson` record, re-run by the engine; without a history (or one that does not
     * start at the run's creation), the file's programs re-inserted.
     */
    static open(database_json: string, history?: string | null): Replay;
    /**
     * `replay.stats()`: the run's statistics after its last event, as `Database.stats()`
     * (`null` when its programs were re-inserted from the file rather than re-run).
     *
     * ```js
     * const stats = replay.stats();
     * stats?.attribution; // per operator × model × island: candidates, improvements, cost
     * ```
     */
    stats(): Stats | null;
    /**
     * `replay.length`: how many events the run has so far.
     */
    readonly length: number;
    /**
     * `replay.note`: why the events are re-inserted rather than recorded (`undefined`: they are recorded).
     */
    readonly note: string | undefined;
}

/**
 * A synthetic evolution with no LLM: sample → mutate → evaluate → add, from a seed.
 *
 * ```js
 * import { Simulation } from "evodb";
 * const sim = new Simulation({ numIslands: 4 }, 7, { terms: 4, ruggedness: 0.5 });
 * const events = sim.step(100);        // [{event: "created", …}, {event: "added", …}, …]
 * sim.stats().bestFitness;             // same as `evodb demo --seed 7 --iterations 100 …`
 * ```
 */
export class Simulation {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `sim.best()`: the best program, or `null`.
     */
    best(): BestProgram | null;
    /**
     * `new Simulation(config?, seed?, landscape?)`: creates the database and adds the seed
     * program; `landscape` is `{terms: 2–8, ruggedness: 0–1}` (default `{terms: 4, ruggedness: 0}`).
     */
    constructor(config?: Config | null, seed?: number | null, landscape?: Landscape | null);
    /**
     * `sim.stats()`: the database's statistics, as `Database.stats()`.
     */
    stats(): Stats;
    /**
     * `sim.step(n)`: runs `n` iterations and returns the events since the last call.
     */
    step(n: number): Event[];
    /**
     * `sim.toJson()`: the database as `database.json` text (what `evodb demo` writes).
     */
    toJson(): string;
    /**
     * `sim.bestId`: the best program's id (`undefined` before any), without copying its code.
     */
    readonly bestId: string | undefined;
    /**
     * `sim.iteration`: iterations run so far (the seed program is iteration 0).
     */
    readonly iteration: number;
}

/**
 * `addRequestFromFlags(command, flags)`: the add request `seed`'s or `add`'s flags give (files
 * already read), checked with the engine's own rules; throws an `EvodbError` (`usage` for a
 * missing flag, `invalid-input` naming the field otherwise).
 *
 * ```js
 * addRequestFromFlags("seed", { codePath: "a.py", targetCode: "x = 1", metrics: '{"score": 1}' });
 * // { codePath: "a.py", targetCode: "x = 1", parentId: "0", metrics: { score: 1 }, changes: "initial implementation" }
 * ```
 */
export function addRequestFromFlags(command: string, flags: AddFlags): AddRequest;

/**
 * `checkAddFlags(command, given)`: refuses the first flag `seed` or `add` requires that `given`
 * (the flag names on the command line) lacks, in the seed's order, before any file is read.
 * Throws an `EvodbError` with `code` `usage` and the seed's message.
 *
 * ```js
 * checkAddFlags("add", ["codePath", "targetCodeFile", "metrics"]);
 * // throws EvodbError: Missing required flag: --parentId
 * ```
 */
export function checkAddFlags(command: string, given: string[]): void;

/**
 * `checkSeed(seed)`: refuses a PRNG seed (decimal text, any size) above 2^53-1, the most a
 * database keeps exact in every face.
 *
 * ```js
 * checkSeed("9007199254740993"); // throws EvodbError: invalid config: `seed` is 9007199254740993; …
 * ```
 */
export function checkSeed(seed: string): void;

/**
 * `configFromFlags(flags, program)`: the config JSON text `init`'s flags give, for
 * `new Database(JSON.parse(text), seed)` to validate. Throws an `EvodbError` whose `code` is
 * `usage` (a flag's form: exit 2) or `invalid-input` (a value that is not JSON: exit 1).
 *
 * ```js
 * configFromFlags({ scalars: [["numIslands", "4"]], fitness: "primary:score" }, "db-cli.mjs");
 * // '{"numIslands":4,"fitness":{"kind":"primary","metric":"score"}}'
 * ```
 */
export function configFromFlags(flags: ConfigFlags, program: string): string;

/**
 * `embeddingFromFlag(text)`: `--embedding`'s JSON text as the list of numbers it gives; throws
 * an `EvodbError` (`invalid-input`) for text that is no such list.
 *
 * ```js
 * embeddingFromFlag("[0.5, -1]"); // [0.5, -1]
 * ```
 */
export function embeddingFromFlag(text: string): Float64Array;

/**
 * `policyCheck(changedFiles, targetFile, protectedPatterns?)`: `{pass, reason}` — evo-anything's rule
 * that a candidate changes only its target file and no protected one (`benchmark*.py`,
 * `eval*.py`, `*.sh` by default).
 *
 * ```js
 * policyCheck(["model.py", "benchmark.py"], "model.py"); // {pass: false, reason: "Protected file modified: 'benchmark.py'"}
 * ```
 */
export function policyCheck(changedFiles: string[], targetFile: string, protectedPatterns?: string[] | null): PolicyVerdict;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_codesignatures_free: (a: number, b: number) => void;
    readonly __wbg_database_free: (a: number, b: number) => void;
    readonly __wbg_replay_free: (a: number, b: number) => void;
    readonly __wbg_simulation_free: (a: number, b: number) => void;
    readonly addRequestFromFlags: (a: number, b: number, c: number, d: number) => void;
    readonly checkAddFlags: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly checkSeed: (a: number, b: number, c: number) => void;
    readonly codesignatures_add: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => void;
    readonly codesignatures_has: (a: number, b: number, c: number) => number;
    readonly codesignatures_nearDuplicates: (a: number, b: number, c: number, d: number, e: number, f: number) => void;
    readonly codesignatures_new: () => number;
    readonly codesignatures_remove: (a: number, b: number, c: number) => void;
    readonly codesignatures_size: (a: number) => number;
    readonly configFromFlags: (a: number, b: number, c: number, d: number) => void;
    readonly database_add: (a: number, b: number, c: number, d: number) => void;
    readonly database_admit: (a: number, b: number, c: number, d: number, e: number, f: number) => void;
    readonly database_admitEmbedding: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => void;
    readonly database_best: (a: number, b: number, c: number, d: number) => void;
    readonly database_compareHistory: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly database_evoideaExport: (a: number, b: number) => void;
    readonly database_fromJson: (a: number, b: number, c: number) => void;
    readonly database_heartbeat: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => void;
    readonly database_info: (a: number, b: number) => void;
    readonly database_lacksEvodbSection: (a: number) => number;
    readonly database_leases: (a: number, b: number, c: number) => void;
    readonly database_lineage: (a: number, b: number, c: number, d: number) => void;
    readonly database_lineageMermaid: (a: number, b: number) => void;
    readonly database_lineageTree: (a: number, b: number) => void;
    readonly database_loadWarnings: (a: number, b: number) => void;
    readonly database_nearDuplicates: (a: number, b: number) => void;
    readonly database_new: (a: number, b: number, c: number, d: number) => void;
    readonly database_note: (a: number, b: number, c: number) => void;
    readonly database_notes: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => void;
    readonly database_noticeLostSection: (a: number, b: number, c: number) => void;
    readonly database_paretoFront: (a: number, b: number) => void;
    readonly database_plan: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => void;
    readonly database_planAt: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => void;
    readonly database_populationMarkdown: (a: number, b: number) => void;
    readonly database_recordEvents: (a: number, b: number) => void;
    readonly database_remeasure: (a: number, b: number, c: number) => void;
    readonly database_replay: (a: number, b: number) => void;
    readonly database_sample: (a: number, b: number, c: number, d: number) => void;
    readonly database_sampleAt: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly database_shouldStop: (a: number, b: number, c: number, d: number) => void;
    readonly database_stats: (a: number, b: number) => void;
    readonly database_takeEvents: (a: number, b: number) => void;
    readonly database_toJson: (a: number, b: number) => void;
    readonly database_validate: (a: number, b: number, c: number) => void;
    readonly embeddingFromFlag: (a: number, b: number, c: number) => void;
    readonly policyCheck: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => void;
    readonly replay_append: (a: number, b: number, c: number, d: number) => void;
    readonly replay_bestAfter: (a: number, b: number, c: number) => void;
    readonly replay_eventsJson: (a: number, b: number, c: number) => void;
    readonly replay_length: (a: number) => number;
    readonly replay_note: (a: number, b: number) => void;
    readonly replay_open: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly replay_stats: (a: number, b: number) => void;
    readonly simulation_best: (a: number, b: number) => void;
    readonly simulation_bestId: (a: number, b: number) => void;
    readonly simulation_iteration: (a: number) => number;
    readonly simulation_new: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly simulation_stats: (a: number, b: number) => void;
    readonly simulation_step: (a: number, b: number, c: number) => void;
    readonly simulation_toJson: (a: number, b: number) => void;
    readonly __wbindgen_export: (a: number, b: number) => number;
    readonly __wbindgen_export2: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_export3: (a: number, b: number, c: number) => void;
    readonly __wbindgen_export4: (a: number) => void;
    readonly __wbindgen_add_to_stack_pointer: (a: number) => number;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
