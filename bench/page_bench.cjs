// SPDX-License-Identifier: MIT
// The page benchmark (issue 13 item 4). Prints figures, asserts nothing:
//   sizes      each variant's bytes raw and gzipped (-9): the single file, the site, the widget
//   load       per variant, interleaved runs in fresh browser contexts, medians of what the page
//              itself records: first contentful paint, the first result on screen (the
//              pre-rendered answer's element timing, or the core's own first render), the core
//              ready (performance mark 'gpu-advisor:core-ready'); the same file with every
//              <script> removed is the static-HTML yardstick (issue 13: first result <= 1.2x it)
//   phone      the single file and the site on an emulated mid phone over slow 4G, served as a
//              static host sends them (make_dist's brotli copies, else gzip; bench/phone_load.cjs):
//              FCP, first result, core ready (interactive);
//              --base DIR adds another build's dist to the same interleaved runs
//   advise     advise() in Chromium after a 4 s warm-up (V8 tiers up), median and p95 per request,
//              beside the native figure for the same request texts (bench_native, with its
//              allocations per call): the whole result (advise), and the page's two calls, the
//              answer (adviseAnswer: what an input change waits for) and its levers after the
//              frame (adviseLevers); then the ratio measured in alternating rounds, so that both
//              sides see the same machine: each round times a batch of calls per request in the
//              page (the mean: performance.now() steps 100 µs in a page that is not
//              cross-origin isolated, coarser than one call) and then the same batch natively
//              (bench_native --calls); the median over the rounds of each round's ratio
//   rerender   an input change to the re-rendered page (the goal: within one 16 ms frame), with
//              the page scrolled to the top and scrolled to the GPU table, median and p95 of:
//              the synchronous run (core + DOM), the next animation frame (its callbacks run),
//              the frame drawn (style, layout and paint done: a message posted from that
//              frame's callback), and settled (the sections off screen drawn after the frame and
//              the address written: gpuAdvisor.pending false); per component (the page's own
//              timing marks, gpuAdvisor.internals.onTiming): the core call, the form, each section
//              drawn in the run or after the frame, the section navigation; and, from a second
//              series under a trace, the main thread's CPU time for the run's task and for the
//              next frame
//
// Usage: node bench/page_bench.cjs <dist dir> <bench_native | -> <request.json>... [--runs N]
//          [--only size,load,phone,advise,rerender] [--base DIR]...
// With - for bench_native the advise part prints Chromium's figures alone.
// bench/bench.sh runs it on the build's outputs. The machine: whatever runs it (the README
// records where its figures came from).
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { storedModule } = require('../scripts/dist_pack.cjs');
const { phoneLoads, SLOW_4G, CPU_SLOWDOWN } = require('./phone_load.cjs');

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
              '--disable-sync', '--no-first-run'];
const WARMUP_MS = 4000;
const TIMED_CALLS = 300;
const RATIO_ROUNDS = 9;
const RATIO_BATCH_CALLS = 40;
const RERENDER_SAMPLES = 40;

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv.splice(runsAt, 2)[1]) : 7;
const onlyAt = argv.indexOf('--only');
const PARTS = new Set((onlyAt >= 0 ? argv.splice(onlyAt, 2)[1] : 'size,load,phone,advise,rerender').split(','));
const BASES = []; // --base DIR (repeatable): other builds' dists, loaded interleaved in the phone part
for (let at; (at = argv.indexOf('--base')) >= 0;) BASES.push(argv.splice(at, 2)[1]);
const [distArg, nativeBench, ...requestFiles] = argv;
if (!distArg || !nativeBench || (!requestFiles.length && PARTS.has('advise'))) {
  console.error('usage: node bench/page_bench.cjs <dist dir> <bench_native | -> <request.json>... [--runs N] [--only size,load,phone,advise,rerender] [--base DIR]...');
  process.exit(2);
}
const dist = path.resolve(distArg);

const median = (xs) => { const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const pct = (xs, p) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const kb = (n) => (n / 1024).toFixed(1) + ' KiB';
const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

function gz(buf) { return zlib.gzipSync(buf, { level: 9 }).length; }
function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}

