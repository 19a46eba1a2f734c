// @ts-check
// Syntax colouring good enough to read a program: comments, strings, numbers and keywords, for
// the languages evolved code is usually written in. Each line is coloured on its own, so a diff
// can colour its lines one by one; a string or comment spanning lines is coloured line by line.

const KEYWORDS = new Set(
  (
    "and as assert async await break case catch class const continue def del do elif else enum except export " +
    "extends false False final finally fn for from func function global if impl import in interface is lambda " +
    "let loop match mod mut new nil None nonlocal not null or pass pub raise return self Self static struct " +
    "super switch this throw trait true True try type typeof use var void where while with yield"
  ).split(" "),
);

/** Comment syntax by the file's extension (Python, shell, Ruby, R, Julia, YAML take `#`). */
const HASH_COMMENTS = /\.(py|pyi|sh|bash|rb|r|jl|pl|toml|ya?ml|nim|ex|exs)$/i;

/**
 * The token pattern for `path`'s language: comment, string, number, word.
 * @param {string} path
 */
function pattern(path) {
  const comment = HASH_COMMENTS.test(path) ? "#.*" : "\\/\\/.*|\\/\\*.*?(?:\\*\\/|$)";
  return new RegExp(
    `(${comment})|("(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?|\`(?:[^\`\\\\]|\\\\.)*\`?)|(\\b\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b)|([A-Za-z_]\\w*)`,
    "g",
  );
}

/**
 * One line of code as DOM nodes: plain text, and `<span class="tok-…">` for what is coloured.
 * @param {string} line
 * @param {string} path the program's code path, for the comment syntax
 * @returns {Node[]}
 */
export function colourLine(line, path) {
  /** @type {Node[]} */
  const nodes = [];
  const re = pattern(path);
  let last = 0;
  for (const match of line.matchAll(re)) {
    const [text, comment, string, number, word] = match;
    const kind = comment ? "com" : string ? "str" : number ? "num" : word && KEYWORDS.has(word) ? "kw" : null;
    if (!kind) continue;
    const at = match.index ?? 0;
    if (at > last) nodes.push(document.createTextNode(line.slice(last, at)));
    const span = document.createElement("span");
    span.className = `tok-${kind}`;
    span.textContent = text;
    nodes.push(span);
    last = at + text.length;
  }
  if (last < line.length) nodes.push(document.createTextNode(line.slice(last)));
  return nodes;
}
