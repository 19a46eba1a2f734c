// Every export of the npm package, typed: wasm/tests/package.test.mjs compiles this file with
// `tsc --strict` against the packed tarball (Node ESM resolution, so the Node typings), then runs it.
import { CodeSignatures, Database, Replay, Simulation, policyCheck } from "evodb";
import type {
  AddOutcome, AddRequest, BestProgram, Config, Event, Info, Landscape, Lineage, NearDuplicate, Plan, PolicyVerdict,
  Sample, Stats,
  StopVerdict,
} from "evodb";

const config: Config = {
  numIslands: 2, migrationInterval: 5, fitness: { kind: "weighted", weights: { score: 1 } },
  directions: { score: "max" }, features: [{ kind: "codeLines", thresholds: [2, 5] }], stopping: { maxEvaluations: 100 },
};
const defaults = new Database();                         // every parameter is optional
const db = new Database(config, 42);
db.recordEvents(true);

const seed: AddRequest = { codePath: "/src/f.py", targetCode: "def f(): return 1", metrics: { score: 0.5 } };
const first: AddOutcome = db.add(seed, 0);
for (let i = 1; i <= 12; i++) {
  const { parent, inspirations }: Sample = db.sample();
  if (parent === null) throw new Error("a database with a program samples a parent");
  db.add({
    codePath: `/run/iteration_${i}.py`, targetCode: `${parent.targetCode}\n# step ${i}`, parentId: parent.id,
    metrics: { score: parent.metrics.score + i / 100 }, changes: `step ${i} (${inspirations.length} inspirations)`,
    status: i % 5 === 0 ? "rejected" : "accepted", reason: i % 5 === 0 ? "worse on the edge cases" : undefined,
  }, i);
}
const plan: Plan = db.plan(2, [], [1]);
const [item] = plan.items;
const planned: AddOutcome = db.add({
  codePath: "/run/planned.py", targetCode: "def f(): return 2", parentId: item.parentIds[0], metrics: { score: 0.9 },
  planItem: item.name, operator: item.operator,
}, 13);

const best: BestProgram | null = db.best();
const info: Info = db.info();
const stats: Stats = db.stats();
const lineage: Lineage | null = best === null ? null : db.lineage(best.id);
const stop: StopVerdict = db.shouldStop();
// Each step only added a comment to its parent's code: near-duplicates (1) of an earlier program.
const near: NearDuplicate[] = db.nearDuplicates();
const signatures = new CodeSignatures();
signatures.add("x", "def f(): return 1", "/f.py", null);
signatures.add("y", "def f(): return 1  # again", "/f.py", null);
const signed: NearDuplicate[] = signatures.nearDuplicates(["x", "y"], null);
const events: Event[] = db.takeEvents();
const added = events.filter((e) => e.event === "added").map((e) => e.request.codePath);   // narrowed by `event`
const text: string = db.toJson();
const replayed = Database.replay(events);
const problems: string[] = Database.validate(text);
const reloaded = Database.fromJson(text);

const landscape: Landscape = { terms: 3, ruggedness: 0.5 };
const sim = new Simulation({ numIslands: 3 }, 7, landscape);
const simEvents: Event[] = sim.step(20);
const simBest: BestProgram | null = sim.best();
const simStats: Stats = sim.stats();
const simBestId: string | undefined = sim.bestId;
// A saved run as the playground opens it: the engine's events and best after each of them.
const history = events.map((e) => JSON.stringify(e)).join("\n");
const saved = Replay.open(text, history);
const savedEvents: Event[] = JSON.parse(saved.eventsJson(0));
const savedBest: string | undefined = saved.bestAfter(saved.length);
const reinserted = Replay.open(text);
const note: string | undefined = reinserted.note;
const appended: number = saved.append("");
const verdict: PolicyVerdict = policyCheck(["model.py", "benchmark.py"], "model.py");
const custom: PolicyVerdict = policyCheck(["src/model.py"], "src/model.py", ["*.md"]);

console.log(JSON.stringify({
  first: first.lastIteration, planned: planned.lastIteration,
  lastIteration: info.lastIteration, programCount: stats.programCount, islands: stats.islands.length,
  cells: stats.cells?.filled ?? 0, best: best?.metrics.score ?? null, ancestors: lineage?.ancestors.length ?? null,
  stop: stop.stop, added: added.length, replayed: replayed.toJson() === text, reloaded: reloaded.toJson() === text,
  problems: problems.length, tree: db.lineageTree().length > 0, mermaid: db.lineageMermaid().startsWith("graph"),
  markdown: db.populationMarkdown().includes("Population"), defaults: defaults.info().isEmpty,
  simIteration: sim.iteration, simEvents: simEvents.length > 0, simBest: simBest !== null,
  simImproved: (simStats.improvement ?? 0) >= 0, simJson: sim.toJson().length > 0, simBestId: simBestId === simBest?.id,
  replay: [savedEvents.length === events.length, savedBest === best?.id, note !== undefined, saved.note, appended],
  policy: [verdict.pass, verdict.reason, custom.pass],
  near: near.length > 0 && near.every((n) => n.similarity === 1), signed: signed.map((n) => `${n.id}≈${n.of}`),
}));
for (const handle of [defaults, db, replayed, reloaded, sim, saved, reinserted, signatures]) handle.free();
