// Precompresses the files of dist/: for every file of a type that compresses (JavaScript, CSS,
// JSON, SVG, HTML, WebAssembly, text…) writes name.gz (gzip level 9) and name.br (brotli quality
// 11) beside it, when smaller than the file. The server reads both at start and sends them by
// Accept-Encoding (server/src/http/static_files.cpp); it checks that each decompresses to the file.
//
//   node scripts/compress.mjs [dir]      (dir defaults to dist/; build.mjs calls compressDir)
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The extensions whose files are worth compressing (the server's compressible types). */
export const COMPRESSIBLE = new Set([
  ".js", ".mjs", ".css", ".html", ".json", ".map", ".svg", ".txt", ".webmanifest", ".wasm", ".ico", ".xml",
]);

/** The gzip and brotli forms of `data`: { gz, br } (Buffers). */
export function compressBytes(data, isText = true) {
  const gz = gzipSync(data, { level: 9 });
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: isText ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  return { gz, br };
}

/**
 * Writes name.gz and name.br beside every compressible file under `dir` (recursively), each only
 * when smaller than the file; removes a stale one that is not. Returns [{ name, size, gz, br }]
 * (sizes in bytes, gz/br null when not written).
 */
export function compressDir(dir) {
  const out = [];
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) { walk(rel); continue; }
      if (!entry.isFile() || !COMPRESSIBLE.has(extname(entry.name))) continue;
      const file = join(dir, rel);
      const data = readFileSync(file);
      const { gz, br } = compressBytes(data, extname(entry.name) !== ".wasm");
      const row = { name: rel, size: data.length, gz: null, br: null };
      for (const [suffix, bytes] of [[".gz", gz], [".br", br]]) {
        if (data.length > 0 && bytes.length < data.length) {
          writeFileSync(file + suffix, bytes);
          row[suffix.slice(1)] = bytes.length;
        } else {
          rmSync(file + suffix, { force: true });
        }
      }
      out.push(row);
    }
  };
  walk("");
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
  statSync(dir);
  for (const r of compressDir(dir)) console.log(`${r.name.padEnd(28)} ${String(r.size).padStart(7)} B, gz ${r.gz ?? "-"}, br ${r.br ?? "-"}`);
}
