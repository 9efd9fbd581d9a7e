// Each catalog's glossary: one word for each game term. The comment block at the top of a catalog
// (before `msgid ""`) holds lines
//     # glossary: TERM = WORD; not: OTHER1, OTHER2
// (TERM one of TERMS below, WORD the word this catalog uses for it, OTHER the words it must not use
// for it), and anywhere in the catalog exceptions
//     # glossary-allow: MSGID OTHER -- why the word is right there
// A msgstr's text (its literal parts, without placeholders and ICU syntax) must not contain an OTHER
// as a whole word: case-insensitive, word characters are Unicode letters and digits, combining marks
// (Arabic short vowels) are ignored on both sides, and in Arabic a word also matches after a clitic
// prefix (و ف ب ل ك ال وال بال فال لل). An exception must name a msgid that exists and whose msgstr
// contains the word, so that stale exceptions do not pile up.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "../scripts/po.mjs";

const po = join(dirname(fileURLToPath(import.meta.url)), "..", "po");

export const TERMS = [
  "game", "record", "computer", "swap", "pass", "bear off", "House of Rebirth", "House of Beauty", "House of Water",
  "House of Three Truths", "House of Re-Atoum", "House of Happiness", "square", "piece", "throw", "sticks", "tutorial",
  "beginner", "intermediate", "expert", "ruleset/variant", "rematch", "resign", "claim",
];
/** The catalogs that must have a glossary. */
export const REQUIRED = ["de", "ar", "es", "fr", "nl", "fi", "it", "pl"];
const ARABIC_PREFIXES = ["وال", "بال", "فال", "لل", "ال", "و", "ف", "ب", "ل", "ك"];

const GLOSSARY = /^#\s*glossary:\s*(.*)$/;
const ALLOW = /^#\s*glossary-allow:\s*(.*)$/;
const GLOSSARY_BODY = /^([^=;]+?)\s*=\s*([^;]+?)\s*(?:;\s*not:\s*(.+?))?\s*$/;
const ALLOW_BODY = /^(\S+)\s+(.+?)\s+--\s+(\S.*)$/;

/** Text for matching: NFC, without combining marks, lower case. */
function fold(s) {
  return s.normalize("NFC").replace(/\p{M}/gu, "").toLowerCase();
}
function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
/** A matcher for a forbidden word or phrase as a whole word (Arabic: also after a clitic prefix). */
export function wordMatcher(word, lang) {
  const body = fold(word).trim().split(/\s+/).map(escape).join("\\s+");
  const prefix = lang === "ar" ? `(?:${ARABIC_PREFIXES.join("|")})?` : "";
  return new RegExp(`(?<![\\p{L}\\p{N}])${prefix}${body}(?![\\p{L}\\p{N}])`, "u");
}

/** The words of a message that a reader sees: its literal parts (placeholders and ICU syntax dropped). */
export function visibleText(msg, lang) {
  let ast;
  try {
    ast = new IntlMessageFormat(msg, lang, undefined, { ignoreTag: true }).getAst();
  } catch {
    return msg;  // bad syntax is reported by messages.test.mjs; match the raw text here
  }
  const parts = [];
  const walk = (els) => {
    for (const el of els) {
      if (el.type === 0) parts.push(el.value);
      if (el.options) for (const opt of Object.values(el.options)) walk(opt.value);
      if (el.children) walk(el.children);
    }
  };
  walk(ast);
  return parts.join(" ");
}

export function contains(msg, word, lang) {
  return wordMatcher(word, lang).test(fold(visibleText(msg, lang)));
}

/**
 * Reads the glossary of a catalog from its text: glossary lines in the comment block before `msgid ""`,
 * exception lines anywhere. Returns { terms: [{ term, word, not, line }], allows: [{ msgid, word, reason, line }],
 * errors: [string] }.
 */
