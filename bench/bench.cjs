// SPDX-License-Identifier: MIT
// Benchmark (prints figures; asserts nothing): advise() latency in wasm under Node, the
// single-file size raw and gzipped, and page load to first result in headless Chromium.
// Usage: node bench/bench.cjs <gpu_advisor.js> <dist dir> <request.json>...
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const WARMUP_CALLS = 20;
const TIMED_CALLS = 500;
const PAGE_LOADS = 5;

const [wasmJs, dist, ...requests] = process.argv.slice(2);

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

async function wasmLatency() {
  const module = await require(path.resolve(wasmJs))();
  for (const file of requests) {
    const text = fs.readFileSync(file, 'utf8');
    for (let i = 0; i < WARMUP_CALLS; i++) module.advise(text);
    const us = [];
    for (let i = 0; i < TIMED_CALLS; i++) {
      const t0 = process.hrtime.bigint();
      module.advise(text);
      us.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    const sorted = us.sort((a, b) => a - b);
    console.log(`wasm\t${file}\tmedian_us=${median(us).toFixed(1)}\tp90_us=${sorted[Math.floor(sorted.length * 0.9)].toFixed(1)}\tcalls=${TIMED_CALLS}`);
  }
}

function sizes() {
  for (const f of [path.join(dist, 'gpu-advisor.html'), wasmJs]) {
    const raw = fs.readFileSync(f);
    console.log(`size\t${f}\traw_bytes=${raw.length}\tgzip_bytes=${zlib.gzipSync(raw, { level: 9 }).length}`);
  }
}

async function pageLoad() {
  let chromium;
  try { ({ chromium } = require('playwright-core')); } catch (e) { console.log('page\tskipped: playwright-core missing'); return; }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const url = 'file://' + path.resolve(dist, 'gpu-advisor.html');
  const ms = [];
  for (let i = 0; i < PAGE_LOADS; i++) {
    const page = await browser.newPage();
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.lastResult, null, { timeout: 30000 });
    ms.push(Date.now() - t0);
    await page.close();
  }
  await browser.close();
  console.log(`page\t${url}\tload_to_first_result_ms_median=${median(ms)}\truns=${PAGE_LOADS}\tall=${ms.join(',')}`);
}

(async () => {
  await wasmLatency();
  sizes();
  await pageLoad();
})().catch((e) => { console.error(e); process.exit(1); });
