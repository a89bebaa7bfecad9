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
const { allRows, isUnseen, GIB } = require('./cases.cjs');

/** Strips what a source's framework adds to a request (--no-stack). */
function withoutStack(request) {
  const r = JSON.parse(JSON.stringify(request));
  delete r.stack;
  if (r.training) delete r.training.accounting;
  return r;
}

/** advise() of many requests through one `gpu-advisor advise-lines` process (the data files are
 *  read once): results in order, an {error} result for a refused request. */
function cliAdviseMany(cli, extraArgs, { noStack = false } = {}) {
  return (requests) => {
    if (!requests.length) return [];
    const input = requests.map((r) => JSON.stringify(noStack ? withoutStack(r) : r)).join('\n');
    const out = execFileSync(cli, ['advise-lines', ...extraArgs],
                             { input, maxBuffer: 1 << 30 }).toString();
    const results = out.split('\n').filter((l) => l).map((l) => JSON.parse(l));
    if (results.length !== requests.length) throw new Error('advise-lines: result count differs');
    return results;
  };
}

/** One request at a time over the batch path (kept for callers that evaluate a single row). */
function cliAdvise(cli, extraArgs, options) {
  const many = cliAdviseMany(cli, extraArgs, options);
  return (request) => {
    const [result] = many([request]);
    if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
    return result;
  };
}

const rowError = (result) => ({ error: `${result.error.path}: ${result.error.message}` });

/** Compares one row's prediction with its measurement. Memory bound/OOM rows count 0% when on
 *  the right side, else the overshoot. */
function compare(row, result, request, result2) {
  if (result.error) return rowError(result);
  if (result2 && result2.error) return rowError(result2);
  if (row.category === 'memory') {
    const bytes = result.memory.per_gpu_bytes / row.unit;
    if (row.bound) return { measured: row.bound, predicted: bytes,
                            errorPct: bytes <= row.bound ? 0 : (bytes / row.bound - 1) * 100 };
    if (row.oom_on) return { measured: row.oom_on, predicted: bytes,
                             errorPct: bytes > row.oom_on ? 0 : (bytes / row.oom_on - 1) * 100 };
    return { measured: row.measured, predicted: bytes, errorPct: (bytes / row.measured - 1) * 100 };
  }
  const predicted = row.request2 ? row.read(result, request, result2, row.request2)
    : row.read(result, request);
  return { measured: row.measured, predicted, errorPct: (predicted / row.measured - 1) * 100 };
}

// Bisection bounds for the largest context that fits (tokens).
const MAX_CONTEXT_TOKENS = 1 << 20;

/** Largest sequence length whose estimate fits each row's memory size: one bisection per row,
 *  all rows stepping together so each step is one batch. */
function largestContexts(adviseMany, rows) {
  const state = rows.map(() => ({ lo: 1, hi: MAX_CONTEXT_TOKENS }));
  for (;;) {
    const open = state.map((s, i) => i).filter((i) => state[i].lo < state[i].hi && !state[i].error);
    if (!open.length) break;
    const mids = open.map((i) => Math.floor((state[i].lo + state[i].hi + 1) / 2));
    const requests = open.map((i, k) => {
      const req = JSON.parse(JSON.stringify(rows[i].request));
      req.training.sequence_length = mids[k];
      return req;
    });
    adviseMany(requests).forEach((r, k) => {
      const s = state[open[k]];
      if (r.error) s.error = rowError(r);
      else if (r.memory.per_gpu_bytes <= rows[open[k]].capacity_gib * GIB) s.lo = mids[k];
      else s.hi = mids[k] - 1;
    });
  }
  return state.map((s, i) => s.error || {
    measured: rows[i].measured_context, predicted: s.lo,
    errorPct: (s.lo / rows[i].measured_context - 1) * 100 });
}

/** Evaluates many rows with few batches: the requests that need no other result first, then
 *  those built from a first result (`pre`), then the context bisections. */
