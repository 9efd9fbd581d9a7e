// The site's display typeface for headings, built from Debian's font packages (scripts/setup.sh):
// Cardo Bold for the Latin languages, Amiri Bold for Arabic, both under the SIL Open Font
// License 1.1 (redistribution allowed). Each is subset to the letters the catalogs use (and
// ASCII), without hinting, as woff2, by fontTools' subsetter. site.css names them with a
// unicode-range each, so a page downloads only the file its language's letters need.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readPo } from "./po.mjs";

/** The two faces: the source font, the characters it is cut to, the OpenType features kept. */
const FACES = {
  "display-latin.woff2": {
    source: "/usr/share/fonts/truetype/cardo/Cardob101.ttf",
    keep: (code) => code < 0x0600 || (code >= 0x2000 && code < 0x2070) || code === 0x20ac,
    extra: " –—‘’“”„…·•→",
    features: "kern,liga",
  },
  // Basic Arabic shaping only (the joining forms, lam-alef, the marks): Amiri's contextual
  // alternates would quadruple the file (37 KB instead of 10 KB).
  "display-arabic.woff2": {
    source: "/usr/share/fonts/opentype/fonts-hosny-amiri/Amiri-Bold.ttf",
    keep: (code) => (code >= 0x0600 && code < 0x0700) || (code >= 0xfb50 && code < 0xff00),
    extra: "،؛؟",
    features: "init,medi,fina,isol,rlig,mark,mkmk,kern",
  },
};

/** The ways fontTools' subsetter may be installed: its own command, or the module of Debian's python3. */
const SUBSETTERS = [["pyftsubset", []], ["/usr/bin/python3", ["-m", "fontTools.subset"]], ["python3", ["-m", "fontTools.subset"]]];

function subset(args) {
  for (const [cmd, pre] of SUBSETTERS) {
    try {
      execFileSync(cmd, [...pre, ...args], { stdio: ["ignore", "ignore", "pipe"] });
      return;
    } catch (err) {
      if (err.code !== "ENOENT" && !/No module named/.test(String(err.stderr))) throw err;
    }
  }
  throw new Error("fontTools is missing: install python3-fonttools and python3-brotli (scripts/setup.sh)");
}

/** Builds the subset faces; returns { logical name: woff2 bytes }. */
export function buildFonts(web) {
  const text = readdirSync(join(web, "po")).filter((f) => f.endsWith(".po"))
    .map((f) => Object.values(readPo(join(web, "po", f))).join("")).join("");
  const ascii = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)).join("");
  const work = mkdtempSync(join(tmpdir(), "senet-fonts-"));
  const out = {};
  try {
    for (const [name, face] of Object.entries(FACES)) {
      if (!existsSync(face.source)) throw new Error(`${face.source} is missing: install fonts-cardo and fonts-hosny-amiri (scripts/setup.sh)`);
      const chars = new Set([...text, ...face.extra].filter((c) => face.keep(c.codePointAt(0) ?? 0)));
      if (name.includes("latin")) for (const c of ascii) chars.add(c);
      const list = join(work, `${name}.txt`), file = join(work, name);
      writeFileSync(list, [...chars].sort().join(""));
      subset([face.source, `--text-file=${list}`, "--flavor=woff2", "--no-hinting", `--layout-features=${face.features}`,
        "--name-IDs=0,1,2,13,14", "--name-legacy", `--output-file=${file}`]);
      out[name] = readFileSync(file);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}
