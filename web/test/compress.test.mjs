// The build's precompression (scripts/compress.mjs): every .gz and .br decompresses to the very
// bytes of the file beside it, only compressible files get them, and only when smaller.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { COMPRESSIBLE, compressDir } from "../scripts/compress.mjs";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

/** Every .gz/.br under `dir` checked against the file it belongs to; returns how many. */
function checkForms(dir) {
  let checked = 0;
  const walk = (sub) => {
    for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = join(sub, e.name);
      if (e.isDirectory()) { walk(rel); continue; }
      const m = /^(.*)\.(gz|br)$/.exec(rel);
      if (!m) continue;
      const original = readFileSync(join(dir, m[1]));
      const packed = readFileSync(join(dir, rel));
      const plain = m[2] === "gz" ? gunzipSync(packed) : brotliDecompressSync(packed);
      assert.ok(plain.equals(original), `${rel} does not decompress to ${m[1]}`);
      assert.ok(packed.length < original.length, `${rel} is not smaller than ${m[1]}`);
      checked++;
    }
  };
  walk("");
  return checked;
}

test("compressDir writes .gz and .br that decompress to the original bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "senet-compress-"));
  try {
    mkdirSync(join(dir, "i18n"));
    const js = "export const a = 1;\n".repeat(400);
    const wasm = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(3000, 7)]);
    writeFileSync(join(dir, "app-ABCDEF12.js"), js);
    writeFileSync(join(dir, "engine-0123456789.wasm"), wasm);
    writeFileSync(join(dir, "i18n", "en-0123456789.json"), JSON.stringify({ greeting: "hello ".repeat(200) }));
    writeFileSync(join(dir, "tiny.css"), "a{}");
    writeFileSync(join(dir, "photo.png"), Buffer.alloc(5000, 1));
    writeFileSync(join(dir, ".hidden.js"), "x".repeat(5000));
    const rows = compressDir(dir);
    const names = rows.map((r) => r.name).sort();
    assert.deepEqual(names, ["app-ABCDEF12.js", "engine-0123456789.wasm", "i18n/en-0123456789.json", "tiny.css"]);
    for (const name of ["app-ABCDEF12.js", "engine-0123456789.wasm", "i18n/en-0123456789.json"]) {
      assert.ok(existsSync(join(dir, name + ".gz")), name + ".gz");
      assert.ok(existsSync(join(dir, name + ".br")), name + ".br");
    }
    assert.equal(brotliDecompressSync(readFileSync(join(dir, "engine-0123456789.wasm.br"))).equals(wasm), true);
    assert.equal(gunzipSync(readFileSync(join(dir, "app-ABCDEF12.js.gz"))).toString(), js);
    // Too small to gain, not compressible, hidden: nothing beside them.
    for (const name of ["tiny.css", "photo.png", ".hidden.js"]) {
      assert.ok(!existsSync(join(dir, name + ".gz")), name + ".gz");
      assert.ok(!existsSync(join(dir, name + ".br")), name + ".br");
    }
    assert.equal(checkForms(dir), 6);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the built dist/ has a .gz and .br for its scripts, styles and catalogs, each exact", { skip: !existsSync(join(dist, "manifest.json")) && "run npm run build first" }, () => {
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
  // A file's URL, or for "PAGE.js imports" the URLs of the chunks it imports (space separated, maybe none).
  const urls = Object.values(manifest).flatMap((v) => v.split(" ").filter(Boolean));
  assert.ok(urls.some((u) => u.includes("/chunk-")), "the manifest names the chunks the pages import");
  // Fonts (woff2) come compressed already: nothing beside them.
  for (const url of new Set(urls)) {
    if (!COMPRESSIBLE.has(extname(url))) continue;
    const file = join(dist, url.replace(/^\/static\//, ""));
    assert.ok(existsSync(file + ".gz"), `${file}.gz`);
    assert.ok(existsSync(file + ".br"), `${file}.br`);
  }
  assert.ok(checkForms(dist) >= 2 * new Set(urls.filter((u) => COMPRESSIBLE.has(extname(u)))).size);
});
