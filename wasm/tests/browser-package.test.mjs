// Packaging smoke test in a real browser: the npm package's `web` build, loaded by the example
// page `wasm/examples/browser.html` over http in headless Chromium (Debian's, via playwright-core).
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../../", import.meta.url));
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    try {
      const body = await readFile(root + path);
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("the web build runs the browser example in Chromium", async () => {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/wasm/examples/browser.html`);
    await page.waitForFunction(() => document.title === "evodb: done", null, { timeout: 20000 });
    const { info, stats } = JSON.parse(await page.textContent("#out"));
    assert.deepEqual(errors, []);
    assert.equal(info.lastIteration, 31);
    assert.equal(info.programCount, stats.programCount);
    assert.equal(stats.islands.length, 3);
    assert.ok(stats.improvement > 0, `improvement ${stats.improvement}`);
    console.log(`npm package (web build, chromium): ran the browser example, ${info.programCount} programs`);
  } finally {
    await browser.close();
    server.close();
  }
});