function evaluateMany(rows, adviseMany) {
  const out = new Array(rows.length);
  const plain = rows.map((r, i) => i).filter((i) => !rows[i].capacity_gib);
  const first = adviseMany(plain.map((i) => rows[i].pre || rows[i].request));
  const withSecond = plain.filter((i) => rows[i].request2);
  const second = new Map(adviseMany(withSecond.map((i) => rows[i].request2))
    .map((r, k) => [withSecond[k], r]));
  const staged = plain.filter((i, k) => rows[i].pre && !first[k].error);
  const requests = staged.map((i) => rows[i].request(first[plain.indexOf(i)]));
  const main = new Map(adviseMany(requests).map((r, k) => [staged[k], [r, requests[k]]]));
  plain.forEach((i, k) => {
    const [result, request] = main.get(i) || [first[k], rows[i].request];
    try {
      out[i] = compare(rows[i], result, request, second.get(i));
    } catch (e) {
      out[i] = { error: e.message.split('\n')[0] };
    }
  });
  const ctx = rows.map((r, i) => i).filter((i) => rows[i].capacity_gib);
  largestContexts(adviseMany, ctx.map((i) => rows[i])).forEach((e, k) => { out[ctx[k]] = e; });
  return out;
}

/** One row at a time (the fit's callers and tests of a single row). */
function evaluate(row, adviseMany) { return evaluateMany([row], adviseMany)[0]; }

function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Category of a row for the report (FP8 training folded into its category, flagged). */
function group(row) { return row.category.replace(/_fp8$/, ''); }

// Median |error| each category aims at (README, docs/speed.md 5).
const GOAL_PCT = { memory: 10, train_throughput: 10, train_gpu_hours: 20, inference: 15,
                   allreduce_bw: 10 };

const absMedian = (xs) => median(xs.map(Math.abs));
const fmtPct = (x) => (Number.isNaN(x) ? '–' : `${x.toFixed(1)}%`);

/** Per category: LOSO median |error| over the fit sources (each predicted by constants fitted
 *  without its source), the unseen sources' median |error|, the in-sample one, coverage. */
function summary(rows, all) {
  const cats = [...new Set(all.map(group))].sort();
  return cats.map((cat) => {
    const inCat = all.filter((r) => group(r) === cat);
    const expressed = rows.filter((r) => group(r) === cat && r.errorPct !== undefined);
    const fit = expressed.filter((r) => !r.unseen);
    const loso = fit.filter((r) => r.losoPct !== undefined).map((r) => r.losoPct);
    const unseen = expressed.filter((r) => r.unseen).map((r) => r.errorPct);
    return {
      category: cat, goal_pct: GOAL_PCT[cat] || null, rows_in_data: inCat.length,
      expressed: expressed.length, coverage: expressed.length / inCat.length,
      loso_n: loso.length, loso_median_abs_error_pct: absMedian(loso),
      unseen_n: unseen.length, unseen_median_abs_error_pct: absMedian(unseen),
      in_sample_n: fit.length, in_sample_median_abs_error_pct: absMedian(fit.map((r) => r.errorPct)),
      sources: new Set(expressed.map((r) => r.source_id)).size,
    };
  });
}

/** Per source: its rows, categories, side of the split, in-sample and held-out median |error|
 *  (LOSO for a fit source, the unseen error for an unseen one). */
function perSource(rows) {
  const ids = [...new Set(rows.map((r) => r.source_id))].sort();
  return ids.map((id) => {
    const mine = rows.filter((r) => r.source_id === id && r.errorPct !== undefined);
    const unseen = mine.length > 0 && mine[0].unseen;
    const held = unseen ? mine.map((r) => r.errorPct)
      : mine.filter((r) => r.losoPct !== undefined).map((r) => r.losoPct);
    return { source: id, rows: mine.length, categories: [...new Set(mine.map(group))].sort(),
             split: unseen ? 'unseen' : 'fit', in_sample_median_abs_error_pct: absMedian(mine.map((r) => r.errorPct)),
             held_out_median_abs_error_pct: absMedian(held) };
  });
}

const pad = (s, n) => String(s).padEnd(n).slice(0, n);

function rowLine(r) {
  if (r.error !== undefined) return `${pad(r.id, 52)} ${pad(r.category, 20)} ERROR ${r.error}`;
  const pct = (x) => (x === undefined ? '' : `${(x >= 0 ? '+' : '') + x.toFixed(1)}%`).padStart(9);
  return `${pad(r.id, 52)} ${pad(r.category, 20)} `
    + `${Number(r.measured).toPrecision(5).padStart(11)} ${Number(r.predicted).toPrecision(5).padStart(11)} `
    + `${pct(r.errorPct)} ${pct(r.losoPct)}  ${r.unseen ? 'unseen' : 'fit'}${r.ambiguous ? ' (ambiguous)' : ''}`;
}

