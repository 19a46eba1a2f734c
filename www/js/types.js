// @ts-check
// The playground's shared shapes, for the type checker only (`npm run lint`): the core's own come
// from wasm-bindgen's declarations beside the glue (../pkg/evodb.d.ts). Nothing here runs.

/** @typedef {import("../pkg/evodb.js").Config} Config */
/** @typedef {import("../pkg/evodb.js").Landscape} Landscape */
/** @typedef {import("../pkg/evodb.js").FeatureDim} FeatureDim */
/** @typedef {import("../pkg/evodb.js").Metrics} Metrics */
/** @typedef {import("../pkg/evodb.js").Status} Status */
/** @typedef {import("../pkg/evodb.js").Operator} Operator */
/** @typedef {import("../pkg/evodb.js").Event} CoreEvent */

/**
 * An `added` event; one re-inserted from a saved database.json (sources.js) also says which
 * program it is a migrated copy of.
 * @typedef {Extract<CoreEvent, {event: "added"}> & {migratedFrom?: string | null}} AddedEvent
 */

/**
 * What the model applies: the core's events, as the simulation or a history.ndjson gives them.
 * @typedef {Exclude<CoreEvent, {event: "added"}> | AddedEvent} RunEvent
 */

/**
 * A program as the views show it.
 * @typedef {object} Program
 * @property {string} id
 * @property {number} island
 * @property {number} fitness
 * @property {Status} status
 * @property {number[] | null} cell
 * @property {string} parentId
 * @property {string[]} parents every parent, the first one first (a merged idea or a crossover has two or more)
 * @property {number} generation
 * @property {string} code
 * @property {string} codePath
 * @property {string} changes
 * @property {Metrics} metrics
 * @property {Operator | null} operator
 * @property {number} candidate
 * @property {string | null} migratedFrom
 * @property {string | null} reason why it was rejected or failed (`request.reason`)
 * @property {number} timestamp when it was added (`now`): a fitness tie goes to the later one
 * @property {number} order its place among every program the run added (ties after timestamp)
 * @property {boolean} placed false for an errored candidate, which never joins an island
 */

/**
 * One point of an island's fitness series.
 * @typedef {{x: number, best: number | null, mean: number | null, bestId: string | null}} Point
 */

/**
 * An island's running totals.
 * An island's running totals; `improvedAt` is the count of programs added when the island last
 * held a fitter program than it ever had, `bestEver` that fitness.
 * @typedef {{sum: number, count: number, best: Program | null, improvedAt: number | null, bestEver: number | null}} IslandTotals
 */

/**
 * A line of the event list.
 * @typedef {{kind: string, text: string, at: number, id?: string}} LogEntry
 */

/**
 * The simulation's settings, from the form.
 * @typedef {{seed: number, config: Config, landscape: Landscape}} Settings
 */

/**
 * A program in a saved database.json, as far as the replay reads it.
 * @typedef {object} StoredProgram
 * @property {string} id
 * @property {string} codePath
 * @property {string} targetCode
 * @property {string} parentId
 * @property {Metrics} metrics
 * @property {string} changes
 * @property {number} iterationFound
 * @property {number} timestamp
 * @property {number} [island]
 * @property {Status} [status]
 * @property {number[]} [cell]
 * @property {string} [migratedFrom]
 */

/**
 * A saved database.json, as far as the replay reads it (Database.validate has checked it).
 * @typedef {object} SavedFile
 * @property {Record<string, StoredProgram>} [programs]
 * @property {string[][]} [islands]
 * @property {number} [numIslands]
 * @property {number} [maxIslandSize]
 * @property {number} [migrationInterval]
 * @property {number} [migrationRate]
 * @property {number} [explorationRatio]
 * @property {{config?: Config, seed?: number}} [evodb]
 */

/**
 * A saved run as events, and why it is shown the way it is.
 * @typedef {{events: RunEvent[], note: string | null, replay: import("../pkg/evodb.js").Replay}} SavedRun
 */

export {};
