// The web build: bundles the TypeScript (esbuild), minifies the stylesheet, turns the .po
// catalogs into JSON for the browser, fingerprints everything into dist/ and writes
// dist/manifest.json (logical name → URL under /static/) for the C++ renderer.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "./po.mjs";
import { compressDir } from "./compress.mjs";
import { CLIENT_PREFIXES, PAGE_STRINGS, pageStringsFile, pick } from "./page-strings.mjs";
import { buildFonts } from "./fonts.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, "i18n"), { recursive: true });
const manifest = {};

function emit(logical, ext, contents) {
  const hash = createHash("sha256").update(contents).digest("hex").slice(0, 10);
  const base = logical.replace(/\.[a-z0-9]+$/, "");
  const file = `${base}-${hash}.${ext}`;
  writeFileSync(join(dist, file), contents);
  manifest[logical] = `/static/${file}`;
  return contents;
}

const sizes = {};
// The engine in the browser (scripts/build-wasm.sh, a no-op when up to date), fingerprinted like
// the rest; its URL reaches the wrapper (src/engine/wasm.ts) as SENET_ENGINE_WASM_URL. Only the
// pages that import the wrapper load it: the play page must not (checked below).
execFileSync(join(web, "..", "scripts", "build-wasm.sh"), { stdio: "inherit" });
sizes["engine.wasm"] = emit("engine.wasm", "wasm", readFileSync(join(web, "..", "build-wasm", "engine.wasm")));
// Precompressed beside it: the server sends the .gz to browsers that accept gzip.
writeFileSync(join(dist, manifest["engine.wasm"].slice("/static/".length) + ".gz"), gzipSync(sizes["engine.wasm"], { level: 9 }));
const define = { SENET_ENGINE_WASM_URL: JSON.stringify(manifest["engine.wasm"]) };
/** Whether a bundle file refers to the engine (its URL or the wrapper's calls into it). */
const usesEngine = (contents) => {
  const text = Buffer.from(contents).toString("utf8");
  return text.includes(manifest["engine.wasm"]) || text.includes("senet_result_ptr");
};
// Code splitting: what a page loads only on demand (the play page's QR code) goes into a chunk of
// its own, fetched by a dynamic import; esbuild names every file by its content's hash. The
// content and error pages load only "site" (the header's language menu). Each page's entry is
// src/PAGE/PAGE.ts; esbuild names its bundle after the file, so the manifest says "PAGE.js".
// "boot" is not a page: the play page's first script, run before play.js (src/boot/boot.ts).
for (const entry of ["play", "home", "site", "replay", "learn", "boot"]) {
  // boot is a classic script (one function, no module), put into the play page's head by the
  // server: it runs as the head is parsed, before any request of the page; an async module script
  // ran only after the stylesheet and often after the first paint (its socket opened 300-500 ms
  // later on the first-load benchmark's phone), and a script of its own file ran only once that
  // file had come (its socket a further 400 ms later).
  const classic = entry === "boot";
  const out = await esbuild.build({
    entryPoints: [join(web, "src", entry, `${entry}.ts`)], outdir: dist, splitting: !classic,
    entryNames: "[name]-[hash]", chunkNames: "chunk-[hash]",
    bundle: true, minify: true, format: classic ? "iife" : "esm", target: "es2022", write: false, legalComments: "none", define,
  });
  // A player's page must not load the engine: play.js and every chunk it imports statically.
  // Spectators get their win-probability bar from a chunk play.js imports dynamically (play/spectate.ts).
  if (entry === "play") {
    const byName = new Map(out.outputFiles.map((f) => [f.path.slice(dist.length + 1), f]));
    const queue = [...byName.keys()].filter((n) => n.startsWith("play-"));
    for (const seen = new Set(queue); queue.length;) {
      const file = byName.get(queue.shift());
      if (usesEngine(file.contents))
        throw new Error("the play page's bundle refers to the WebAssembly engine: only the learn and replay pages (and the spectators' chunk) may load it");
      for (const [, name] of Buffer.from(file.contents).toString("utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
        if (!seen.has(name)) { seen.add(name); queue.push(name); }
    }
  }
  // The chunks the entry imports statically, in the manifest as "PAGE.js imports" (URLs, space
  // separated): the server names them in the page's head (modulepreload), so that the browser
  // fetches them with the entry instead of one round trip after it.
  const files = new Map(out.outputFiles.map((f) => [f.path.slice(dist.length + 1), f]));
  const imports = [];
  for (const queue = [...files.keys()].filter((n) => n.startsWith(`${entry}-`)), seen = new Set(queue); queue.length;) {
    const file = files.get(queue.shift());
    for (const [, name] of Buffer.from(file.contents).toString("utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      if (!seen.has(name)) { seen.add(name); queue.push(name); imports.push(`/static/${name}`); }
  }
  // The play page's first script (src/boot/boot.ts) must come in one request, first: no chunk of its own.
  if (entry === "boot" && (imports.length || out.outputFiles.length !== 1)) throw new Error(`boot.js must import nothing at run time: ${imports.join(" ")}`);
  // The server puts it into the play page's head as an inline script (no request: it runs as soon
  // as the head is parsed), allowed by its hash in the page's Content-Security-Policy: the
  // manifest's "boot.js sha256" ('sha256-BASE64' of the file's exact bytes). Inline, nothing in it
  // may end the element or open a comment.
  if (entry === "boot") {
    const text = Buffer.from(out.outputFiles[0].contents).toString("utf8");
    if (/<\/script|<!--/i.test(text)) throw new Error("boot.js holds </script or <!--: it cannot be put into the page");
    manifest["boot.js sha256"] = `sha256-${createHash("sha256").update(out.outputFiles[0].contents).digest("base64")}`;
  }
  manifest[`${entry}.js imports`] = imports.join(" ");
  for (const file of out.outputFiles) {
    const name = file.path.slice(dist.length + 1);
    writeFileSync(file.path, file.contents);
    if (name.startsWith(`${entry}-`)) {
      manifest[`${entry}.js`] = `/static/${name}`;
      sizes[`${entry}.js`] = file.contents;
    } else {
      sizes[`${entry}: ${name}`] = file.contents;
    }
  }
}
// The headings' typeface (scripts/fonts.mjs), fingerprinted; the stylesheet names each face by
// its logical URL (/static/display-latin.woff2), which becomes the fingerprinted one.
for (const [name, data] of Object.entries(buildFonts(web))) sizes[name] = emit(name, "woff2", data);
const css = await esbuild.build({ entryPoints: [join(web, "src", "site", "site.css")], bundle: true, minify: true, write: false, external: ["/static/*"] });
let cssText = css.outputFiles[0].text;
for (const name of ["display-latin.woff2", "display-arabic.woff2"]) {
  if (!cssText.includes(`/static/${name}`)) throw new Error(`site.css does not name /static/${name}`);
  cssText = cssText.replaceAll(`/static/${name}`, manifest[name]);
}
sizes["site.css"] = emit("site.css", "css", Buffer.from(cssText));

for (const file of readdirSync(join(web, "po")).filter((f) => f.endsWith(".po"))) {
  const lang = file.slice(0, -3);
  const all = readPo(join(web, "po", file));
  const client = pick(all, CLIENT_PREFIXES);
  // Every string is an ICU message (src/shared/i18n.ts): one that does not parse stops the build.
  for (const [key, text] of Object.entries(client)) {
    try {
      new IntlMessageFormat(text, lang, undefined, { ignoreTag: true });
    } catch (err) {
      throw new Error(`po/${file}: ${key} is not a valid ICU message: ${err.message}`);
    }
  }
  sizes[`i18n/${lang}.json`] = emit(`i18n/${lang}.json`, "json", Buffer.from(JSON.stringify(client)));
  // Each page's own strings, which the server puts into the page, with its formatted messages
  // parsed ahead (scripts/page-strings.mjs).
  for (const [page, prefixes] of Object.entries(PAGE_STRINGS))
    sizes[`i18n/${page}-${lang}.json`] = emit(`i18n/${page}-${lang}.json`, "json", Buffer.from(JSON.stringify(pageStringsFile(pick(client, prefixes), lang))));
}
writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");

const gz = (b) => gzipSync(b, { level: 9 }).length;
for (const [name, data] of Object.entries(sizes)) console.log(`${name.padEnd(16)} ${String(data.length).padStart(7)} B, ${String(gz(data)).padStart(6)} B gzip`);
const br = (b) => brotliCompressSync(b, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`engine.wasm: ${sizes["engine.wasm"].length} B, ${gz(sizes["engine.wasm"])} B gzip, ${br(sizes["engine.wasm"])} B brotli`);

// Every file of dist/ that compresses gets name.gz and name.br beside it (scripts/compress.mjs).
const packed = compressDir(dist);
const total = (k) => packed.reduce((sum, r) => sum + (r[k] ?? r.size), 0);
console.log(`precompressed ${packed.length} files: ${total("size")} B, ${total("gz")} B gzip, ${total("br")} B brotli`);
