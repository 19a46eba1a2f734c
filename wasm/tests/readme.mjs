// The documentation's section on the WebAssembly faces (docs/embedding.md), read by the tests that
// run its examples.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { codeBlocks, section } from "./markdown.mjs";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const readmeSection = section(readFileSync(`${root}docs/embedding.md`, "utf8"),
  "## Use it from Node, the browser, or any component host").split("\n### ")[0];

/** Every command the section shows (the lines of its `sh` blocks). */
export const readmeCommands = codeBlocks(readmeSection).filter((b) => b.lang === "sh")
  .flatMap((b) => b.code.split("\n")).filter((line) => line.trim() !== "");

/** The one command that starts with `prefix`. */
export function readmeCommand(prefix) {
  const found = readmeCommands.filter((c) => c.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one docs/embedding.md command starting "${prefix}", found ${found.length}`);
  return found[0];
}
