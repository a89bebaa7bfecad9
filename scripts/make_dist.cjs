#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Packages the page: node scripts/make_dist.cjs <gpu_advisor.js> <distDir>
//   <distDir>/site/            index.html, style.css, app.js, i18n.js, gpu_advisor.js (any web server)
//   <distDir>/gpu-advisor.html one file: CSS, JS and the wasm module inlined; opens from file://
//                              and makes no network request (a Content-Security-Policy forbids it).
// No dependencies beyond Node itself.
'use strict';

const fs = require('fs');
const path = require('path');

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

const files = {
  'index.html': read(path.join(webDir, 'index.html')),
  'style.css': read(path.join(webDir, 'style.css')),
  'i18n.js': read(path.join(webDir, 'i18n.js')),
  'app.js': read(path.join(webDir, 'app.js')),
  'gpu_advisor.js': read(modulePath),
};

// ---- the static site: the files as they are.
fs.mkdirSync(siteDir, { recursive: true });
for (const [name, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(siteDir, name), text);
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
  "connect-src data:", // the Emscripten loader fetch()es its own data: URI
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

let html = files['index.html'];
let replaced = 0;
function substitute(pattern, make) {
  const before = html;
  html = html.replace(pattern, () => make()); // a function: "$&" etc. in the text stay literal
  if (html === before) die('index.html has no ' + pattern);
  replaced += 1;
}
substitute(/<link rel="stylesheet" href="style\.css">/,
  () => '<style>\n' + inlineStyle(files['style.css']) + '\n</style>');
for (const name of ['i18n.js', 'gpu_advisor.js', 'app.js']) {
  const tag = new RegExp('<script src="' + name.replace('.', '\\.') + '"></script>');
  substitute(tag, () => '<script>\n' + inlineScript(files[name]) + '\n</script>');
}
substitute(/<meta charset="utf-8">/,
  () => '<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="' + csp + '">');

if (/<(script|link)[^>]+(src|href)=/i.test(html)) die('single file still refers to an external resource');

const single = path.join(distDir, 'gpu-advisor.html');
fs.writeFileSync(single, html);

const kib = (n) => (n / 1024).toFixed(0) + ' KiB';
process.stdout.write('make_dist: ' + path.relative(process.cwd(), siteDir) + '/ (' +
  Object.keys(files).length + ' files), ' + path.relative(process.cwd(), single) + ' (' +
  kib(Buffer.byteLength(html)) + ')\n');
