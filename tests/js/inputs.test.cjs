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

// Chinese numerals (issue 29 item 5): below 10,000, with 万 / 亿 after them as units. Mixed
// colloquial forms stay refused, as "5万5" is.
expect('三千亿', null, 3e11);
expect('３千亿', null, 3e11);
expect('３０００亿', null, 3e11);
expect('三千', null, 3000);
expect('两千', null, 2000);
expect('十二', null, 12);
expect('二十', null, 20);
expect('一百五十', null, 150);
expect('三千零五', null, 3005);
expect('五万', null, 5e4);
expect('七万', null, 7e4);
expect('三百亿', null, 3e10);
expect('两万亿', null, 2e12);
expect('三五', null, 'unreadable');
expect('百', null, 'unreadable');
expect('千百', null, 'unreadable');
expect('3千万亿', null, 3e15);
expect('五万五', null, 'unreadable');
expect('一万五千', null, 'unreadable');
expect('四千多', null, 'unreadable');

// Money (issue 25 item 3): a field in yuan (schema unit "cny": the budget, the price overrides)
// reads what people type for an amount; anything ambiguous is refused, never guessed.
const MONEY = { money: true };
expect('¥50,000', MONEY, 50000);
expect('￥5万', MONEY, 50000);
expect('¥ 5万', MONEY, 50000);
expect('50000元', MONEY, 50000);
expect('5万元', MONEY, 50000);
expect('5万块', MONEY, 50000);
expect('50k', MONEY, 50000);
expect('50K', MONEY, 50000);
expect('1.2M', MONEY, 1200000);
expect('¥1.2M', MONEY, 1200000);
expect('2千', MONEY, 2000);
expect('3千万', MONEY, 3e7);
expect('2百万元', MONEY, 2e6);
expect('RMB 80,000', MONEY, 80000);
expect('CNY50000', MONEY, 50000);
expect('１２，０００元', MONEY, 12000);
expect('0.65元', MONEY, 0.65);
expect('50000', MONEY, 50000);
expect('$50', MONEY, 'not_cny');               // another currency is refused, not converted
expect('50美元', MONEY, 'not_cny');
expect('USD 7,000', MONEY, 'not_cny');
expect('5万', MONEY, 50000);
expect('五万', MONEY, 50000);
expect('五万元', MONEY, 50000);
expect('¥５万', MONEY, 50000);
expect('５０，０００元', MONEY, 50000);
expect('5万5', MONEY, 'unreadable');           // colloquial 55,000: ambiguous, refused
expect('1.2m', MONEY, 'unreadable');           // milli or million: refused
expect('5w', MONEY, 'unreadable');
expect('¥', MONEY, 'unreadable');
expect('元', MONEY, 'unreadable');
expect('50,00元', MONEY, 'unreadable');
expect('¥5', null, 'unreadable');              // a yuan sign only where the field is money
expect('5万元', null, 'unreadable');

// Durations (issue 25 item 2): a field in hours (schema unit "hours": the deadline) reads hours,
// days and weeks as people type them.
const HOURS = { hours: true };
expect('36', HOURS, 36);
expect('36h', HOURS, 36);
expect('36小时', HOURS, 36);
expect('60天', HOURS, 1440);
expect('1.5天', HOURS, 36);
expect('2周', HOURS, 336);
expect('两周', HOURS, 336);                    // Chinese numerals below 10,000 are read
expect('2个月', HOURS, 1460);                  // a month is 730 h (8,760 / 12), as the core's costs
expect('2 months', HOURS, 1460);
expect('1 month', HOURS, 730);
expect('两个月', HOURS, 1460);
expect('１个月', HOURS, 730);
expect('3 weeks', HOURS, 504);
expect('3wk', HOURS, 504);
expect('２周', HOURS, 336);
expect('十天', HOURS, 240);
expect('2个月', null, 'unreadable');
expect('3 days', HOURS, 72);
expect('2 weeks', HOURS, 336);
expect('１０ｄ', HOURS, 240);
expect('60天', null, 'unreadable');            // a duration only where the field is in hours
expect('2周', MONEY, 'unreadable');

// Cadences (issue 25 item 2): a field in runs per month (schema unit "per_month") reads how
// often a job runs as people say it; a week is 52/12 a month, a day 365/12.
const PER_MONTH = { perMonth: true };
const near = (text, want) => {
  const got = parseNumberInput(text, PER_MONTH);
  if (got.error || Math.abs(got.value - want) > 1e-9 * want) { failed++; console.log('FAIL ' + text + ': ' + JSON.stringify(got) + ' want ' + want); }
};
near('4', 4);
near('每周一次', 52 / 12);
near('每周', 52 / 12);
near('每周2次', 2 * 52 / 12);
near('每周两次', 2 * 52 / 12);
near('2次/周', 2 * 52 / 12);
near('2/周', 2 * 52 / 12);
near('每天', 365 / 12);
near('每月4次', 4);
near('每季度一次', 1 / 3);
near('weekly', 52 / 12);
near('3 per week', 3 * 52 / 12);
near('2 times a month', 2);
near('1/day', 365 / 12);
expect('每周一次', null, 'unreadable');        // a cadence only where the field is one
expect('每周x次', PER_MONTH, 'unreadable');
expect('fortnightly', PER_MONTH, 'unreadable');

console.log('inputs: ' + (failed ? failed + ' failed' : 'all passed'));
process.exit(failed ? 1 : 0);
