// A tiny evolution through the npm package, as a Node skill script would run it:
//   wasm/build.sh && node wasm/examples/node.mjs
// (wasm/build.sh runs `npm install`, which links `evodb` to wasm/pkg; wasm/tests/readme.test.mjs runs this.)
import { Database } from "evodb";

const db = new Database({ numIslands: 2 }, 42); // options object (seed defaults for the rest), PRNG seed
const score = (code) => 1 / (1 + Math.abs(code.length - 40)); // stand-in evaluator: prefers 40-char code
db.add({ codePath: "/src/f.py", targetCode: "def f(): return 1", parentId: "0",
         metrics: { score: score("def f(): return 1") }, changes: "initial implementation" }, 0);
for (let i = 1; i <= 20; i++) {
  const { parent, inspirations } = db.sample();
  const child = parent.targetCode + (i % 3 ? " + 1" : " * 2"); // stand-in mutator
  db.add({ codePath: `/run/candidates/iteration_${i}.py`, targetCode: child, parentId: parent.id,
           metrics: { score: score(child) }, changes: `extended ${parent.id.slice(0, 8)} (${inspirations.length} inspirations)` }, i);
}
const { lastIteration, bestMetrics } = db.info();
console.log(JSON.stringify({ lastIteration, bestMetrics, improvement: db.stats().improvement }));
// db.toJson() is database.json text: fs.writeFileSync("database.json", db.toJson())
