// What the playground's Chromium tests share: Debian's chromium (driven by playwright-core), the
// real `evodb view` serving the page, `evodb demo` runs to look at, and the page's own report of
// what it shows (`document.body.dataset`). Screenshots go to target/www-screenshots/.
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const evodb = `${root}target/release/evodb`;
export const shots = `${root}target/www-screenshots`;

/** A scratch directory under target/ for one test file. @param {string} name */
export function workDir(name) {
  const dir = `${root}target/www-test/${name}`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A headless Chromium (with `extraArgs` on its command line), and the `evodb view` servers
 * started for it; `close()` ends them all.
 * @param {string[]} [extraArgs]
 */
export async function launch(extraArgs = []) {
  mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", ...extraArgs],
  });
  const servers = [];
  return {
    browser,
    /** Starts `evodb view [db] --port 0` and resolves to the URL it prints. */
    view(db) {
      const child = spawn(evodb, ["view", ...(db ? [db] : []), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
      servers.push(child);
      return new Promise((resolve, reject) => {
        child.stdout.once("data", (chunk) => resolve(chunk.toString().split("\n")[0].trim()));
        child.once("exit", (code) => reject(new Error(`evodb view exited with ${code}`)));
      });
    },
    /** Opens `url` and waits for `data-ready`; collects console errors and page errors. */
    async open(url, viewport = { width: 1366, height: 900 }) {
      const page = await browser.newPage({ viewport });
      const errors = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("pageerror", (e) => errors.push(e.stack ?? e.message));
      await page.goto(url);
      await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
      return { page, errors };
    },
    async close() {
      for (const server of servers) server.kill();
      await browser.close();
    },
  };
}

/** What the page reports it shows. */
export const data = (page) => page.evaluate(() => ({ ...document.body.dataset }));

/**
 * `evodb demo` into `out`: the database (with its history) at `out/database`, and its stats.
 * @param {string} out
 * @param {{seed: number, steps: number, config: object, landscape: object}} run
 */
export function demo(out, { seed, steps, config, landscape }) {
  execFileSync(evodb, ["demo", "--seed", String(seed), "--iterations", String(steps), "--out", out,
    "--config", JSON.stringify(config), "--landscape", JSON.stringify(landscape)], { stdio: "ignore" });
  const stats = JSON.parse(execFileSync(evodb, ["stats", `${out}/database`]).toString());
  return { stats, dir: `${out}/database` };
}

/**
 * A test file's browser: Chromium launched before its tests (with `extraArgs`) and closed after,
 * and, with a `name`, a scratch directory emptied first. `view` and `open` are `launch()`'s.
 * @param {string} [name]
 * @param {string[]} [extraArgs]
 */
export function browserSuite(name, extraArgs = []) {
  const work = name ? workDir(name) : "";
  /** @type {Awaited<ReturnType<typeof launch>> | undefined} */
  let launched;
  before(async () => {
    if (work) rmSync(work, { recursive: true, force: true });
    launched = await launch(extraArgs);
  });
  after(async () => {
    await launched?.close();
  });
  return {
    work,
    /** @param {string} [db] */
    view: (db) => /** @type {NonNullable<typeof launched>} */ (launched).view(db),
    /** @param {string} url @param {{width: number, height: number}} [viewport] */
    open: (url, viewport) => /** @type {NonNullable<typeof launched>} */ (launched).open(url, viewport),
  };
}

/**
 * The page's frames per second over `ms` milliseconds (for printing: speed is a bench's, not a
 * test's, to judge).
 * @param {import("playwright-core").Page} page
 * @param {number} ms
 */
export function framesPerSecond(page, ms) {
  return page.evaluate(
    (span) =>
      new Promise((resolve) => {
        let frames = 0;
        const start = performance.now();
        const tick = () => {
          frames += 1;
          const elapsed = performance.now() - start;
          if (elapsed < span) globalThis.requestAnimationFrame(tick);
          else resolve((frames * 1000) / elapsed);
        };
        globalThis.requestAnimationFrame(tick);
      }),
    ms,
  );
}
