// Reading the documentation's code blocks, so the tests run exactly what the READMEs show.

/** The lines of `text` under `heading` (a whole line), up to the next heading of its level or above. */
export function section(text, heading) {
  const lines = text.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = heading.match(/^#+/)[0].length;
  let fenced = false; // a `#` line inside a code block is not a heading
  const end = lines.findIndex((line, i) => {
    if (line.startsWith("```")) fenced = !fenced;
    return i > start && !fenced && /^#+ /.test(line) && line.match(/^#+/)[0].length <= level;
  });
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** Every fenced block of `text` as `{lang, code}`, in order. */
export function codeBlocks(text) {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, code]) => ({ lang, code }));
}

/** The one `lang` block under `heading`. */
export function codeBlock(text, heading, lang) {
  const blocks = codeBlocks(section(text, heading)).filter((b) => b.lang === lang);
  if (blocks.length !== 1) throw new Error(`expected one ${lang} block under "${heading}", found ${blocks.length}`);
  return blocks[0].code;
}