// What a first visit to the site loads, as a server sends make_dist's brotli copies: the files its
// index.html names (stylesheets, scripts, the module js/early.js preloads), not the English words
// (fetched on a switch) nor the packed loader (fetched only where the module cannot be).
function siteFirstLoad(site) {
  const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const named = [...html.matchAll(/<link rel="stylesheet"[^>]*? href="([^"]+)"|<script [^>]*?(?:data-module="([^"]+)" )?src="([^"]+)"/g)]
    .flatMap((m) => [m[1], m[2], m[3]]).filter(Boolean);
  return ['index.html', ...named].map((f) => path.join(site, f)).filter((f) => fs.existsSync(f));
}

function sizes() {
  const rows = [];
  const one = (label, files) => {
    let raw = 0, sent = 0;
    for (const f of files) {
      const b = fs.readFileSync(f);
      raw += b.length;
      sent += fs.existsSync(f + '.br') ? fs.statSync(f + '.br').size : gz(b);
    }
    rows.push({ variant: label, files: files.length, raw_bytes: raw, sent_bytes: sent });
  };
  const site = path.join(dist, 'site');
  one('single file (dist/gpu-advisor.html)', [path.join(dist, 'gpu-advisor.html')]);
  one('site, first visit (as .br; gzip else)', siteFirstLoad(site));
  if (fs.existsSync(path.join(dist, 'widget'))) one('widget (dist/widget/, every file)', walk(path.join(dist, 'widget')).filter((f) => !/\.(br|gz)$/.test(f)));
  const stored = storedModule(fs.readFileSync(path.join(dist, 'gpu-advisor.html'), 'utf8'));
  if (stored) {
    rows.push({ variant: 'of which the wasm module (gzip)', files: 1, raw_bytes: stored.wasm.length, sent_bytes: gz(stored.wasm) });
  }
  return rows;
}

/** The single file with every script removed: what Chromium shows of the same HTML statically. */
function staticCopy(file) {
  const html = fs.readFileSync(file, 'utf8').replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'page-bench-')), 'static.html');
  fs.writeFileSync(out, html);
  return out;
}

/** The same page built without the pre-rendered view (PRERENDER=0), for comparison. */
function unrenderedCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-bench-'));
  const glue = path.join(dir, 'gpu_advisor.js');
  // make_dist packs the loader it is given; the packed one (the site's fallback; before
  // 2026-12-05 the site's own loader) is packed already, so unpack it.
  const packed = ['gpu_advisor.packed.js', 'gpu_advisor.js'].map((f) => path.join(dist, 'site', f)).find((f) => fs.existsSync(f));
  const text = fs.readFileSync(packed, 'utf8');
  const stored = storedModule(text);
  if (!stored) return null;
  const wasm = stored.wasm.toString('base64');
  fs.writeFileSync(glue, text.slice(0, stored.index).replace('"data:application/octet-stream;base64,"',
                                                          () => '"data:application/octet-stream;base64,' + wasm + '"'));
  execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'make_dist.cjs'), glue, dir],
               { env: { ...process.env, PRERENDER: '0' }, stdio: 'ignore' });
  return path.join(dir, 'gpu-advisor.html');
}

/** Inside the page: what it recorded about its own load. */
function pageTimings() {
  return new Promise((resolve) => {
    const out = {};
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    out.fcp = fcp ? fcp.startTime : null;
    const ready = performance.getEntriesByName('gpu-advisor:core-ready')[0];
    out.coreReady = ready ? ready.startTime : null;
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.identifier === 'first-result') out.element = e.renderTime || e.loadTime;
      }).observe({ type: 'element', buffered: true });
    } catch (e) { /* no element timing */ }
    // The longest task up to the core's readiness (the one that makes it ready included): how
    // long an input may wait while the page loads.
    out.longestTask = null;
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (out.coreReady != null && e.startTime <= out.coreReady) out.longestTask = Math.max(out.longestTask || 0, e.duration);
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch (e) { /* no long-task timing */ }
    setTimeout(() => resolve(out), 100);
  });
}

async function loads(browser, variants) {
  const samples = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) { // interleaved: drift on the machine hits every variant alike
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto('file://' + v.file);
      if (v.live) await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.ready && window.gpuAdvisor.lastResult, null, { timeout: 30000 });
      else await page.waitForTimeout(300);
      samples[v.name].push(await page.evaluate(pageTimings));
      await context.close();
    }
  }
  return variants.map((v) => {
    const s = samples[v.name];
    const firstResult = s.map((x) => (x.element != null ? x.element : x.coreReady));
    return { variant: v.name, fcp_ms: median(s.map((x) => x.fcp)), first_result_ms: median(firstResult),
             core_ready_ms: median(s.map((x) => x.coreReady)), longest_task_ms: median(s.map((x) => x.longestTask)), runs: s.length };
  });
}

