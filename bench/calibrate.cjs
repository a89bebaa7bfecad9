#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Calibration report: runs every calibration case the API can express through the CLI and
// prints measured vs predicted, the error, and the median |error| per category. Not a test:
// nothing here passes or fails on a threshold (docs/speed.md reports the figures).
//
// Usage: node bench/calibrate.cjs build/gpu-advisor [--json]
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { allCases } = require('./cases.cjs');

function advise(cli, request) {
  const out = execFileSync(cli, ['advise', '-'], { input: JSON.stringify(request) });
  const result = JSON.parse(out.toString());
  if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
  return result;
}

/** Runs one case through `adviseFn`; returns {predicted} or {error}. */
function predict(c, adviseFn) {
  try {
    let request = c.request;
    if (c.pre) request = request(adviseFn(c.pre));
    const result = adviseFn(request);
    if (c.request2) {
      const r2 = adviseFn(c.request2);
      return { predicted: c.read(result, request, r2, c.request2) };
    }
    return { predicted: c.read(result, request) };
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

function report(cases, rows) {
  const pad = (s, n) => String(s).padEnd(n).slice(0, n);
  const lines = [];
  lines.push(`${pad('id', 44)} ${pad('category', 21)} ${pad('metric', 30)} ${'measured'.padStart(11)} `
             + `${'predicted'.padStart(11)} ${'error'.padStart(8)}`);
  for (const r of rows) {
    if (r.error !== undefined && r.predicted === undefined) {
      lines.push(`${pad(r.id, 44)} ${pad(r.category, 21)} ${pad(r.metric, 30)} ERROR ${r.error}`);
      continue;
    }
    lines.push(`${pad(r.id, 44)} ${pad(r.category, 21)} ${pad(r.metric, 30)} `
               + `${r.measured.toPrecision(5).padStart(11)} ${r.predicted.toPrecision(5).padStart(11)} `
               + `${(r.errorPct >= 0 ? '+' : '') + r.errorPct.toFixed(1)}%`.padStart(9)
               + (r.ambiguous ? '  (ambiguous)' : ''));
  }
  lines.push('');
  lines.push('per category: median |error|, count (cases flagged ambiguous in the source included)');
  const cats = [...new Set(rows.map((r) => r.category))].sort();
  for (const cat of cats) {
    const errs = rows.filter((r) => r.category === cat && r.errorPct !== undefined)
      .map((r) => Math.abs(r.errorPct));
    lines.push(`  ${pad(cat, 24)} median |error| ${median(errs).toFixed(1).padStart(6)}%   n=${errs.length}`);
  }
  lines.push('');
  lines.push('skipped:');
  for (const c of cases.filter((x) => x.skip)) lines.push(`  ${pad(c.id, 44)} ${c.skip}`);
  return lines.join('\n');
}

function run(cases, adviseFn) {
  const rows = [];
  for (const c of cases) {
    if (c.skip) continue;
    const p = predict(c, adviseFn);
    const row = { id: c.id, category: c.category, metric: c.metric, measured: c.measured,
                  ambiguous: c.ambiguous, assumed: c.assumed, ...p };
    if (p.predicted !== undefined) row.errorPct = (p.predicted / c.measured - 1) * 100;
    rows.push(row);
  }
  return rows;
}

if (require.main === module) {
  const cli = process.argv[2];
  if (!cli) {
    console.error('usage: node bench/calibrate.cjs build/gpu-advisor [--json]');
    process.exit(2);
  }
  const calibration = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration.json')));
  const cases = allCases(calibration);
  const rows = run(cases, (req) => advise(cli, req));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows, null, 1));
  } else {
    console.log(report(cases, rows));
  }
}

module.exports = { run, predict, median, report };
