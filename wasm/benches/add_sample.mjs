// The npm face's speed check: the workload of core/benches/workload.rs (`database_of`) through
// the built package (wasm/pkg, from wasm/build.sh), one JSON line per population size with the
// cost of one `add` followed by one `sample` at steady state, request building included.
//
//   node wasm/benches/add_sample.mjs [120 10000 …]
//
// Compare with the core's `cargo run --release -p evodb-core --example bench -- 120 10000`.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const { Database } = createRequire(import.meta.url)("../pkg/evodb.cjs");

const OPS = 20_000; // as the core's example

// The core's `request(i, parent)`. Exact while i * 2654435761 < 2^53 (i < 3.3 million).
function request(i, parentId) {
  const score = ((i * 2654435761) % 10_000) / 10_000;
  return {
    codePath: `/run/candidates/iteration_${i}.py`,
    targetCode: `def f(x):\n${"    x += 1\n".repeat(i % 5)}    return x * ${i}\n`,
    parentId,
    metrics: { score, speed: 1 - score },
    changes: "mutated",
  };
}

// The seed's layout (3 islands) with capacity grown so the islands hold `population` programs.
function databaseOf(population) {
  const db = new Database({ maxIslandSize: Math.ceil(population / 3) }, 1);
  for (let i = 0; i < population; i++) db.add(request(i, "0"), i);
  return db;
}

const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
for (const population of sizes.length ? sizes : [120, 10_000]) {
  const db = databaseOf(population);
  let parent = "0";
  const start = performance.now();
  for (let i = 0; i < OPS; i++) {
    db.add(request(population + i, parent), population + i);
    parent = db.sample().parent?.id ?? "";
  }
  const micros = ((performance.now() - start) * 1000) / OPS;
  db.free();
  console.log(JSON.stringify({ face: "npm", population, add_sample_us: Number(micros.toFixed(3)) }));
}