/** Inside the page: advise() timings on a fresh instance of the module, after a warm-up. */
// The calls timed: the whole result, and the page's answer and levers (core/api.hpp PlanPart).
const ADVISE_PARTS = ['whole', 'answer', 'levers'];

/** Inside the page: {whole, answer, levers}, each µs per call per text, after a warm-up of all three. */
async function adviseInPage({ texts, warmupMs, calls, parts }) {
  const m = await window.createGpuAdvisor(); // the packed loader inflates its own module
  window.benchCore = m; // kept for adviseBatchInPage
  const call = { whole: (t) => m.advise(t), answer: (t) => m.adviseAnswer(t, ''), levers: (t) => m.adviseLevers(t, '') };
  const end = performance.now() + warmupMs;
  for (let i = 0; performance.now() < end; i++) call[parts[i % parts.length]](texts[i % texts.length]);
  const out = {};
  for (const part of parts) {
    out[part] = texts.map((text) => {
      const us = [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        call[part](text);
        us.push((performance.now() - t0) * 1000);
      }
      return us;
    });
  }
  return out;
}

/** Inside the page, on the module adviseInPage warmed up: the mean µs of `calls` calls per text. */
function adviseBatchInPage({ texts, calls, part }) {
  const m = window.benchCore;
  const call = part === 'answer' ? (t) => m.adviseAnswer(t, '') : (t) => m.advise(t);
  return texts.map((text) => {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) call(text);
    return ((performance.now() - t0) * 1000) / calls;
  });
}

/**
 * Inside the page: input changes, each timed to the end of the synchronous run, to the next
 * animation frame, to that frame drawn, and to settled; the page's own marks per component.
 * scrollTo: 'top' or a section id to scroll to first.
 */
async function rerenderInPage({ samples, scrollTo }) {
  const api = window.gpuAdvisor;
  const internals = api.internals;
  if (scrollTo === 'top') window.scrollTo(0, 0);
  else document.getElementById(scrollTo).scrollIntoView({ block: 'start' });
  await new Promise((r) => setTimeout(r, 500)); // the observers see the new scroll position
  const box = document.getElementById('in-seq') || document.querySelector('input[data-key="t.sequence_length"]');
  const values = ['2048', '4096'];
  const totals = { sync: [], frame: [], drawn: [], settled: [] };
  const parts = {}; // 'run core' / 'after panel:options' -> ms per change
  let phase = 'run', at = 0;
  internals.onTiming((name, ms) => {
    const k = phase + ' ' + name;
    const list = parts[k] || (parts[k] = []);
    list[at] = (list[at] || 0) + ms;
  });
  const nextMessage = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
  for (let i = 0; i < samples; i++) {
    at = i;
    phase = 'run';
    const t0 = performance.now();
    box.value = values[i % 2];
    box.dispatchEvent(new Event('input', { bubbles: true }));
    console.timeStamp('gpu-advisor-change'); // where the trace (cpuTimes) finds each change
    api.recompute();
    totals.sync.push(performance.now() - t0);
    phase = 'after';
    await new Promise((r) => requestAnimationFrame(() => { totals.frame.push(performance.now() - t0); r(); }));
    await nextMessage();
    totals.drawn.push(performance.now() - t0);
    while (api.pending) await new Promise((r) => setTimeout(r, 2));
    totals.settled.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 250)); // the address is written at most every 200 ms
  }
  internals.onTiming(null);
  for (const k of Object.keys(parts)) parts[k] = Array.from({ length: samples }, (_, i) => parts[k][i] || 0);
  return { totals, parts };
}

/**
 * Thread CPU time (the trace's tdur; what other work on a shared machine does not inflate) per
 * change, from a trace of rerenderInPage: the task that ran the change, and the first frame
 * after it (style, layout, pre-paint, paint: WebFrameWidgetImpl::UpdateLifecycle).
 */
