// A small gettext .po reader (msgid/msgstr with escapes and multi-line strings), the same
// subset the C++ renderer reads (server/site/src/catalog.cpp).
import { readFileSync } from "node:fs";

function unquote(s, line) {
  s = s.trim();
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) throw new Error(`line ${line}: expected a quoted string`);
  return s.slice(1, -1).replace(/\\(.)/g, (_, c) => {
    const map = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\" };
    if (!(c in map)) throw new Error(`line ${line}: unknown escape \\${c}`);
    return map[c];
  });
}

/** Reads a .po file into { key: string }. The header entry (empty msgid) is skipped. */
export function readPo(file) {
  const out = {};
  let field = null, id = "", str = "";
  const flush = () => { if (id) out[id] = str; id = ""; str = ""; field = null; };
  readFileSync(file, "utf8").split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) { if (field === "str") flush(); return; }
    if (line.startsWith("#")) return;
    if (line.startsWith("msgid ")) { if (field === "str") flush(); field = "id"; id = unquote(line.slice(5), i + 1); }
    else if (line.startsWith("msgstr ")) { field = "str"; str = unquote(line.slice(6), i + 1); }
    else if (line.startsWith('"')) { if (field === "id") id += unquote(line, i + 1); else if (field === "str") str += unquote(line, i + 1); }
    else throw new Error(`${file}:${i + 1}: cannot read`);
  });
  flush();
  return out;
}