export function parseGlossary(text) {
  const terms = [], allows = [], errors = [];
  let top = true;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim(), n = i + 1;
    if (line.startsWith("msgid ")) top = false;
    if (!line.startsWith("#")) return;
    let m;
    if ((m = ALLOW.exec(line))) {
      const a = ALLOW_BODY.exec(m[1]);
      if (!a) errors.push(`line ${n}: malformed exception (want "# glossary-allow: MSGID OTHER -- reason"): ${line}`);
      else allows.push({ msgid: a[1], word: a[2], reason: a[3], line: n });
    } else if ((m = GLOSSARY.exec(line))) {
      if (!top) { errors.push(`line ${n}: glossary line after the top comment block: ${line}`); return; }
      const g = GLOSSARY_BODY.exec(m[1]);
      if (!g) { errors.push(`line ${n}: malformed glossary line (want "# glossary: TERM = WORD; not: OTHER1, OTHER2"): ${line}`); return; }
      const [, term, word, list] = g;
      const not = list === undefined ? [] : list.split(",").map((w) => w.trim());
      if (!TERMS.includes(term)) errors.push(`line ${n}: unknown term "${term}" (one of: ${TERMS.join(", ")})`);
      else if (terms.some((t) => t.term === term)) errors.push(`line ${n}: term "${term}" appears twice`);
      if (not.some((w) => !w)) errors.push(`line ${n}: empty word in the "not:" list: ${line}`);
      terms.push({ term, word, not: not.filter(Boolean), line: n });
    } else if (/^#\s*glossar/i.test(line) && /=|\bnot:| -- /.test(line)) {
      errors.push(`line ${n}: looks like a glossary line but is neither "# glossary:" nor "# glossary-allow:": ${line}`);
    }
  });
  return { terms, allows, errors };
}

/**
 * Checks a catalog ({ msgid: msgstr }) against its glossary (parseGlossary of its text). Returns the
 * problems, one a line: "CATALOG: MSGID: ..." .
 */
export function checkGlossary(lang, glossary, table) {
  const problems = glossary.errors.map((e) => `${lang}.po: ${e}`);
  const forbidden = [];  // { term, word }
  for (const t of glossary.terms) {
    for (const w of t.not) {
      if (contains(t.word, w, lang)) problems.push(`${lang}.po: line ${t.line}: "${t.term}" forbids "${w}", which is part of its own word "${t.word}"`);
      forbidden.push({ term: t.term, word: w });
    }
  }
  const allowed = new Set();
  for (const a of glossary.allows) {
    const key = `${a.msgid}\u0000${fold(a.word)}`;
    if (!forbidden.some((f) => fold(f.word) === fold(a.word))) problems.push(`${lang}.po: line ${a.line}: exception for "${a.word}", which no glossary line forbids`);
    else if (!(a.msgid in table)) problems.push(`${lang}.po: line ${a.line}: exception for msgid ${a.msgid}, which does not exist`);
    else if (!contains(table[a.msgid], a.word, lang)) problems.push(`${lang}.po: line ${a.line}: stale exception: ${a.msgid} does not contain "${a.word}"`);
    if (allowed.has(key)) problems.push(`${lang}.po: line ${a.line}: exception for ${a.msgid} "${a.word}" appears twice`);
    allowed.add(key);
  }
  for (const [msgid, msgstr] of Object.entries(table)) {
    for (const f of forbidden) {
      if (allowed.has(`${msgid}\u0000${fold(f.word)}`)) continue;
      if (contains(msgstr, f.word, lang)) problems.push(`${lang}.po: ${msgid}: forbidden word "${f.word}" (term "${f.term}"): ${msgstr}`);
    }
  }
  return problems;
}

// --- the test of the test: small catalogs in memory ---

const HEADER = (lines) => [`# A test catalog.`, ...lines, `msgid ""`, `msgstr ""`, ``].join("\n");

test("a forbidden word is flagged, with catalog, msgid, word and term", () => {
  const g = parseGlossary(HEADER(["# glossary: game = Partie; not: Spiel, Spiels"]));
  assert.deepEqual(g.errors, []);
  const problems = checkGlossary("de", g, { "a.one": "Neue Partie", "a.two": "Das Spiel ist aus.", "a.three": "Spiels Ende" });
  assert.equal(problems.length, 2);
  assert.match(problems[0], /^de\.po: a\.two: forbidden word "Spiel" \(term "game"\)/);
  assert.match(problems[1], /^de\.po: a\.three: forbidden word "Spiels"/);
});

test("matching is case-insensitive, on whole words, and ignores placeholders and ICU syntax", () => {
  const g = parseGlossary(HEADER(["# glossary: game = Partie; not: Spiel", "# glossary: piece = Stein; not: Figur, other"]));
  const problems = checkGlossary("de", g, {
    "w.inside": "Spielregeln und Beispiel",                   // Spiel inside another word: not flagged
    "w.case": "SPIEL vorbei",                                   // flagged
    "w.icu": "{n, plural, one {# Stein} other {# Steine}}",     // the ICU keyword "other" is not text
    "w.arg": "{Figur}",                                         // a placeholder is not text (not flagged)
    "w.plural": "{n, plural, one {eine Figur} other {# Figuren}}", // flagged inside a plural branch
  });
  assert.deepEqual(problems.map((p) => p.split(":")[1].trim()), ["w.case", "w.plural"]);
});