async function traced(page, fn, arg) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => { for (const x of e.value) events.push(x); });
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'] }, transferMode: 'ReportEvents' });
  const out = await page.evaluate(fn, arg);
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const stamps = events.filter((e) => e.name === 'TimeStamp' && e.args && e.args.data && e.args.data.message === 'gpu-advisor-change');
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask');
  const frames = events.filter((e) => e.ph === 'X' && e.name === 'WebFrameWidgetImpl::UpdateLifecycle').sort((a, b) => a.ts - b.ts);
  const cpu = { run: [], frame: [] };
  for (const m of stamps) {
    const task = tasks.find((e) => e.tid === m.tid && e.ts <= m.ts && m.ts <= e.ts + e.dur);
    const frame = frames.find((e) => e.tid === m.tid && e.ts > m.ts);
    if (task && task.tdur !== undefined) cpu.run.push(task.tdur / 1000);
    if (frame && frame.tdur !== undefined) cpu.frame.push(frame.tdur / 1000);
  }
  cpu.sum = cpu.run.map((x, i) => x + (cpu.frame[i] || 0));
  return Object.assign(out, { cpu });
}

function nativeFigures(calls, part) {
  if (nativeBench === '-') return {};
  const out = execFileSync(nativeBench, [...(calls ? ['--calls', String(calls)] : []), '--part', part || 'whole', ...requestFiles]).toString();
  const rows = {};
  for (const line of out.trim().split('\n')) {
    const [, file, ...kv] = line.split('\t');
    rows[file] = Object.fromEntries(kv.map((x) => x.split('=')).map(([k, v]) => [k, Number(v)]));
  }
  return rows;
}

