#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Packages the page: node scripts/make_dist.cjs <gpu_advisor.js> <distDir>
//   <distDir>/site/            index.html and every file it refers to (the stylesheet, the page's
//                              bundle, gpu_advisor_answer.js), packed (any web server), the whole
//                              module's gpu_advisor.js the page loads for validation, and
//                              messages/en.json, the English words the page fetches when asked
//   <distDir>/gpu-advisor.html one file: the stylesheet and both scripts inlined in order, the
//                              wasm module among them; opens from file:// and makes no network
//                              request (a Content-Security-Policy forbids it).
// index.html loads two scripts: bundle.js, the page's ES modules (web/js/main.js and its imports)
// bundled by esbuild (scripts/bundle.cjs; an npm devDependency), and the wasm module; and, in its
// <head>, js/early.js (a few lines, copied as they are: the embed mode's classes before the first paint).
'use strict';

const fs = require('fs');
const path = require('path');
const { bundlePage } = require('./bundle.cjs');
const zlib = require('zlib');
const { packModule, siteLoader, answerLoader, minifyStyle } = require('./dist_pack.cjs');
const { prerender } = require('./prerender.cjs');

function die(message) {
  process.stderr.write('make_dist: ' + message + '\n');
  process.exit(1);
}

const [moduleArg, distArg] = process.argv.slice(2);
if (!moduleArg || !distArg) die('usage: node scripts/make_dist.cjs <gpu_advisor.js> <distDir>');

const root = path.resolve(__dirname, '..');
const webDir = path.join(root, 'web');
const modulePath = path.resolve(moduleArg);
const distDir = path.resolve(distArg);
const siteDir = path.join(distDir, 'site');

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    return die('cannot read ' + file + ': ' + e.message);
  }
}

const MODULE = 'gpu_advisor.js'; // the wasm module: the build's output, not in web/
const SITE_WASM = 'gpu_advisor.wasm';        // the site's module, its own file (issue 30 item 5)
const SITE_PACKED = 'gpu_advisor.packed.js'; // the single file's loader: the site's fallback
// The site's first module, the answer part (CMakeLists.txt gpu_advisor_answer: no validation),
// built beside the whole one; its loader loads the whole one when the page asks for validation.
const ANSWER = 'gpu_advisor_answer.js';
const ANSWER_WASM = 'gpu_advisor_answer.wasm';
const BUNDLE = 'bundle.js';      // the page's modules, bundled here (web/bundle.js is a working copy)
const EARLY = 'js/early.js';     // the one script in <head>: the embed mode's classes before the first paint
// Languages whose words the site loads only when asked for (the default, Chinese, is bundled).
const SITE_LANGUAGES_ON_DEMAND = ['en'];
const indexHtml = read(path.join(webDir, 'index.html'));

