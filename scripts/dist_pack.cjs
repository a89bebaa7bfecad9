// SPDX-License-Identifier: MIT
// What make_dist does to the files before it writes them (issue 13: a small file at full speed):
//   packModule(glue)  the Emscripten loader with its embedded wasm taken out and stored again,
//                     xz-compressed and base64-encoded, as createGpuAdvisor.wasmXz, with the xz
//                     decoder and a wrapper that inflates it: createGpuAdvisor() decodes it into
//                     WebAssembly's streaming compiler (Module.instantiateWasm), so the page and
//                     any host calling it alike get the module. Base64 of the raw module does not compress well (gzip sees 6-bit
//                     symbols that straddle the module's byte patterns); base64 of the compressed
//                     module is ~1.01x its size in the page's own transfer encoding, and the loader
//                     never fetch()es a data: URI.
//   siteLoader(glue, wasmName, packedName)  the site's loader: the module a file of its own,
//                     fetched and compiled as it arrives; the packed loader its fallback.
//   answerLoader(glue, wasmName, wholeName)  the site's first loader: the answer part of the
//                     module (no validation), the whole module's loader loaded when asked.
//   storedModule(text) the packed loader's module, decoded (tests, bench).
//   minifyStyle(css)  comments and whitespace out of the stylesheet.
'use strict';

const fs = require('fs');
const { spawnSync } = require('child_process');
const esbuild = require('esbuild');

const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
const FACTORY = 'createGpuAdvisor';

// The xz decoder the loader carries (npm xz-decompress: xz-embedded compiled to a 9 KB wasm, MIT
// and public domain; its banner names them). It runs in the wrapper's scope, where its UMD header
// finds no module, exports or define: no global of its own, and this file's exports left alone.
const XZ_DECODER = require.resolve('xz-decompress/dist/package/xz-decompress.min.js');

function decoderInScope() {
  return `const XzReadableStream = (function () {
    var module, exports, define, scope = {};
    (function () {
${fs.readFileSync(XZ_DECODER, 'utf8')}
    }).call(scope);
    return scope['xz-decompress'].XzReadableStream;
  })();`;
}

// The factory both loaders export, `wrapped`: the Emscripten loader `raw` given the module of
// their own `instantiate(imports)` through its instantiateWasm, unless the caller brings the
// module (wasmBinary, instantiateWasm: passed through untouched); `first` may answer before that.
const wrappedFactory = (first) => `const wrapped = function (options) {
    options = options || {};
    if (options.wasmBinary || options.instantiateWasm) return raw(options);
    ${first}
    return new Promise(function (resolve, reject) {
      raw(Object.assign({}, options, {
        instantiateWasm: function (imports, receive) {
          instantiate(imports).then(function (r) { receive(r.instance, r.module); }, reject);
          return {}; // the exports come later, through receive
        },
      })).then(resolve, reject);
    });
  };`;
// ... installed in the global the loader defined, and as the CommonJS export under Node.
const installedAs = (factory, value) => `${factory} = ${value};
  if (typeof module === 'object' && module.exports === raw) module.exports = ${value};`;
const installed = installedAs(FACTORY, 'wrapped');

// Appended to the packed loader: createGpuAdvisor() inflates the stored module itself, in a
// browser and under Node alike, and V8 compiles it while it is being decoded (streaming
// instantiation of the decoder's output: the two overlap). Options that bring the module
// (wasmBinary, instantiateWasm) are passed through untouched.
const selfInflating = (decoder) => `(function (raw) {
  ${decoder}
  function bytesOf(b64) {
    const bin = atob(b64), out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) out[i] = bin.charCodeAt(i);
    return out;
  }
  // A task boundary: the decoder runs on the page's thread, and between its chunks the browser
  // may paint (the pre-rendered answer) and handle input; a chain of promises would not let it.
  function nextTask() {
    return new Promise(function (resolve) {
      if (typeof setImmediate === 'function') return setImmediate(resolve); // Node
      const channel = new MessageChannel();
      channel.port1.onmessage = function () { channel.port1.close(); resolve(); };
      channel.port2.postMessage(0);
    });
  }
  // The decoded module as a stream; the decoder's own error (a policy that forbids WebAssembly,
  // a damaged stream) is kept, since a Response reading a failed stream says only "Failed to fetch".
  function instantiate(imports) {
    const reader = new XzReadableStream(new Blob([bytesOf(raw.wasmXz)]).stream()).getReader();
    let decodeError = null;
    const body = new ReadableStream({
      pull: function (controller) {
        return nextTask().then(function () { return reader.read(); }).then(function (r) {
          if (r.done) controller.close();
          else controller.enqueue(r.value);
        }, function (e) { decodeError = e; throw e; });
      },
    });
    const response = new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
    const started = typeof WebAssembly.instantiateStreaming === 'function'
      ? WebAssembly.instantiateStreaming(response, imports)
      : response.arrayBuffer().then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
    return started.catch(function (e) { throw decodeError || e; });
  }
  ${wrappedFactory('')}
  wrapped.wasmXz = raw.wasmXz;
  wrapped.instantiateStored = instantiate; // the site's loader, where it cannot fetch the module
  ${installed}
})(${FACTORY});
`;

