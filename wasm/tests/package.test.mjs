// The npm package as a user gets it: `npm pack wasm/pkg`, the tarball installed into a scratch
// project, the package README's ES-module and CommonJS examples run there, `tsc --strict` over a
// typed example using every export (and over cases that must not compile), then
// @arethetypeswrong/cli and publint on the tarball. Needs wasm/build.sh to have built wasm/pkg/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { codeBlock } from "./markdown.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
const typed = `${root}wasm/tests/typed/`;
const readme = readFileSync(`${root}wasm/README.npm.md`, "utf8");
// The classes are Disposable (`Symbol.dispose`), hence `esnext.disposable`.
const lib = ["--lib", "es2022,dom,esnext.disposable", "--target", "es2022"];
const nodeTs = ["--strict", "--module", "nodenext", "--moduleResolution", "nodenext", ...lib];
const bundlerTs = ["--strict", "--module", "esnext", "--moduleResolution", "bundler", ...lib];

let dir; // the temporary directory: the tarball and the scratch project
let tarball;
let packed; // `npm pack --json`'s record of the tarball

function run(command, args, cwd = dir) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  assert.equal(result.error, undefined, `${command}: ${result.error}`);
  return { status: result.status, out: result.stdout, err: result.stderr, all: result.stdout + result.stderr };
}

function ok(command, args, cwd) {
  const result = run(command, args, cwd);
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.all}`);
  return result.out;
}

before(() => {
  assert.ok(existsSync(`${root}wasm/pkg/package.json`), "wasm/pkg/ is missing: run wasm/build.sh first");
  dir = mkdtempSync(join(tmpdir(), "evodb-pack-"));
  [packed] = JSON.parse(ok("npm", ["pack", `${root}wasm/pkg`, "--json"]));
  tarball = join(dir, packed.filename);
  writeFileSync(join(dir, "package.json"), '{ "name": "scratch", "private": true }\n');
  ok("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", tarball]);
  for (const file of readdirSync(typed)) copyFileSync(typed + file, join(dir, file));
});

after(() => dir && rmSync(dir, { recursive: true, force: true }));

test("the tarball holds one wasm, both glues and their typings, the CLI table, README and licences", () => {
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, ["LICENSE-APACHE", "LICENSE-MIT", "README.md", "cli.json", "evodb.cjs", "evodb.d.cts",
    "evodb.d.ts", "evodb.js", "evodb_bg.wasm", "package.json"]);
  console.log(`npm package: ${packed.filename}, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
});

test("the installed package exports the CLI table as evodb/cli.json", () => {
  writeFileSync(join(dir, "cli.cjs"), 'const cli = require("evodb/cli.json"); console.log(cli.name, cli.commands.some((c) => c.name === "add"));');
  assert.equal(ok("node", ["cli.cjs"]), "evodb true\n");
});

test("the README's ES-module example runs from the installed tarball", () => {
  writeFileSync(join(dir, "esm.mjs"), codeBlock(readme, "## Node (ES module)", "js"));
  assert.equal(ok("node", ["esm.mjs"]), "true 0 1\n");
});

test("the README's CommonJS example runs from the installed tarball", () => {
  writeFileSync(join(dir, "cjs.cjs"), codeBlock(readme, "## Node (CommonJS)", "js"));
  assert.equal(ok("node", ["cjs.cjs"]), "1 false\n");
});

test("tsc --strict accepts the typed examples, and they run", () => {
  writeFileSync(join(dir, "readme.mts"), codeBlock(readme, "## TypeScript", "ts"));
  const files = ["usage.mts", "usage.cts", "readme.mts"];
  ok(bin("tsc"), [...nodeTs, "--noEmit", ...files]);
  ok(bin("tsc"), [...bundlerTs, "--noEmit", "browser.mts"]);
  ok(bin("tsc"), [...nodeTs, "--outDir", "out", ...files]);
  const usage = JSON.parse(ok("node", ["out/usage.mjs"]));
  assert.deepEqual(usage, {
    first: 1, planned: 14, lastIteration: 14, programCount: 14, islands: 2, cells: usage.cells, best: 0.9,
    ancestors: usage.ancestors, stop: false, added: 14, replayed: true, reloaded: true, problems: 0, tree: true,
    mermaid: true, markdown: true, defaults: true, simIteration: 20, simEvents: true, simBest: true, simImproved: true,
    simJson: true, simBestId: true, replay: [true, true, true, null, 0],
    policy: [false, "Protected file modified: 'benchmark.py'", true], near: true, signed: ["y≈x"],
  });
  assert.ok(usage.cells > 0 && usage.ancestors > 0, JSON.stringify(usage));
  assert.match(ok("node", ["out/usage.cjs"]), /^36 1 true$/m);
  assert.match(ok("node", ["out/readme.mjs"]), /^[0-9a-f-]{36} 1 0\.5 false$/m);
});

for (const [file, name, code] of [
  ["misspelt-request.mts", "chnges", "TS2561"],
  ["misspelt-result.mts", "lastIteraton", "TS2551"],
  ["misspelt-config.mts", "numIsland", "TS2561"],
  ["node-has-no-init.mts", "initSync", "TS2305"],
]) {
  test(`tsc --strict rejects ${file}, naming ${name}`, () => {
    const result = run(bin("tsc"), [...nodeTs, "--noEmit", file]);
    assert.notEqual(result.status, 0, `${file} compiled`);
    const errors = result.out.split("\n").filter((line) => line.includes("error TS"));
    assert.equal(errors.length, 1, result.out);
    assert.ok(errors[0].startsWith(`${file}(`) && errors[0].includes(code) && errors[0].includes(`'${name}'`), errors[0]);
  });
}

test("@arethetypeswrong/cli finds no problems in the tarball", () => {
  const out = ok(bin("attw"), [tarball, "--format", "ascii"]);
  assert.match(out, /No problems found/);
  console.log(out.trim());
});

test("publint finds nothing in the tarball", () => {
  const out = ok(bin("publint"), ["run", tarball, "--strict"]);
  assert.match(out, /All good!/);
});
