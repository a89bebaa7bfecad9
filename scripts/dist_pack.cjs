// SPDX-License-Identifier: MIT
// What make_dist does to the files before it writes them (issue 13: a small file at full speed):
//   packModule(glue)  the Emscripten loader with its embedded wasm taken out and stored again,
//                     gzipped and base64-encoded, as createGpuAdvisor.wasmGz; web/js/core.js
//                     inflates it with the browser's DecompressionStream and hands the bytes to
//                     the loader (Module.wasmBinary). Base64 of the raw module does not compress
//                     well (gzip sees 6-bit symbols that straddle the module's byte patterns);
//                     base64 of the gzipped module is ~1.01x the gzip size in the page's own
//                     transfer encoding, and the loader no longer fetch()es a data: URI.
//   minifyStyle(css)  comments and whitespace out of the stylesheet.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const zlib = require('zlib');

const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
const FACTORY = 'createGpuAdvisor';

// Appended to the packed loader: a host that calls createGpuAdvisor() itself, without the
// wasmBinary the page passes (web/js/core.js), gets the stored module inflated for it: with
// DecompressionStream in a browser, zlib under Node. Options that bring the module are passed
// through untouched.
const SELF_INFLATING = `(function (raw) {
  function bytesOf(b64) {
    if (typeof Buffer === 'function') return Buffer.from(b64, 'base64');
    const bin = atob(b64), out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) out[i] = bin.charCodeAt(i);
    return out;
  }
  function inflate(b64) {
    const gz = bytesOf(b64);
    if (typeof DecompressionStream === 'function' && typeof Response === 'function') {
      const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
    }
    return Promise.resolve(new Uint8Array(require('zlib').gunzipSync(gz)));
  }
  const wrapped = function (options) {
    options = options || {};
    if (options.wasmBinary || options.instantiateWasm) return raw(options);
    return inflate(raw.wasmGz).then(function (bytes) {
      return raw(Object.assign({}, options, { wasmBinary: bytes }));
    });
  };
  wrapped.wasmGz = raw.wasmGz;
  ${FACTORY} = wrapped;
  if (typeof module === 'object' && module.exports === raw) module.exports = wrapped;
})(${FACTORY});
`;

// Zopfli writes an ordinary gzip stream (DecompressionStream and zlib read it) ~5% smaller than
// zlib's level 9 for this module (544 vs 573 KB on 2026-12-03), at ~6 s of build time with 5
// iterations (15 gain 50 bytes more). Debian's zopfli is in the set-up; without it, zlib's best.
const ZOPFLI_ITERATIONS = 5;

function gzipSmallest(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-wasm-'));
  try {
    const file = path.join(dir, 'module.wasm');
    fs.writeFileSync(file, bytes);
    const r = spawnSync('zopfli', ['--i' + ZOPFLI_ITERATIONS, '-c', file], { maxBuffer: 4 * bytes.length + (1 << 20) });
    if (!r.error && r.status === 0 && r.stdout.length > 0 && zlib.gunzipSync(r.stdout).equals(bytes)) return r.stdout;
    console.log('dist_pack: zopfli not available (apt-get install zopfli); the wasm is stored with zlib level 9');
    return zlib.gzipSync(bytes, { level: 9 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function packModule(glue) {
  const m = DATA_URI.exec(glue);
  if (!m) throw new Error('the module has no embedded wasm (link it with -sSINGLE_FILE=1)');
  if (!glue.includes('var ' + FACTORY + ' =') && !glue.includes('var ' + FACTORY + '=')) {
    throw new Error('the module does not define ' + FACTORY);
  }
  const wasm = Buffer.from(m[1], 'base64');
  const gz = gzipSmallest(wasm).toString('base64');
  // The empty data: URI keeps the loader on its "embedded module" path; wasmBinary wins there.
  const stripped = glue.replace(DATA_URI, () => '"data:application/octet-stream;base64,"');
  const text = stripped + '\n' + FACTORY + '.wasmGz="' + gz + '";\n' + SELF_INFLATING;
  return { text, wasmBytes: wasm.length, gzBytes: gz.length };
}

function minifyStyle(css) {
  return css.replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

module.exports = { packModule, minifyStyle };