// xz (LZMA2) stores this module 25% smaller than gzip: 437 vs 584 KB on 2026-12-03, and 437
// vs 570 KB against zopfli. Decoding costs ~70 ms on this machine (Node, warm) where the browser's
// gzip took ~15 ms; on the emulated mid phone over slow 4G the core was ready ~320 ms sooner
// (bench/page_bench.cjs, the phone part; docs/loading.md).
// A 2 MiB dictionary holds the whole module (so nothing is lost against -9e's 64 MiB) and caps
// what the decoder allocates at 3 MiB. CRC32: the check xz-embedded verifies.
const XZ_ARGS = ['--format=xz', '--check=crc32', '--lzma2=preset=9e,dict=2MiB', '-c'];

function runXz(args, input) {
  const r = spawnSync('xz', args, { input, maxBuffer: 8 * input.length + (1 << 20) });
  if (r.error) throw new Error('xz is not installed (apt-get install xz-utils): ' + r.error.message);
  if (r.status !== 0) throw new Error('xz ' + args.join(' ') + ' failed: ' + r.stderr.toString());
  return r.stdout;
}

/** The loader's embedded wasm taken out: {wasm, stripped} (the loader left on its embedded path). */
function takeModuleOut(glue, factory = FACTORY) {
  const m = DATA_URI.exec(glue);
  if (!m) throw new Error('the module has no embedded wasm (link it with -sSINGLE_FILE=1)');
  if (!glue.includes('var ' + factory + ' =') && !glue.includes('var ' + factory + '=')) {
    throw new Error('the module does not define ' + factory);
  }
  // The empty data: URI keeps the loader on its "embedded module" path; wasmBinary wins there.
  const stripped = glue.replace(DATA_URI, () => '"data:application/octet-stream;base64,"');
  return { wasm: Buffer.from(m[1], 'base64'), stripped: minifyScript(stripped) };
}

// Emscripten's loader keeps its long local names (Closure, which would shorten them, needs
// Java): esbuild's whitespace and local-name minification takes it 40 -> 22 KB raw. Its quoted
// members (Module["ready"]) and the global factory are kept as they are.
function minifyScript(js) {
  return esbuild.transformSync(js, { minify: true, legalComments: 'none', charset: 'utf8' }).code;
}

function packModule(glue) {
  const { wasm, stripped } = takeModuleOut(glue);
  const xz = runXz(XZ_ARGS, wasm);
  if (!runXz(['-dc'], xz).equals(wasm)) throw new Error('xz did not give the module back');
  const text = stripped + '\n' + FACTORY + '.wasmXz="' + xz.toString('base64') + '";\n' +
               minifyScript(selfInflating(decoderInScope()));
  return { text, wasm, xzBytes: xz.length };
}

/**
 * The site's loader: the module is the file `wasmName` beside it, which the browser downloads
 * compressed as the server sends it (brotli, gzip: `precompressed`) and compiles while it
 * arrives, with nothing to decode on the page's thread. Where it cannot be fetched (file://, a
 * server without it), the packed loader `packedName` beside it brings the module as xz.
 */
function siteLoader(glue, wasmName, packedName) {
  const { wasm, stripped } = takeModuleOut(glue);
  return { text: stripped + '\n' + minifyScript(fetching(FACTORY, wasmName, packedFallback(packedName), 'wrapped')), wasm };
}

const ANSWER_FACTORY = 'createGpuAdvisorAnswer';

/**
 * The site's first loader: the answer part (gpu_advisor_answer, no validation entry points) as
 * the file `wasmName`, fetched like the whole one. Where it cannot be fetched, and whenever the
 * page asks for it (createGpuAdvisorAnswer.whole()), the whole module's loader `wholeName`
 * beside it is loaded once and its createGpuAdvisor() answers instead.
 */
function answerLoader(glue, wasmName, wholeName) {
  const { wasm, stripped } = takeModuleOut(glue, ANSWER_FACTORY);
  return { text: stripped + '\n' + minifyScript(fetching(ANSWER_FACTORY, wasmName, wholeFallback(wholeName), 'answerFirst')), wasm };
}