test("an exception lets a forbidden word through, and a stale or unknown exception fails", () => {
  const text = HEADER(["# glossary: game = Partie; not: Spiel"]) +
    "# glossary-allow: a.rules Spiel -- the board game in general, not one game\n" +
    "# glossary-allow: a.gone Spiel -- no such key\n" +
    "# glossary-allow: a.clean Spiel -- no longer there\n" +
    "# glossary-allow: a.rules Brett -- not forbidden\n";
  const problems = checkGlossary("de", parseGlossary(text), { "a.rules": "Das Spiel Senet", "a.clean": "Eine Partie" });
  assert.equal(problems.length, 3);
  assert.match(problems[0], /a\.gone, which does not exist/);
  assert.match(problems[1], /stale exception: a\.clean does not contain "Spiel"/);
  assert.match(problems[2], /"Brett", which no glossary line forbids/);
  assert.deepEqual(checkGlossary("de", parseGlossary(HEADER(["# glossary: game = Partie; not: Spiel"]) +
    "# glossary-allow: a.rules Spiel -- in general\n"), { "a.rules": "Das Spiel Senet" }), []);
});

test("Arabic: a forbidden word matches after a clitic prefix and with short vowels, not inside another word", () => {
  const g = parseGlossary(HEADER(["# glossary: pass = تخطي الدور; not: تمرير, تمرّر"]));
  assert.deepEqual(g.errors, []);
  const problems = checkGlossary("ar", g, {
    "p.plain": "تمرير",
    "p.waw": "وتمرير الدور",           // و + word
    "p.bal": "بالتمرير",               // بال + word
    "p.vowels": "تَمْرِير",              // short vowels do not hide the word
    "p.shadda": "تمرر",                 // the forbidden spelling has a shadda; ignored on both sides
    "p.inside": "استمرير",              // not a prefix of the list: a word inside another word
    "p.suffix": "تمريرات",              // a longer word: not flagged
    "p.ok": "تخطي الدور",
  });
  assert.deepEqual(problems.map((p) => p.split(":")[1].trim()), ["p.plain", "p.waw", "p.bal", "p.vowels", "p.shadda"]);
  // the prefixes are Arabic only
  assert.equal(contains("وSpiel", "Spiel", "de"), false);
});

test("malformed glossary lines fail", () => {
  const g = parseGlossary(HEADER([
    "# glossary: game Partie",                     // no "="
    "# glossary: board = Brett; not: Spielbrett",  // not a term of the list
    "# glossary: piece = Stein; not: Figur,",      // empty word
    "# glossary: square = Feld; not: Feld",        // forbids its own word
    "# glossary: square = Feld",                   // twice
    "# glossaries: game = Partie",                 // neither kind of line
    "# Glossary of the game terms below.",         // a comment, not a glossary line: no problem
    "# glossary-allow: a.b",                       // exception without a word and reason
  ]) + "# glossary: throw = Wurf; not: Zug\n");      // below the top block
  const problems = checkGlossary("de", g, {});
  assert.equal(problems.length, 8, problems.join("\n"));
  for (const [i, re] of [/malformed glossary line/, /unknown term "board"/, /empty word/, /term "square" appears twice/,
    /looks like a glossary line/, /malformed exception/, /after the top comment block/, /forbids "Feld", which is part of its own word/].entries()) {
    assert.match(problems[i], re);
  }
});

// --- the catalogs ---

const catalogs = readdirSync(po).filter((f) => f.endsWith(".po")).map((f) => f.slice(0, -3)).sort();

test("each of de, ar, es, fr, nl, fi, it, pl has a glossary", () => {
  const missing = REQUIRED.filter((lang) => !catalogs.includes(lang) || parseGlossary(readFileSync(join(po, `${lang}.po`), "utf8")).terms.length === 0);
  assert.deepEqual(missing, [], `no glossary lines at the top of: ${missing.map((l) => `${l}.po`).join(", ")}`);
});

for (const lang of catalogs) {
  const text = readFileSync(join(po, `${lang}.po`), "utf8");
  const glossary = parseGlossary(text);
  if (glossary.terms.length === 0 && glossary.allows.length === 0 && glossary.errors.length === 0) continue;
  test(`${lang}.po follows its glossary`, () => {
    const problems = checkGlossary(lang, glossary, readPo(join(po, `${lang}.po`)));
    assert.deepEqual(problems, [], `${problems.length} glossary problem(s):\n${problems.join("\n")}`);
  });
}
