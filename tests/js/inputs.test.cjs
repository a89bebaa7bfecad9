#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The number boxes read what a Chinese or English user types (issue 10 item 5): web/js/format.js
// parseNumberInput, run here without a browser.  node tests/js/inputs.test.cjs
'use strict';

const { loadWebModules } = require('./web_module.cjs');

const { parseNumberInput } = loadWebModules(['js/format.js']);

let failed = 0;
function expect(raw, opts, want) {
  const got = parseNumberInput(raw, opts);
  const ok = typeof want === 'number' ? got.value === want : got.error === want;
  if (!ok) failed += 1;
  console.log((ok ? 'ok   ' : 'FAIL ') + JSON.stringify(raw) + (opts ? ' ' + JSON.stringify(opts) : '') + ' -> ' + JSON.stringify(got) + (ok ? '' : ', expected ' + JSON.stringify(want)));
}

const SHARE = { fraction: true };
expect('60%', SHARE, 0.6);
expect('６０％', SHARE, 0.6);
expect('7.5%', SHARE, 0.075);
expect('60%', null, 'percent_not_share');      // a count is not a share: the field says so
expect('0.6', SHARE, 0.6);
expect('3000亿', null, 3e11);
expect('３０００亿', null, 3e11);
expect('7万', null, 7e4);
expect('７万', null, 7e4);
expect('1.5万', null, 15000);
expect('3.3万', null, 33000);
expect('2万亿', null, 2e12);
expect('300B', null, 3e11);
expect('300 B', null, 3e11);
expect('１，２３４', null, 1234);
expect('1,234', null, 1234);
expect('1,234,567.5', null, 1234567.5);
expect('１２３４．５', null, 1234.5);
expect('2e9', null, 2e9);
expect(' 4096 ', null, 4096);
expect('-3', null, -3);
expect('12abc', null, 'unreadable');
expect('亿', null, 'unreadable');
expect('1,2,3', null, 'unreadable');
expect('', null, 'empty');
expect('1e400', null, 'unreadable');
expect('%', SHARE, 'unreadable');

console.log('inputs: ' + (failed ? failed + ' failed' : 'all passed'));
process.exit(failed ? 1 : 0);