// Appended to a site loader (`factory`, its module the file `wasmName` beside it): the fetch, and
// `fallback` (its helpers, and `fallback(imports, why)`) where the file cannot be had. Under Node
// the module is read from beside the file.
const fetching = (factory, wasmName, fallback, exported) => `(function (raw) {
  const WASM = ${JSON.stringify(wasmName)};
  // Read while this script runs: the module and its fallback are beside it.
  const base = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : '';
  const beside = function (name) { return new URL(name, base || location.href).href; };
  const compiled = function (response, imports) {
    const type = response.headers.get('Content-Type') || '';
    if (typeof WebAssembly.instantiateStreaming === 'function' && /^application\\/wasm\\b/i.test(type)) {
      return WebAssembly.instantiateStreaming(response, imports);
    }
    // A server that labels it otherwise (application/octet-stream): compile it from the bytes.
    return response.arrayBuffer().then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
  };
  ${fallback}
  const instantiate = function (imports) {
    const url = beside(WASM);
    if (/^file:/i.test(url)) return fallback(imports, 'no fetch from file://');
    return fetch(url, { credentials: 'same-origin' }).then(function (response) {
      return response.ok ? compiled(response, imports) : fallback(imports, url + ': HTTP ' + response.status);
    }, function (e) { return fallback(imports, url + ': ' + e.message); });
  };
  ${wrappedFactory(`if (typeof process === 'object' && process.versions && process.versions.node) {
      return raw(Object.assign({}, options, { wasmBinary: require('fs').readFileSync(require('path').join(__dirname, WASM)) }));
    }`)}
  ${installedAs(factory, exported)}
})(${factory});
`;

// The whole module's site loader: where its file cannot be fetched, the packed loader beside it
// brings the module as xz.
const packedFallback = (packedName) => `const PACKED = ${JSON.stringify(packedName)};
  // The packed loader replaces the global factory while it runs; ours is put back.
  const fallback = function (imports, why) {
    return new Promise(function (resolve, reject) {
      const ours = globalThis.${FACTORY};
      const script = document.createElement('script');
      script.src = beside(PACKED);
      script.onload = function () {
        const loaded = globalThis.${FACTORY};
        globalThis.${FACTORY} = ours;
        if (typeof loaded.instantiateStored !== 'function') reject(new Error(PACKED + ' carries no module'));
        else loaded.instantiateStored(imports).then(resolve, reject);
      };
      script.onerror = function () {
        globalThis.${FACTORY} = ours;
        reject(new Error(why + '; ' + PACKED + ' did not load either'));
      };
      document.head.appendChild(script);
    });
  };`;

// The answer part's: the whole module's loader, loaded once (under Node, required), for the
// validation entry points and where the answer part's file cannot be fetched (file://, a server
// without it). Its createGpuAdvisor() then answers in place of the answer part.
const wholeFallback = (wholeName) => `const WHOLE = ${JSON.stringify(wholeName)};
  let wholeLoaded = null;
  const whole = function () {
    if (wholeLoaded) return wholeLoaded;
    wholeLoaded = new Promise(function (resolve, reject) {
      const found = function () { return typeof globalThis.${FACTORY} === 'function' ? globalThis.${FACTORY} : null; };
      if (typeof process === 'object' && process.versions && process.versions.node) {
        return resolve(require(require('path').join(__dirname, WHOLE)));
      }
      if (found()) return resolve(found());
      const script = document.createElement('script');
      script.src = beside(WHOLE);
      script.onload = function () { found() ? resolve(found()) : reject(new Error(WHOLE + ' defines no ${FACTORY}')); };
      script.onerror = function () { wholeLoaded = null; reject(new Error(WHOLE + ' did not load')); };
      document.head.appendChild(script);
    });
    return wholeLoaded;
  };
  const fallback = function (imports, why) {
    const e = new Error(why);
    e.answerPartUnreachable = true;
    return Promise.reject(e);
  };
  const answerFirst = function (options) {
    return wrapped(options).catch(function (e) {
      if (!e || !e.answerPartUnreachable) throw e;
      return whole().then(function (factory) { return factory(options); });
    });
  };
  answerFirst.whole = whole;`;

const STORED = new RegExp('\\n' + FACTORY + '\\.wasmXz="([A-Za-z0-9+/=]+)";\\n');

/** The packed loader's wasm module, decoded ({wasm, index}: where the stored stream starts), or null. */
function storedModule(text) {
  const m = STORED.exec(text);
  return m ? { wasm: runXz(['-dc'], Buffer.from(m[1], 'base64')), index: m.index } : null;
}

function minifyStyle(css) {
  return css.replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

module.exports = { packModule, siteLoader, answerLoader, storedModule, minifyStyle };
