/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const require = createRequire(import.meta.url);
// Text files worth compressing; smaller ones cost more in a request than they save.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_COMPRESS_BYTES = 1024;

/** Writes NAME.br and NAME.gz beside every compressible built file: the service picks one by
 * Accept-Encoding (backend/benchboard/delivery.py), so nothing is compressed per request. */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "benchboard-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, withFileTypes: true });
      for (const entry of files) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const data = readFileSync(file);
        if (data.length < MIN_COMPRESS_BYTES) continue;
        const brotli = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: brotli }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** Swagger UI from its npm package into dist/docs/, beside public/docs/ (page and start-up
 * script): /docs works with no internet and no inline script. */
function swaggerUi(): Plugin {
  const dist = path.dirname(require.resolve("swagger-ui-dist/package.json"));
  return {
    name: "benchboard-swagger-ui",
    apply: "build",
    generateBundle() {
      for (const name of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
        const source = readFileSync(path.join(dist, name));
        this.emitFile({ type: "asset", fileName: `docs/${name}`, source });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), swaggerUi(), precompress()],
  server: {
    proxy: { "/api": "http://127.0.0.1:8000" },
  },
  build: {
    outDir: "dist",
    sourcemap: false,
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
