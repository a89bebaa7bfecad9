#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// No Catch2 test name holds a ';': catch_discover_tests reads the names as a CMake list, so such
// a test is registered under the part before the ';', matches nothing and never runs (ten did).
//   node tests/js/test_names.cjs <repo root>
'use strict';

const fs = require('fs');
const path = require('path');

const root = process.argv[2] || path.join(__dirname, '../..');
const dirs = ['tests', 'tests/validation'];
let bad = 0;
let seen = 0;
for (const dir of dirs) {
  for (const f of fs.readdirSync(path.join(root, dir)).filter((x) => x.endsWith('.cpp'))) {
    const text = fs.readFileSync(path.join(root, dir, f), 'utf8');
    for (const m of text.matchAll(/TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"/g)) {
      seen += 1;
      if (m[1].includes(';')) { bad += 1; console.log('FAIL ' + dir + '/' + f + ': "' + m[1] + '" has a ;'); }
    }
  }
}
console.log('test names: ' + seen + ' checked, ' + bad + ' with a ;');
process.exit(bad || !seen ? 1 : 0);
