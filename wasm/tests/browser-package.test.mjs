// The npm package's web build in a real browser (Debian's Chromium, via playwright-core): the
// README's browser example served exactly as the README says (its `python3 -m http.server`
// command, on a free port), and the package README's browser snippet against wasm/pkg/.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { extname, normalize } from "node:path";
import { chromium } from "playwright-core";
import { codeBlock } from "./markdown.mjs";
import { readmeCommand, root } from "./readme.mjs";

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

async function withPage(url, check) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => document.title.startsWith("evodb: done"), null, { timeout: 20000 });
    assert.deepEqual(errors, []);
    await check(page);
  } finally {
    await browser.close();
  }
}

function listen(server, port = 0) {
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server.address().port)));
}

async function freePort() {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The README's command, with its port swapped for a free one and bound to loopback.
async function serveLikeTheReadme() {
  const [command, ...args] = readmeCommand("python3 -m http.server").split(" ");
  assert.deepEqual(args, ["-m", "http.server", "8000"], "the README's serve command changed");
  const port = await freePort();
  const server = spawn(command, ["-m", "http.server", String(port), "--bind", "127.0.0.1"],
    { cwd: root, stdio: "ignore" });
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { server, port };
    } catch (e) {
      if (tries > 100 || server.exitCode !== null) throw new Error(`python3 -m http.server did not start: ${e}`, { cause: e });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

test("the README's browser example runs in Chromium, served by the README's command", async () => {
  const { server, port } = await serveLikeTheReadme();
  try {
    await withPage(`http://127.0.0.1:${port}/wasm/examples/browser.html`, async (page) => {
      const { info, stats } = JSON.parse(await page.textContent("#out"));
      assert.equal(info.lastIteration, 31);
      assert.equal(info.programCount, stats.programCount);
      assert.equal(stats.islands.length, 3);
      assert.ok(stats.improvement > 0, `improvement ${stats.improvement}`);
      console.log(`npm package (web build, chromium): ran the browser example, ${info.programCount} programs`);
    });
  } finally {
    server.kill();
  }
});

test("the package README's browser snippet runs in Chromium against wasm/pkg/", async () => {
  const snippet = codeBlock(readFileSync(`${root}wasm/README.npm.md`, "utf8"), "## Browser", "js");
  // A page that maps the bare specifier to the package's web glue, as an import map or bundler would.
  const page = `<!doctype html><meta charset="utf-8"><title>loading</title>
<script type="importmap">{ "imports": { "evodb": "/wasm/pkg/evodb.js" } }</script>
<script type="module">
${snippet}
db.add({ codePath: "/src/f.py", targetCode: "x", metrics: { score: 0.5 } }, 0);
document.title = "evodb: done " + db.info().programCount;
</script>`;
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    if (path === "/snippet.html") return res.writeHead(200, { "content-type": "text/html" }).end(page);
    try {
      const body = await readFile(root + path);
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const port = await listen(server);
  try {
    await withPage(`http://127.0.0.1:${port}/snippet.html`, async (p) => {
      assert.equal(await p.title(), "evodb: done 1");
    });
  } finally {
    server.close();
  }
});