(async () => {
  const { chromium } = require('playwright-core');
  const single = path.join(dist, 'gpu-advisor.html');
  console.log(`machine: ${os.cpus()[0].model}, ${os.cpus().length} cores, ${os.platform()} ${os.release()}; node ${process.version}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  if (PARTS.has('size')) {
    console.log('\nsize (sent: gzip -9, or the brotli copy make_dist wrote beside the file)');
    for (const r of sizes()) console.log(`  ${r.variant.padEnd(38)} raw ${kb(r.raw_bytes).padStart(11)}  sent ${kb(r.sent_bytes).padStart(10)}`);
  }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  console.log(`chromium ${browser.version()}`);
  if (PARTS.has('load')) {
    const variants = [
      { name: 'single file (pre-rendered)', file: single, live: true },
      { name: 'single file, PRERENDER=0', file: unrenderedCopy(), live: true },
      { name: 'same HTML, no script (static)', file: staticCopy(single), live: false },
      ...BASES.map((dir) => ({ name: dir + ': single file', file: path.join(path.resolve(dir), 'gpu-advisor.html'), live: true })),
    ].filter((v) => v.file);
    console.log(`\nload (file://, 1366x768, medians of ${RUNS} interleaved runs; ms from navigation start; (x): to the`
                + ' static page\'s first result; the longest task up to the core\'s readiness)');
    const loadRows = await loads(browser, variants);
    const staticRow = loadRows.find((r) => /static/.test(r.variant));
    for (const r of loadRows) {
      // The yardstick: the same answer element painted by the same HTML with no script.
      const x = (v) => (staticRow && Number.isFinite(v) ? ` (${(v / staticRow.first_result_ms).toFixed(2)}x)` : '');
      console.log(`  ${r.variant.padEnd(32)} FCP ${ms(r.fcp_ms).padStart(7)}  first result ${ms(r.first_result_ms).padStart(7)}${x(r.first_result_ms)}`
                  + `  core ready ${ms(r.core_ready_ms).padStart(7)}${x(r.core_ready_ms)}  longest task ${ms(r.longest_task_ms)}`);
    }
  }

  if (PARTS.has('phone')) {
    const dists = [{ label: 'this build', dir: dist }, ...BASES.map((dir) => ({ label: dir, dir }))];
    console.log(`\nload on an emulated mid phone (412x823, CPU ${CPU_SLOWDOWN}x slower, ${(SLOW_4G.downloadThroughput * 8 / 1e6).toFixed(2)} Mbit/s down,`
                + ` ${SLOW_4G.latency} ms per request; served from loopback as make_dist's brotli copies, else gzip -9; medians of ${RUNS} interleaved runs; ms from navigation start)`);
    for (const r of await phoneLoads(browser, dists, RUNS, pageTimings, median)) {
      console.log(`  ${r.variant.padEnd(40)} FCP ${ms(r.fcp_ms).padStart(7)}  first result ${ms(r.first_result_ms).padStart(7)}  core ready ${ms(r.core_ready_ms).padStart(7)}`);
    }
  }

  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto('file://' + single);
  await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.ready && window.gpuAdvisor.lastResult, null, { timeout: 30000 });
  if (PARTS.has('advise')) {
    const texts = requestFiles.map((f) => fs.readFileSync(f, 'utf8'));
    const inPage = await page.evaluate(adviseInPage, { texts, warmupMs: WARMUP_MS, calls: TIMED_CALLS, parts: ADVISE_PARTS });
    for (const part of ADVISE_PARTS) {
      const native = nativeFigures(undefined, part);
      console.log(`\nadvise() per call, ${part} (µs; Chromium after ${WARMUP_MS / 1000} s warm-up, ${TIMED_CALLS} calls; native: bench_native --part ${part})`);
      requestFiles.forEach((f, i) => {
        const n = native[f] || {};
        const med = median(inPage[part][i]);
        console.log(`  ${path.basename(f).padEnd(44)} chromium median ${med.toFixed(0).padStart(6)} p95 ${pct(inPage[part][i], 0.95).toFixed(0).padStart(6)}`
                    + (n.median_us ? `  native median ${String(n.median_us).padStart(6)} p95 ${String(n.p95_us).padStart(6)}  = ${(med / n.median_us).toFixed(2)}x`
                    + `  allocations/call ${n.allocations_per_call}` : ''));
      });
    }
    // The ratio to native, in alternating rounds: for the whole result and for the answer.
    for (const part of nativeBench !== '-' ? ['whole', 'answer'] : []) {
      const rounds = requestFiles.map(() => ({ chromium: [], native: [], ratio: [] }));
      for (let r = 0; r < RATIO_ROUNDS; r++) {
        const batch = await page.evaluate(adviseBatchInPage, { texts, calls: RATIO_BATCH_CALLS, part });
        const native = nativeFigures(RATIO_BATCH_CALLS, part);
        requestFiles.forEach((f, i) => {
          rounds[i].chromium.push(batch[i]);
          rounds[i].native.push(native[f].mean_us);
          rounds[i].ratio.push(batch[i] / native[f].mean_us);
        });
      }
      console.log(`\nadvise() in alternating rounds, ${part} (${RATIO_ROUNDS} rounds; each: ${RATIO_BATCH_CALLS} calls per request in Chromium, then natively; mean µs per call, medians over the rounds)`);
      requestFiles.forEach((f, i) => {
        const x = rounds[i];
        console.log(`  ${path.basename(f).padEnd(44)} chromium ${median(x.chromium).toFixed(0).padStart(6)}  native ${median(x.native).toFixed(0).padStart(6)}`
                    + `  ratio ${median(x.ratio).toFixed(2)}x (rounds ${Math.min(...x.ratio).toFixed(2)}-${Math.max(...x.ratio).toFixed(2)})`);
      });
    }
  }
  if (PARTS.has('rerender')) {
    const cell = (xs) => `${ms(median(xs)).padStart(6)} ${ms(pct(xs, 0.95)).padStart(6)}`;
    for (const [where, scrollTo] of [['scrolled to the top (the answer on screen)', 'top'], ['scrolled to the GPU table', 'panel-options']]) {
      // Twice: untraced for the wall times and the marks (tracing slows the page), traced for CPU.
      const { totals, parts } = await page.evaluate(rerenderInPage, { samples: RERENDER_SAMPLES, scrollTo });
      const { cpu } = await traced(page, rerenderInPage, { samples: RERENDER_SAMPLES, scrollTo });
      console.log(`\nrerender after an input change, ${where} (ms, ${RERENDER_SAMPLES} changes of the sequence length; median, p95)`);
      console.log(`  run (core + DOM, synchronous)             ${cell(totals.sync)}`);
      console.log(`  to the next animation frame               ${cell(totals.frame)}`);
      console.log(`  that frame drawn (style, layout, paint)   ${cell(totals.drawn)}`);
      console.log(`  settled (sections off screen, address)    ${cell(totals.settled)}`);
      console.log('  main-thread CPU time (a second, traced series; other load on the machine does not inflate it):');
      console.log(`    the run's task                          ${cell(cpu.run)}`);
      console.log(`    the next frame (style, layout, paint)   ${cell(cpu.frame)}`);
      console.log(`    both: the change on screen              ${cell(cpu.sum)}`);
      console.log('  per component (wall time; the page\'s own marks): in the run / after the frame');
      const keys = Object.keys(parts).sort((a, b) => (a.startsWith('run') === b.startsWith('run') ? 0 : a.startsWith('run') ? -1 : 1));
      for (const k of keys) console.log(`    ${k.padEnd(38)}${cell(parts[k])}`);
    }
  }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