// Every file index.html refers to, in document order: <link rel="stylesheet" href> and <script src>.
const TAG = /<link rel="stylesheet" href="([^"]+)">|<script src="([^"]+)"><\/script>/g;
const refs = [];
for (const m of indexHtml.matchAll(TAG)) {
  const name = m[1] || m[2];
  if (/^[a-z]+:|^\/|(^|\/)\.\.(\/|$)/i.test(name)) die('index.html refers to ' + name + ': only relative paths inside web/');
  refs.push({ tag: m[0], name: name, kind: m[1] ? 'style' : 'script' });
}
if (!refs.some((r) => r.kind === 'style')) die('index.html has no <link rel="stylesheet">');
for (const name of [BUNDLE, MODULE]) {
  if (!refs.some((r) => r.name === name)) die('index.html has no <script src="' + name + '">');
}
const stray = refs.find((r) => r.kind === 'script' && r.name !== BUNDLE && r.name !== MODULE && r.name !== EARLY);
if (stray) die('index.html loads ' + stray.name + ': the page\'s scripts are ES modules imported by js/main.js (bundled into ' + BUNDLE + ')');

const files = { 'index.html': indexHtml };
for (const r of refs) {
  if (r.name === BUNDLE) continue;
  files[r.name] = read(r.name === MODULE ? modulePath : path.join(webDir, r.name));
}

main().catch((e) => die(e && e.stack || String(e)));

async function main() {
// Both variants ship packed files (scripts/dist_pack.cjs): the page's modules bundled and
// minified by esbuild, the stylesheet without comments and indentation. The single file carries
// the wasm as xz inside its loader; the site serves it as a file of its own.
const glue = files[MODULE];
const packed = packModule(glue);
files[MODULE] = packed.text;
const site = siteLoader(glue, SITE_WASM, SITE_PACKED);
const answerGlue = path.join(path.dirname(modulePath), ANSWER);
// Without it (a loader packed on its own, as bench/page_bench.cjs does) the site starts the whole module.
const answer = fs.existsSync(answerGlue) ? answerLoader(read(answerGlue), ANSWER_WASM, MODULE) : null;
if (!answer) process.stdout.write('make_dist: no ' + ANSWER + ' beside ' + moduleArg + ': the site loads the whole module first\n');
// The single file carries both languages; the site's bundle only the default one, and the
// other's words as messages/<lang>.json, fetched when the visitor switches (web/js/i18n.js).
let siteBundle;
try {
  files[BUNDLE] = await bundlePage({ minify: true });
  // V8's explicit compile hint (Chrome 136 on): every function of the file compiled on a
  // background thread while it downloads, not on the page's thread at its first call; on the
  // emulated phone the site's core is ready ~150 ms sooner (bench/RESULTS.md, 2026-12-05). Not in
  // the single file: an inline script is compiled on the page's thread, the hint would only move
  // that work earlier.
  siteBundle = '//# allFunctionsCalledOnLoad\n' +
               await bundlePage({ minify: true, leaveOut: SITE_LANGUAGES_ON_DEMAND });
} catch (e) {
  die('the page\'s modules do not bundle: ' + e.message);
}
for (const r of refs) {
  if (r.kind === 'style') files[r.name] = minifyStyle(files[r.name]);
}

// ---- the static site: the files as they are, with the site's bundle and its on-demand words.
fs.rmSync(siteDir, { recursive: true, force: true });
const siteFiles = Object.assign({}, files, { [BUNDLE]: siteBundle, [MODULE]: site.text, [SITE_PACKED]: packed.text,
                                             [SITE_WASM]: site.wasm },
                                answer ? { [ANSWER]: answer.text, [ANSWER_WASM]: answer.wasm } : {});
// The site's page loads the answer part (the whole module follows when validation is opened).
// Its download starts with the page's, not when the bundle asks for it two round trips later:
// js/early.js preloads the file its tag names (over HTTP only: no fetch from file://).
const earlyTag = refs.find((r) => r.name === EARLY).tag;
const moduleTag = refs.find((r) => r.name === MODULE).tag;
siteFiles['index.html'] = indexHtml
  .replace(earlyTag, () => earlyTag.replace('<script ', '<script data-module="' + (answer ? ANSWER_WASM : SITE_WASM) + '" '))
  .replace(moduleTag, () => answer ? moduleTag.replace(MODULE, ANSWER) : moduleTag);
for (const code of SITE_LANGUAGES_ON_DEMAND) {
  siteFiles['messages/' + code + '.json'] = JSON.stringify(JSON.parse(read(path.join(root, 'data', 'messages', code + '.json'))));
}
for (const [name, text] of Object.entries(siteFiles)) {
  const file = path.join(siteDir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

// ---- the single file.
// Inside <script> the HTML parser ends the element at the first "</script" whatever the JS
// means by it, and "<!--" followed by "<script" switches it into a double-escaped state. Such
// text can only sit in JS strings, template literals, regular expressions or comments, and in
// all four "\x3C" means "<" (also under the regex u flag), so "<" becomes "\x3C" there.
function inlineScript(js) {
  const out = js.replace(/<(\/?script|!--)/gi, (m, rest) => '\\x3C' + rest);
  if (/<\/script/i.test(out)) die('could not escape </script in inlined JS');
  return out;
}
function inlineStyle(css) {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

// A strict policy: nothing may be fetched, posted or loaded from anywhere. Scripts and styles
// are inline; 'unsafe-eval' is needed by Embind (it builds its invokers with new Function) and
// 'wasm-unsafe-eval' by WebAssembly compilation; images and fetches only of data: URIs.
const csp = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  "connect-src 'none'", // the wasm is inflated from the page's own text (no fetch of a data: URI)
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

// Each tag is replaced by its file's text, in place, so the scripts run in the same order.
let html = indexHtml.replace(TAG, (tag) => {
  const r = refs.find((x) => x.tag === tag);
  return r.kind === 'style' ? '<style>\n' + inlineStyle(files[r.name]) + '\n</style>'
    : '<script>\n' + inlineScript(files[r.name]) + '\n</script>';
});
const charset = '<meta charset="utf-8">';
if (!html.includes(charset)) die('index.html has no ' + charset);
html = html.replace(charset, () => charset + '\n<meta http-equiv="Content-Security-Policy" content="' + csp + '">');

if (/<(script|link)[^>]+(src|href)="(?!data:)/i.test(html)) die('single file still refers to an external resource');

const single = path.join(distDir, 'gpu-advisor.html');
fs.writeFileSync(single, html);

const kib = (n) => (n / 1024).toFixed(0) + ' KiB';
process.stdout.write('make_dist: ' + path.relative(process.cwd(), siteDir) + '/ (' +
  Object.keys(siteFiles).length + ' files, ' + refs.filter((r) => r.kind === 'script').length + ' scripts inlined), ' + path.relative(process.cwd(), single) + ' (' +
  kib(Buffer.byteLength(html)) + '; wasm ' + kib(packed.wasm.length) + ' stored as ' + kib(packed.xzBytes) + ' of xz)\n');
// The first view rendered into both pages by the page itself in headless Chromium
// (scripts/prerender.cjs); PRERENDER=0 skips it (a page that renders only once the core loads).
if (process.env.PRERENDER !== '0') {
  const timings = await prerender([{ file: single, single: true }, { file: path.join(siteDir, 'index.html'), single: false }]);
  process.stdout.write('make_dist: pre-rendered ' + timings.map((x) => path.relative(process.cwd(), x.file) + ' (' + x.ms + ' ms)').join(', ') + '\n');
}
require('./dist_widget.cjs')(distDir, single); // dist/widget/: the <gpu-advisor> script, its framed page, an example host
require('./dist_csp.cjs')(distDir); // each single file's CSP names its inline <script>/<style> by hash
for (const served of [siteDir, path.join(distDir, 'widget')]) precompress(served); // the files as final
}

// Every file of a served folder (the site, the widget) beside a brotli and a gzip copy, for a
// server that sends a file's precompressed copy to a browser that accepts it (nginx
// brotli_static / gzip_static; scripts/serve.cjs). The best brotli (quality 11, a 16 MiB window:
// all of the module) stores the wasm in 423 KiB against 551 KiB of gzip -9 and 1.7 MB as it is
// (bench/RESULTS.md, 2026-12-05).
function precompress(dir) {
  const { constants } = zlib;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) precompress(file);
    if (!entry.isFile() || /\.(br|gz)$/.test(file)) continue;
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file + '.br', zlib.brotliCompressSync(bytes, { params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    } }));
    fs.writeFileSync(file + '.gz', zlib.gzipSync(bytes, { level: 9 }));
  }
}
