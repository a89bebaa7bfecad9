// SPDX-License-Identifier: MIT
// Serves the dist on localhost (no dependencies) and prints where everything is.
// Usage: node scripts/serve.cjs [port] [distDir]
//   /                   dist/site/ (the static site), under the strict policy below
//   /widget/            dist/widget/ (the widget script, its framed page, the example host)
//   /gpu-advisor.html   the single file (its policy is in its own <meta>, with hashes)
// Every response carries the Content-Security-Policy a host needs for the site
// (issue 10 item 3): scripts and styles only from the site itself, WebAssembly compilation, no
// eval, no inline script or style. The single files carry hashes for their inline elements in a
// <meta> policy, so they get no header (a header would forbid those elements).
// A file's copy that make_dist compressed beforehand (NAME.br, NAME.gz) is sent to a browser that
// accepts it, as a static host does (docs/loading.md, "Serving the site").
// require('./serve.cjs').createServer(distDir) gives the server to tests.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const SITE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'", // the modules (gpu_advisor_answer.wasm, gpu_advisor.wasm) and a provider catalog (?catalog=) from the site
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

/** The file a URL path names, and whether the site policy applies to it; null if outside. */
function locate(distDir, urlPath) {
  const site = path.join(distDir, 'site');
  const widget = path.join(distDir, 'widget');
  if (urlPath === '/gpu-advisor.html') return { file: path.join(distDir, 'gpu-advisor.html'), header: false };
  let base = site;
  let rest = urlPath;
  if (urlPath === '/widget' || urlPath.startsWith('/widget/')) { base = widget; rest = urlPath.slice('/widget'.length) || '/'; }
  const file = path.resolve(base, '.' + (rest.endsWith('/') ? rest + 'index.html' : rest));
  if (!file.startsWith(base + path.sep)) return null;
  const single = /\.html$/.test(file) && base === widget && path.basename(file) === 'gpu-advisor.html';
  return { file: file, header: !single };
}

/** The server; `policy` replaces SITE_CSP (a test of a host that forbids more). */
function createServer(distDir, policy) {
  return http.createServer((req, res) => {
    let urlPath;
    try { urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname); } catch (e) { urlPath = null; }
    const where = urlPath && locate(distDir, urlPath);
    if (!where) { res.writeHead(403).end('forbidden'); return; }
    const encoding = precompressed(where.file, req.headers['accept-encoding']);
    fs.readFile(where.file + (encoding ? ENCODINGS[encoding] : ''), (err, body) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      const headers = { 'Content-Type': TYPES[path.extname(where.file)] || 'application/octet-stream', 'X-Content-Type-Options': 'nosniff' };
      if (where.header) headers['Content-Security-Policy'] = policy || SITE_CSP;
      if (encoding) Object.assign(headers, { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' });
      res.writeHead(200, headers);
      res.end(body);
    });
  });
}

// The encoding of the copy to send, as nginx's brotli_static and gzip_static choose it: the
// first the browser accepts, best first, of those make_dist wrote.
const ENCODINGS = { br: '.br', gzip: '.gz' };
function precompressed(file, acceptEncoding) {
  const accepted = String(acceptEncoding || '').split(',').map((x) => x.trim().split(';')[0].toLowerCase());
  return Object.keys(ENCODINGS).find((e) => accepted.includes(e) && fs.existsSync(file + ENCODINGS[e])) || null;
}

if (require.main === module) {
  const port = Number(process.argv[2] || process.env.PORT || 8080);
  const distDir = path.resolve(process.argv[3] || path.join(__dirname, '..', 'dist'));
  if (!fs.existsSync(path.join(distDir, 'site', 'index.html'))) {
    console.error(`serve: ${distDir}/site/index.html is missing; run scripts/build.sh first`);
    process.exit(1);
  }
  createServer(distDir).listen(port, '127.0.0.1', () => {
    console.log(`GPU Advisor site:        http://127.0.0.1:${port}/`);
    console.log(`Widget example:          http://127.0.0.1:${port}/widget/`);
    console.log(`Offline single file:     ${path.join(distDir, 'gpu-advisor.html')}  (open it from disk; no network needed)`);
    console.log('Press Ctrl+C to stop.');
  });
}

module.exports = { createServer, SITE_CSP, precompressed, ENCODINGS };
