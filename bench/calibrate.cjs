#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Calibration report: runs every calibration row the API can express through the CLI and prints
// measured vs predicted, the error, and per category the median |error| on the held-out rows and
// on the fitted rows, with coverage (rows expressed / rows in the data). Not a test: nothing here
// passes or fails on a threshold (README and docs/speed.md report the figures).
//
// Usage: node bench/calibrate.cjs build/gpu-advisor [--json] [--performance FILE] [--no-stack]
//
// --no-stack replays every row without its `stack` and `training.accounting`: what a mapping that
// knows only a source's model, hardware and batch (not its framework) gets from the defaults.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { allRows, isHeldOut, GIB } = require('./cases.cjs');

function cliAdvise(cli, extraArgs, { noStack = false } = {}) {
  return (request) => {
    if (noStack) {
      request = JSON.parse(JSON.stringify(request));
      delete request.stack;
      if (request.training) delete request.training.accounting;
    }
    const out = execFileSync(cli, ['advise', '-', ...extraArgs], { input: JSON.stringify(request) });
    const result = JSON.parse(out.toString());
    if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
    return result;
  };
}

/** Largest sequence length whose memory estimate fits in `gib` (bisection). */
function largestContext(adviseFn, request, gib) {
  let lo = 1, hi = 1 << 20;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const req = JSON.parse(JSON.stringify(request));
    req.training.sequence_length = mid;
    if (adviseFn(req).memory.per_gpu_bytes <= gib * GIB) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** Evaluates one row: {measured, predicted, errorPct} or {error}. Memory bound/OOM rows count 0%
 *  when on the right side, else the overshoot. */
function evaluate(row, adviseFn) {
  try {
    if (row.capacity_gib) {
      const ctx = largestContext(adviseFn, row.request, row.capacity_gib);
      return { measured: row.measured_context, predicted: ctx,
               errorPct: (ctx / row.measured_context - 1) * 100 };
    }
    if (row.category === 'memory') {
      const bytes = adviseFn(row.request).memory.per_gpu_bytes / row.unit;
      if (row.bound) return { measured: row.bound, predicted: bytes,
                              errorPct: bytes <= row.bound ? 0 : (bytes / row.bound - 1) * 100 };
      if (row.oom_on) return { measured: row.oom_on, predicted: bytes,
                               errorPct: bytes > row.oom_on ? 0 : (bytes / row.oom_on - 1) * 100 };
      return { measured: row.measured, predicted: bytes, errorPct: (bytes / row.measured - 1) * 100 };
    }
    let request = row.request;
    if (row.pre) request = request(adviseFn(row.pre));
    const result = adviseFn(request);
    const predicted = row.request2
      ? row.read(result, request, adviseFn(row.request2), row.request2)
      : row.read(result, request);
    return { measured: row.measured, predicted, errorPct: (predicted / row.measured - 1) * 100 };
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Category of a row for the report (FP8 training folded into its category, flagged). */
function group(row) { return row.category.replace(/_fp8$/, ''); }

function summary(rows, all) {
  const cats = [...new Set(all.map(group))].sort();
  const out = [];
  for (const cat of cats) {
    const inCat = all.filter((r) => group(r) === cat);
    const expressed = rows.filter((r) => group(r) === cat && r.errorPct !== undefined);
    const held = expressed.filter((r) => r.heldOut).map((r) => Math.abs(r.errorPct));
    const fit = expressed.filter((r) => !r.heldOut).map((r) => Math.abs(r.errorPct));
    const all_ = expressed.map((r) => Math.abs(r.errorPct));
    out.push({ category: cat, rows_in_data: inCat.length, expressed: expressed.length,
               coverage: expressed.length / inCat.length,
               held_out_n: held.length, held_out_median_abs_error_pct: median(held),
               held_out_within_goal: null, fit_n: fit.length, fit_median_abs_error_pct: median(fit),
               all_median_abs_error_pct: median(all_),
               held_out_share_within: (g) => held.filter((x) => x <= g).length / Math.max(1, held.length) });
  }
  return out;
}

function report(all, rows) {
  const pad = (s, n) => String(s).padEnd(n).slice(0, n);
  const lines = [];
  lines.push(`${pad('id', 52)} ${pad('category', 20)} ${'measured'.padStart(11)} `
             + `${'predicted'.padStart(11)} ${'error'.padStart(8)}  split`);
  for (const r of rows) {
    if (r.error !== undefined) {
      lines.push(`${pad(r.id, 52)} ${pad(r.category, 20)} ERROR ${r.error}`);
      continue;
    }
    lines.push(`${pad(r.id, 52)} ${pad(r.category, 20)} `
               + `${Number(r.measured).toPrecision(5).padStart(11)} ${Number(r.predicted).toPrecision(5).padStart(11)} `
               + `${(r.errorPct >= 0 ? '+' : '') + r.errorPct.toFixed(1)}%`.padStart(9)
               + `  ${r.heldOut ? 'held-out' : 'fit'}${r.ambiguous ? ' (ambiguous)' : ''}`);
  }
  lines.push('');
  lines.push('per category (held-out split: seed 11, 40% of cases; coverage = rows expressed / rows in the data):');
  lines.push(`  ${pad('category', 18)} ${'held-out median'.padStart(16)} ${'n'.padStart(4)} ${'fit median'.padStart(11)} `
             + `${'n'.padStart(4)} ${'all'.padStart(7)} ${'coverage'.padStart(9)}`);
  for (const s of summary(rows, all)) {
    lines.push(`  ${pad(s.category, 18)} ${(s.held_out_median_abs_error_pct.toFixed(1) + '%').padStart(16)} `
               + `${String(s.held_out_n).padStart(4)} ${(s.fit_median_abs_error_pct.toFixed(1) + '%').padStart(11)} `
               + `${String(s.fit_n).padStart(4)} ${(s.all_median_abs_error_pct.toFixed(1) + '%').padStart(7)} `
               + `${(100 * s.coverage).toFixed(0).padStart(8)}%`);
  }
  lines.push('');
  lines.push('skipped:');
  for (const c of all.filter((x) => x.skip)) lines.push(`  ${pad(c.id, 52)} ${c.skip}`);
  return lines.join('\n');
}

function run(all, adviseFn) {
  const rows = [];
  for (const c of all) {
    if (c.skip) continue;
    rows.push({ id: c.id, category: c.category, metric: c.metric, ambiguous: c.ambiguous,
                assumed: c.assumed, heldOut: isHeldOut(c.id), ...evaluate(c, adviseFn) });
  }
  return rows;
}

function loadRows() {
  const calibration = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration.json')));
  const more = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration_more.json')));
  return allRows(calibration, more);
}

if (require.main === module) {
  const cli = process.argv[2];
  if (!cli) {
    console.error('usage: node bench/calibrate.cjs build/gpu-advisor [--json] [--performance FILE] [--no-stack]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--performance');
  const extra = i > 0 ? ['--performance', process.argv[i + 1]] : [];
  const all = loadRows();
  const rows = run(all, cliAdvise(cli, extra, { noStack: process.argv.includes('--no-stack') }));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, summary: summary(rows, all) }, null, 1));
  } else {
    console.log(report(all, rows));
  }
}

module.exports = { run, evaluate, median, report, summary, loadRows, cliAdvise, group };