function summaryLines(rows, all) {
  const lines = ['per category (median |error|; LOSO: each fit source predicted by constants fitted '
    + 'without it; unseen: sources no fit reads; coverage = rows expressed / rows in the data):'];
  lines.push(`  ${pad('category', 18)} ${'LOSO'.padStart(7)} ${'n'.padStart(4)} ${'unseen'.padStart(7)} `
             + `${'n'.padStart(4)} ${'in-sample'.padStart(10)} ${'n'.padStart(4)} ${'coverage'.padStart(9)} `
             + `${'sources'.padStart(8)} ${'goal'.padStart(5)}`);
  for (const s of summary(rows, all)) {
    lines.push(`  ${pad(s.category, 18)} ${fmtPct(s.loso_median_abs_error_pct).padStart(7)} `
               + `${String(s.loso_n).padStart(4)} ${fmtPct(s.unseen_median_abs_error_pct).padStart(7)} `
               + `${String(s.unseen_n).padStart(4)} ${fmtPct(s.in_sample_median_abs_error_pct).padStart(10)} `
               + `${String(s.in_sample_n).padStart(4)} ${(100 * s.coverage).toFixed(0).padStart(8)}% `
               + `${String(s.sources).padStart(8)} ${(s.goal_pct ? `${s.goal_pct}%` : '–').padStart(5)}`);
  }
  return lines;
}

function sourceLines(rows) {
  const lines = ['per source (held out = LOSO for a fit source, the unseen error for an unseen one):'];
  lines.push(`  ${pad('source', 66)} ${pad('split', 6)} ${'rows'.padStart(4)} ${'in-sample'.padStart(10)} `
             + `${'held out'.padStart(9)}  categories`);
  for (const s of perSource(rows)) {
    lines.push(`  ${pad(s.source, 66)} ${pad(s.split, 6)} ${String(s.rows).padStart(4)} `
               + `${fmtPct(s.in_sample_median_abs_error_pct).padStart(10)} `
               + `${fmtPct(s.held_out_median_abs_error_pct).padStart(9)}  ${s.categories.join(', ')}`);
  }
  return lines;
}

function report(all, rows) {
  const lines = [`${pad('id', 52)} ${pad('category', 20)} ${'measured'.padStart(11)} `
                 + `${'predicted'.padStart(11)} ${'error'.padStart(9)} ${'LOSO'.padStart(9)}  split`];
  for (const r of rows) lines.push(rowLine(r));
  lines.push('', ...summaryLines(rows, all), '', ...sourceLines(rows), '', 'skipped:');
  for (const c of all.filter((x) => x.skip)) lines.push(`  ${pad(c.id, 52)} ${c.skip}`);
  return lines.join('\n');
}

/** In-sample evaluation of every expressible row with the constants `adviseMany` runs on. */
function run(all, adviseMany) {
  const cases = all.filter((c) => !c.skip);
  const results = evaluateMany(cases, adviseMany);
  return cases.map((c, i) => ({
    id: c.id, category: c.category, metric: c.metric, ambiguous: c.ambiguous, assumed: c.assumed,
    source_id: c.source_id, unseen: isUnseen(c.source_id), ...results[i] }));
}

function loadRows() {
  const calibration = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration.json')));
  const more = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration_more.json')));
  return allRows(calibration, more);
}

// Exported before the command runs: fit.cjs, which the LOSO report loads, requires this module.
module.exports = { run, evaluate, evaluateMany, median, report, summary, perSource, loadRows,
                   cliAdvise, cliAdviseMany, group };

if (require.main === module) {
  const cli = process.argv[2];
  if (!cli) {
    console.error('usage: node bench/calibrate.cjs build/gpu-advisor [--json] [--performance FILE] '
                  + '[--no-stack] [--no-loso]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--performance');
  const perfFile = i > 0 ? process.argv[i + 1] : path.join(__dirname, '..', 'data/performance.json');
  const noStack = process.argv.includes('--no-stack');
  const all = loadRows();
  const rows = run(all, cliAdviseMany(cli, ['--performance', perfFile], { noStack }));
  if (!process.argv.includes('--no-loso')) {
    // Leave-one-source-out (bench/fit.cjs): each fit source's rows on constants fitted without it.
    const { losoErrors } = require('./fit.cjs');
    const loso = losoErrors(all.filter((r) => !r.skip), { cli, perfFile, noStack });
    for (const r of rows) if (loso.has(r.id)) r.losoPct = loso.get(r.id);
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, summary: summary(rows, all), sources: perSource(rows) }, null, 1));
  } else {
    console.log(report(all, rows));
  }
}
