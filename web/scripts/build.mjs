// The web build: bundles the TypeScript (esbuild), minifies the stylesheet, turns the .po
// catalogs into JSON for the browser, fingerprints everything into dist/ and writes
// dist/manifest.json (logical name → URL under /static/) for the C++ renderer.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "./po.mjs";
import { compressDir } from "./compress.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
/** Catalog keys the browser needs; the rest is only used by the server-rendered pages. */
const CLIENT_PREFIXES = ["play.", "ev.", "house.", "level.", "error.game-full.", "home.start.failed", "label.value"];

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, "i18n"), { recursive: true });
const manifest = {};

function emit(logical, ext, contents) {
  const hash = createHash("sha256").update(contents).digest("hex").slice(0, 10);
  const base = logical.replace(/\.[a-z]+$/, "");
  const file = `${base}-${hash}.${ext}`;
  writeFileSync(join(dist, file), contents);
  manifest[logical] = `/static/${file}`;
  return contents;
}

const sizes = {};
// Code splitting: what a page loads only on demand (the play page's QR code) goes into a chunk of
// its own, fetched by a dynamic import; esbuild names every file by its content's hash. The
// content and error pages load only "site" (the header's language menu).
for (const entry of ["play", "home", "site"]) {
  const out = await esbuild.build({
    entryPoints: [join(web, "src", `${entry}.ts`)], outdir: dist, splitting: true,
    entryNames: "[name]-[hash]", chunkNames: "chunk-[hash]",
    bundle: true, minify: true, format: "esm", target: "es2022", write: false, legalComments: "none",
  });
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
const css = await esbuild.build({ entryPoints: [join(web, "src", "site.css")], bundle: true, minify: true, write: false });
sizes["site.css"] = emit("site.css", "css", css.outputFiles[0].contents);

for (const file of readdirSync(join(web, "po")).filter((f) => f.endsWith(".po"))) {
  const lang = file.slice(0, -3);
  const all = readPo(join(web, "po", file));
  const client = Object.fromEntries(Object.entries(all).filter(([k]) => CLIENT_PREFIXES.some((p) => k.startsWith(p))));
  // Every string is an ICU message (src/i18n.ts): one that does not parse stops the build.
  for (const [key, text] of Object.entries(client)) {
    try {
      new IntlMessageFormat(text, lang, undefined, { ignoreTag: true });
    } catch (err) {
      throw new Error(`po/${file}: ${key} is not a valid ICU message: ${err.message}`);
    }
  }
  sizes[`i18n/${lang}.json`] = emit(`i18n/${lang}.json`, "json", Buffer.from(JSON.stringify(client)));
}
writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");

const gz = (b) => gzipSync(b, { level: 9 }).length;
for (const [name, data] of Object.entries(sizes)) console.log(`${name.padEnd(16)} ${String(data.length).padStart(7)} B, ${String(gz(data)).padStart(6)} B gzip`);

// Every file of dist/ that compresses gets name.gz and name.br beside it (scripts/compress.mjs).
const packed = compressDir(dist);
const total = (k) => packed.reduce((sum, r) => sum + (r[k] ?? r.size), 0);
console.log(`precompressed ${packed.length} files: ${total("size")} B, ${total("gz")} B gzip, ${total("br")} B brotli`);
