// SPDX-License-Identifier: MIT
// Serves dist/site/ on localhost (no dependencies) and prints where everything is.
// Usage: node scripts/serve.cjs [port]
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..', 'dist', 'site');
const singleFile = path.resolve(__dirname, '..', 'dist', 'gpu-advisor.html');
const port = Number(process.argv[2] || process.env.PORT || 8080);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error(`serve: ${root}/index.html is missing; run scripts/build.sh first`);
  process.exit(1);
}

http.createServer((req, res) => {
  const urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  const file = path.resolve(root, '.' + (urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath));
  if (!file.startsWith(root + path.sep)) { res.writeHead(403).end('forbidden'); return; }
  fs.readFile(file, (err, body) => {
    if (err) { res.writeHead(404).end('not found'); return; }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  });
}).listen(port, '127.0.0.1', () => {
  console.log(`GPU Advisor site:        http://127.0.0.1:${port}/`);
  console.log(`Offline single file:     ${singleFile}  (open it from disk; no network needed)`);
  console.log('Press Ctrl+C to stop.');
});
