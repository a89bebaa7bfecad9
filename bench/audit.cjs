#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Which sources support each modelling constant of the default profiles (the stacks a request
// runs on when it names none: data/performance.json `default_for`). For each constant the rows
// of the fit sources are replayed twice, with the constant and with its alternative (the value
// the term would have without the effect it models), set in the default profile and in the named
// stack it mirrors (default_finetune is hf_peft's code path; the sources name hf_peft); a source
// SUPPORTS the constant when its rows that move come out closer to their measurements with it
// (median |error| at least SUPPORT_MARGIN_PCT lower). A constant of a default profile needs two
// independent sources; one that only one source supports belongs in the named stack of that
// source.
//
// Usage: node bench/audit.cjs build/gpu-advisor [--performance FILE]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { evaluateMany, loadRows, cliAdviseMany, median } = require('./calibrate.cjs');
const { isUnseen } = require('./cases.cjs');

// A row "moves" when its prediction changes by more than this; a source supports (or refutes)
// a constant when its moved rows' median |error| differs by more than the margin.
const MOVED_PCT = 0.5;
const SUPPORT_MARGIN_PCT = 1;

/** Modelling constants of the default profiles and the value each would have without its term. */
const ALTERNATIVES = [
  // Kept in the named hf_peft stack (one source supports it), listed to show its evidence there.
  { stacks: ['hf_peft'], field: 'kbit_fp32_other_weights', without: false,
    what: 'QLoRA: unquantised weights and the residual stream kept in fp32' },
  { stacks: ['default_finetune', 'hf_peft'], field: 'logits_bytes_per_element', without: 4,
    what: 'eager loss keeps fp32 copies of the logits (14 bytes; fused: 4)' },
  { stacks: ['default_finetune', 'hf_peft'], field: 'selective_keep_fraction', without: 1,
    what: 'selective checkpointing keeps half a layer' },
  { stacks: ['default_finetune', 'hf_peft'], field: 'dispatch_us_per_op', without: 0,
    what: 'eager launch cost per operator' },
  { stacks: ['default_finetune', 'hf_peft'], field: 'activation_traffic_passes', without: 0,
    what: 'memory-bound passes between the GEMMs (eager)' },
  { stacks: ['fsdp_eager'], field: 'logits_bytes_per_element', without: 4,
    what: 'eager loss keeps fp32 copies of the logits (12 bytes; fused: 4)' },
  { stacks: ['fsdp_eager'], field: 'dispatch_us_per_op', without: 0,
    what: 'eager launch cost per operator' },
  { stacks: ['fsdp_eager'], field: 'activation_traffic_passes', without: 0,
    what: 'memory-bound passes between the GEMMs (eager)' },
  // PyTorch's DTensor TP, which torchtitan runs with or without torch.compile.
  { stacks: ['fsdp_eager', 'fsdp_compile'], field: 'tp_keeps_gathered_inputs', without: false,
    what: 'PyTorch TP keeps the gathered inputs of column-parallel layers' },
  { stacks: ['fsdp_eager', 'fsdp_compile'], field: 'zero3_gather_once_per_step_with_pp', without: false,
    what: 'FSDP with pipelines gathers weights once per step' },
];

/** performance.json with one field of the named stacks set to `value`. */
function withField(perf, { stacks, field }, value) {
  const p = JSON.parse(JSON.stringify(perf));
  for (const id of stacks) p.stacks.find((s) => s.id === id)[field].value = value;
  return p;
}

function errorsWith(cli, perf, rows, tmp) {
  const file = path.join(tmp, 'performance.json');
  fs.writeFileSync(file, JSON.stringify(perf));
  return evaluateMany(rows, cliAdviseMany(cli, ['--performance', file]));
}

/** Per source: median |error| of its moved rows with and without the constant. */
function verdicts(rows, withIt, without) {
  const bySource = new Map();
  rows.forEach((r, i) => {
    const a = withIt[i], b = without[i];
    if (a.predicted === undefined || b.predicted === undefined) return;
    if (Math.abs(a.predicted / b.predicted - 1) * 100 <= MOVED_PCT) return;
    if (!bySource.has(r.source_id)) bySource.set(r.source_id, { withIt: [], without: [] });
    bySource.get(r.source_id).withIt.push(Math.abs(a.errorPct));
    bySource.get(r.source_id).without.push(Math.abs(b.errorPct));
  });
  return [...bySource.entries()].map(([source, e]) => {
    const gain = median(e.without) - median(e.withIt);
    const verdict = gain > SUPPORT_MARGIN_PCT ? 'supports' : gain < -SUPPORT_MARGIN_PCT ? 'refutes' : 'neutral';
    return { source, rows: e.withIt.length, with_pct: median(e.withIt), without_pct: median(e.without), verdict };
  });
}

function main() {
  const cli = process.argv[2];
  const i = process.argv.indexOf('--performance');
  const perfFile = i > 0 ? process.argv[i + 1] : path.join(__dirname, '..', 'data/performance.json');
  const perf = JSON.parse(fs.readFileSync(perfFile));
  const rows = loadRows().filter((r) => !r.skip && !isUnseen(r.source_id));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  const base = errorsWith(cli, perf, rows, tmp);
  for (const alt of ALTERNATIVES) {
    const current = perf.stacks.find((s) => s.id === alt.stacks[0])[alt.field].value;
    const without = errorsWith(cli, withField(perf, alt, alt.without), rows, tmp);
    const v = verdicts(rows, base, without);
    const support = v.filter((x) => x.verdict === 'supports').length;
    console.log(`${alt.stacks.join(' + ')}.${alt.field} = ${current} (without: ${alt.without}): ${alt.what}`);
    const refuted = v.filter((x) => x.verdict === 'refutes').length;
    // No row moving: the value rests on the library code its basis cites, not on any table.
    const verdict = !v.length ? 'no fit row measures it (rests on the code its basis cites)'
      : `supported by ${support}, refuted by ${refuted} source${refuted === 1 ? '' : 's'}`
        + `${support < 2 ? ' -> fewer than two: belongs in the named stack of its source' : ''}`;
    console.log(`  ${verdict}`);
    for (const x of v) {
      console.log(`    ${x.verdict.padEnd(8)} ${x.source.padEnd(66)} ${String(x.rows).padStart(3)} rows `
                  + `|error| ${x.with_pct.toFixed(1)}% with, ${x.without_pct.toFixed(1)}% without`);
    }
  }
  fs.rmSync(tmp, { recursive: true });
}

if (require.main === module) main();
