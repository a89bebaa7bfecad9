// SPDX-License-Identifier: MIT
// The page on an emulated mid phone over slow 4G (issue 30 item 2), for bench/page_bench.cjs:
// each dist is served from loopback as a static host serving precompressed files would (the
// brotli copies make_dist writes beside the site's files, as scripts/serve.cjs sends them; a file
// without one, the single file among them, gzipped -9), and each load runs in a fresh browser
// context under Lighthouse's mobile preset as DevTools applies it (lighthouse
// core/config/constants.js, mobileSlow4G: 150 ms RTT x 3.75 = 562.5 ms per request,
// 1.6 x 1024 kbit/s x 0.9 = 1.51 Mbit/s down, 750 kbit/s x 0.9 up, CPU 4x slower).
// Loads of the variants interleave, so drift on the machine hits each alike.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { precompressed, ENCODINGS } = require('../scripts/serve.cjs');

const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,                     // ms
  downloadThroughput: (1.6 * 1024 * 0.9 * 1024) / 8, // bytes per second
  uploadThroughput: (750 * 0.9 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const LOAD_TIMEOUT_MS = 120000;
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm' };

/** A loopback server for one dist: /gpu-advisor.html the single file, / and the rest dist/site/. */
function serveDist(dist) {
  const cache = new Map();
  const server = http.createServer((req, res) => {
    let url;
    try { url = decodeURIComponent(req.url.split('?')[0]); } catch (e) { url = ''; } // a malformed escape: 404
    const file = url === '/gpu-advisor.html' ? path.join(dist, 'gpu-advisor.html')
      : path.join(dist, 'site', url === '/' ? 'index.html' : url);
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end(); return;
    }
    const encoding = precompressed(file, req.headers['accept-encoding']) || 'gzip';
    const key = file + ':' + encoding;
    if (!cache.has(key)) {
      cache.set(key, fs.existsSync(file + ENCODINGS[encoding]) ? fs.readFileSync(file + ENCODINGS[encoding])
        : zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
                         'Content-Encoding': encoding, 'Cache-Control': 'no-store' });
    res.end(cache.get(key));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function oneLoad(browser, url, pageTimings) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, bypassCSP: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.goto(url, { timeout: LOAD_TIMEOUT_MS });
  await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.ready && window.gpuAdvisor.lastResult, null, { timeout: LOAD_TIMEOUT_MS });
  const out = await page.evaluate(pageTimings);
  await context.close();
  return out;
}

/**
 * Medians per (dist, variant) of first contentful paint, first result on screen and core ready
 * (interactive), ms from navigation start. dists: [{label, dir}]. pageTimings: the in-page probe.
 */
async function phoneLoads(browser, dists, runs, pageTimings, median) {
  const servers = await Promise.all(dists.map((d) => serveDist(path.resolve(d.dir))));
  const variants = [];
  dists.forEach((d, i) => {
    const base = `http://127.0.0.1:${servers[i].address().port}`;
    variants.push({ name: `${d.label}: single file`, url: base + '/gpu-advisor.html' });
    variants.push({ name: `${d.label}: site`, url: base + '/' });
  });
  const samples = variants.map(() => []);
  try {
    for (let r = 0; r < runs; r++) {
      for (let v = 0; v < variants.length; v++) samples[v].push(await oneLoad(browser, variants[v].url, pageTimings));
    }
  } finally {
    for (const s of servers) s.close();
  }
  return variants.map((v, i) => ({
    variant: v.name,
    fcp_ms: median(samples[i].map((x) => x.fcp)),
    first_result_ms: median(samples[i].map((x) => (x.element != null ? x.element : x.coreReady))),
    core_ready_ms: median(samples[i].map((x) => x.coreReady)),
  }));
}

module.exports = { phoneLoads, SLOW_4G, CPU_SLOWDOWN };
