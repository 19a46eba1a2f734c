// The section on the WebAssembly faces (docs/embedding.md), as written: each code block is a
// verbatim excerpt of the example file it names, and every command it shows runs — here, or
// (named below) in tests/run.sh, browser-package.test.mjs or package.test.mjs. A new command
// fails this test until a test runs it.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { codeBlocks } from "./markdown.mjs";
import { readmeCommand, readmeCommands, readmeSection, root } from "./readme.mjs";

const read = (path) => readFileSync(root + path, "utf8");
const lines = (text) => text.split("\n").map((line) => line.trim());

function sh(command) {
  const result = spawnSync("bash", ["-c", command], { cwd: root, encoding: "utf8" });
  assert.equal(result.status, 0, `${command} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

test("each example block is a verbatim excerpt of its example file", () => {
  const examples = codeBlocks(readmeSection).filter((b) => b.lang !== "sh");
  const files = ["wasm/examples/node.mjs", "wasm/examples/browser.html", "wasm/examples/component.py"];
  assert.deepEqual(examples.map((b) => b.lang), ["js", "js", "python"]);
  examples.forEach(({ code }, i) => {
    const excerpt = lines(code.trimEnd()).join("\n");
    assert.ok(lines(read(files[i])).join("\n").includes(excerpt), `docs/embedding.md block ${i + 1} is not in ${files[i]}:\n${code}`);
  });
});

test("every command the section shows is one a test runs", () => {
  assert.deepEqual(readmeCommands, [
    "wasm/build.sh",                                                  // tests/run.sh, first
    "node wasm/examples/node.mjs",                                    // below
    "npm pack ./wasm/pkg",                                            // below; package.test.mjs installs the tarball
    "python3 -m http.server 8000",                                    // browser-package.test.mjs
    "wasm/tests/python/.venv/bin/python wasm/examples/component.py",  // below
    "npx jco transpile wasm/dist/evodb-pure.wasm -o target/jco-example", // below
  ]);
  assert.ok(lines(read("tests/run.sh")).includes("wasm/build.sh"), "tests/run.sh runs wasm/build.sh");
  assert.match(read("wasm/tests/browser-package.test.mjs"), /readmeCommand\("python3 -m http\.server"\)/);
});

test("the Node example runs", () => {
  const out = JSON.parse(sh(readmeCommand("node wasm/examples/node.mjs")));
  assert.equal(out.lastIteration, 21);
  assert.ok(out.improvement > 0, JSON.stringify(out));
});

test("npm pack ./wasm/pkg writes the tarball", () => {
  const tarball = `${root}evodb-0.1.0.tgz`;
  try {
    assert.match(sh(`${readmeCommand("npm pack")} 2>/dev/null`), /^evodb-0\.1\.0\.tgz$/m);
    assert.ok(existsSync(tarball));
  } finally {
    rmSync(tarball, { force: true });
  }
});

test("the Python example runs the pure component", () => {
  const command = readmeCommand("wasm/tests/python/.venv/bin/python");
  assert.ok(existsSync(`${root}wasm/tests/python/.venv/bin/python`), "no venv: tests/run.sh makes it");
  const [first, second] = sh(command).split("\n");
  const { added, parent, lastIteration } = JSON.parse(first);
  assert.equal(parent, added);
  assert.equal(lastIteration, 1);
  assert.match(second, /^\{/);
});

test("the jco command gives an ES module with population.Database.create(configJson, 42n)", async () => {
  const command = readmeCommand("npx jco transpile");
  const out = command.split(" ").at(-1);
  rmSync(root + out, { recursive: true, force: true });
  sh(command);
  const { population } = await import(`${root}${out}/evodb-pure.js`);
  const db = population.Database.create(JSON.stringify({ numIslands: 2 }), 42n);
  assert.equal(db.info().isEmpty, true);
  assert.equal(JSON.parse(db.export("json")).numIslands, 2);
});
