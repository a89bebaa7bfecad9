// SPDX-License-Identifier: MIT
// Golden results: every <case>.request.json in this folder goes through the CLI and its result
// is compared with <case>.result.json key by key and number by number (relative 1e-9).
// Usage: node check.cjs <gpu-advisor CLI> [golden dir] [--update]
//   --update (or GOLDEN_UPDATE=1) rewrites the .result.json files from the CLI: do it only for
//   a deliberate change of the answers, and say in the commit which figures moved and why.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { differences } = require('../js/json_diff.cjs');

const args = process.argv.slice(2);
const update = args.includes('--update') || process.env.GOLDEN_UPDATE === '1';
const [cli, dir = __dirname] = args.filter((a) => a !== '--update');
if (!cli) {
  console.error('usage: check.cjs <gpu-advisor CLI> [golden dir] [--update]');
  process.exit(2);
}

let passed = 0;
let failed = 0;
const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.request.json')).sort();
for (const file of cases) {
  const name = file.replace(/\.request\.json$/, '');
  const goldenPath = path.join(dir, `${name}.result.json`);
  const run = spawnSync(cli, ['advise', path.join(dir, file)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  let result;
  try {
    result = JSON.parse(run.stdout);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: the CLI printed no JSON (exit ${run.status}) ${run.stderr}`);
    continue;
  }
  if (run.status !== 0 || result.error) {
    failed++;
    console.log(`FAIL ${name}: a golden request must succeed, got ${JSON.stringify(result.error)}`);
    continue;
  }
  if (update) {
    fs.writeFileSync(goldenPath, `${JSON.stringify(result, null, 1)}\n`);
    passed++;
    console.log(`wrote ${name}.result.json`);
    continue;
  }
  if (!fs.existsSync(goldenPath)) {
    failed++;
    console.log(`FAIL ${name}: no ${name}.result.json (run with --update to create it)`);
    continue;
  }
  const diff = differences(JSON.parse(fs.readFileSync(goldenPath, 'utf8')), result);
  if (diff.length === 0) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${diff.length} differences (golden vs now):`);
    for (const d of diff.slice(0, 20)) console.log(`       ${d}`);
  }
}
if (cases.length === 0) {
  failed++;
  console.log(`FAIL no golden cases in ${dir}`);
}
console.log(`golden: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
