// The skill runs wherever it lands, with Node alone: a plain copy of skill/ from git
// (`git archive HEAD skill`) and the copy `evodb skill install` writes from inside the binary.
// In each, scripts/db-cli.mjs seeds, samples and adds from another working directory with a
// PATH holding only node (no evodb, no build tools), and answers exactly as the native evodb does.
//
//   node --test skill/tests/install.test.mjs
import test, { after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EVODB = process.env.EVODB_BIN ?? path.join(root, "target/release/evodb");
if (!fs.existsSync(EVODB) && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh builds ${EVODB}, but it is missing`);
const noNative = !fs.existsSync(EVODB) && `native evodb not built at ${EVODB}`;

/** Temp directories of this file's tests, removed when they are done. */
const scratches = [];
const scratch = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evodb-skill-install-"));
  scratches.push(dir);
  return dir;
};
after(() => scratches.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** Every file under dir, relative path → bytes. */
function tree(dir) {
  const files = new Map();
  const walk = (sub) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else files.set(rel, fs.readFileSync(path.join(dir, rel)));
    }
  };
  walk("");
  return files;
}

/** The steps of one loop through a CLI: `run(args)` → parsed stdout. */
function loop(run, db) {
  const seed = run(["seed", db, "--codePath", "f.py", "--targetCode", "def f(): return 1", "--metrics", '{"score": 0.2}']);
  const sample = run(["sample", db]);
  assert.equal(sample.parent.id, seed.id);
  const added = run(["add", db, "--codePath", "f.py", "--targetCode", "def f(): return 2", "--parentId", sample.parent.id,
    "--metrics", '{"score": 0.9}', "--changes", "return 2"]);
  const worse = run(["add", db, "--codePath", "f.py", "--targetCode", "def f(): return 0", "--parentId", seed.id,
    "--metrics", '{"score": 0.1}', "--changes", "return 0"]);
  const best = run(["best", db]);
  assert.equal(best.id, added.id, "the best is the 0.9 candidate");
  assert.notEqual(best.id, worse.id);
  return { seed, sample, added, best };
}

/** node <skill>/scripts/db-cli.mjs with node alone on PATH, from an unrelated directory. */
function nodeDropIn(skillDir, cwd) {
  const env = { PATH: path.dirname(process.execPath), HOME: cwd };
  return (args) => {
    const r = spawnSync(process.execPath, [path.join(skillDir, "scripts/db-cli.mjs"), ...args], { cwd, env, encoding: "utf8" });
    assert.equal(r.status, 0, `db-cli.mjs ${args.join(" ")}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
}

function gitArchiveCopy() {
  const dir = scratch();
  const archive = execFileSync("git", ["-C", root, "archive", "HEAD", "skill"], { maxBuffer: 64 << 20 });
  execFileSync("tar", ["x", "-C", dir], { input: archive });
  return path.join(dir, "skill");
}

test("a plain copy of skill/ from git runs on Node alone", () => {
  const skill = gitArchiveCopy();
  assert.ok(fs.existsSync(path.join(skill, "scripts/evodb-wasm/evodb_bg.wasm")), "the engine is committed with the skill");
  const cwd = scratch();
  loop(nodeDropIn(skill, cwd), path.join(cwd, "db"));
});

test("evodb skill install writes the same skill, which runs on Node alone and answers like evodb", { skip: noNative }, () => {
  const target = path.join(scratch(), ".claude/skills/evodb-evolve");
  const out = JSON.parse(execFileSync(EVODB, ["skill", "install", target], { encoding: "utf8" }));
  assert.equal(out.installed, target);

  // The installed files are git's skill/ without its tests, byte for byte.
  const fromGit = tree(gitArchiveCopy());
  for (const rel of [...fromGit.keys()]) if (rel.startsWith("tests/")) fromGit.delete(rel);
  const installed = tree(target);
  assert.deepEqual([...installed.keys()].sort(), [...fromGit.keys()].sort());
  for (const [rel, bytes] of fromGit) assert.ok(bytes.equals(installed.get(rel)), `${rel} differs`);
  assert.equal(out.files, installed.size);

  const cwd = scratch();
  const viaNode = loop(nodeDropIn(target, cwd), path.join(cwd, "node-db"));
  const viaNative = loop((args) => JSON.parse(execFileSync(EVODB, args, { encoding: "utf8" })), path.join(cwd, "native-db"));
  assert.deepEqual(viaNode, viaNative, "the Node drop-in and evodb give the same answers");
});

test("evodb skill install refuses a non-empty directory without --force, and never writes through a symlink", { skip: noNative }, () => {
  const dir = scratch();
  fs.writeFileSync(path.join(dir, "mine.txt"), "keep me");
  const refused = spawnSync(EVODB, ["skill", "install", dir], { encoding: "utf8" });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /not empty; pass --force/);
  assert.deepEqual(fs.readdirSync(dir), ["mine.txt"]);

  // A symlinked file is replaced by a real file; the link's target is untouched.
  const outside = path.join(scratch(), "outside.md");
  fs.writeFileSync(outside, "outside");
  fs.symlinkSync(outside, path.join(dir, "SKILL.md"));
  execFileSync(EVODB, ["skill", "install", dir, "--force"]);
  assert.equal(fs.readFileSync(outside, "utf8"), "outside");
  assert.ok(!fs.lstatSync(path.join(dir, "SKILL.md")).isSymbolicLink());
  assert.equal(fs.readFileSync(path.join(dir, "mine.txt"), "utf8"), "keep me");

  // A symlinked directory inside the skill is refused, and nothing is written through it.
  const elsewhere = scratch();
  const linked = scratch();
  fs.symlinkSync(elsewhere, path.join(linked, "scripts"));
  const viaLink = spawnSync(EVODB, ["skill", "install", linked, "--force"], { encoding: "utf8" });
  assert.equal(viaLink.status, 5);
  assert.match(viaLink.stderr, /is a symbolic link/);
  assert.deepEqual(fs.readdirSync(elsewhere), []);
});
