// Every relative link and #anchor in README.md, python/README.md and docs/*.md resolves: the file or directory
// exists, and an anchor names a heading of its page as GitHub makes the anchor. Prints each broken
// link with its file and line and exits 1; web links are not fetched.
//
//   node tests/links.mjs                 # README.md, python/README.md and docs/*.md
//   node tests/links.mjs a.md b.md       # those files
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The lines of a page outside fenced code blocks, as [lineNumber, text]. */
function prose(text) {
  const out = [];
  let fence = null;
  text.split("\n").forEach((line, i) => {
    const open = line.match(/^\s*(`{3,}|~{3,})/);
    if (open && (fence === null || open[1][0] === fence[0] && open[1].length >= fence.length)) {
      fence = fence === null ? open[1] : null;
      return;
    }
    if (fence === null) out.push([i + 1, line]);
  });
  return out;
}

/** A heading's anchor as GitHub makes it: the rendered text, lower case, punctuation dropped
 * (letters, digits, marks, `_`, `-` and spaces kept), each space a hyphen. */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text
    .replace(/<[^>]+>/g, "") // HTML tags
    .replace(/`/g, "");
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();

/** Every anchor a page offers: its headings' (a repeated one gets -1, -2, …) and HTML ids. */
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const seen = new Map();
  const found = new Set();
  for (const [, line] of prose(readFileSync(file, "utf8"))) {
    const heading = line.match(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id);
  }
  anchorCache.set(file, found);
  return found;
}

/** Every link target on a line, outside `code spans`: inline links, images, reference definitions. */
function targets(line) {
  const text = line.replace(/(`+)[^`]*?\1/g, "");
  const out = [...text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const definition = text.match(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/);
  if (definition) out.push(definition[1]);
  return out;
}

/** Why `target`, linked from `file`, is broken; null when it resolves. */
function problem(file, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not checked here
  const hash = target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === "" ? file : path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
  if (!existsSync(resolved)) return `no file ${relative(root, resolved)}`;
  if (anchor === null || anchor === "") return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
    return /^L\d+(-L\d+)?$/.test(anchor) ? null : `#${anchor} on a file that is not Markdown`;
  }
  return anchors(resolved).has(anchor) ? null : `no heading #${anchor} in ${relative(root, resolved)}`;
}

export function check(files) {
  const broken = [];
  let count = 0;
  for (const file of files) {
    for (const [n, line] of prose(readFileSync(file, "utf8"))) {
      for (const target of targets(line)) {
        count += 1;
        const why = problem(file, target);
        if (why) broken.push(`${relative(root, file)}:${n}: ${target}: ${why}`);
      }
    }
  }
  return { broken, count };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2).map((f) => resolve(f));
  const docs = join(root, "docs");
  const files = given.length > 0 ? given
    : [join(root, "README.md"), join(root, "python", "README.md"), ...readdirSync(docs).filter((f) => f.endsWith(".md")).sort().map((f) => join(docs, f))];
  const { broken, count } = check(files);
  for (const line of broken) console.error(line);
  if (broken.length > 0) {
    console.error(`links: ${broken.length} broken of ${count} in ${files.length} files`);
    process.exit(1);
  }
  console.log(`links: ${count} links in ${files.length} files, all resolve`);
}
