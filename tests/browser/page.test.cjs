#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// End-to-end test of the shipped page in headless Chromium.
//
//   node tests/browser/page.test.cjs <distDir> <native gpu-advisor CLI> <screenshotDir>
//
// Opens <distDir>/gpu-advisor.html from file://, drives the inputs, and after every change runs
// the request the page sent (window.gpuAdvisor.lastRequest) through the native CLI: every figure
// on the page carries its raw value (data-bytes / data-value) and its place in the result
// (data-field, a JSON pointer; "@id" picks the option whose gpu is id), and each must equal the
// CLI's. Also checks located errors, the language switch, the URL hash, that the page makes no
// network request, and that a missing wasm module gives an error banner rather than a blank page.
// The speed, power, cost and capacity panels are driven too: a pinned training run, an inference
// target, an edited price (the override reaches the request and the CLI agrees with the new
// figures), a CSV with text in a number column (the error names the row), and screenshots of the
// speed, cost and capacity panels in both languages.
// Then the checks in answer.checks.cjs (the answer card above the fold at 1366x768 and 390x844,
// reasons, pinning the recommended plan, no-plan, goal bar, scenario presets, scatter, side by
// side, folding, CSV), rerender.checks.cjs (a re-render patched into the page equals a fresh
// render; no GPU row on screen left stale by the run), report.checks.cjs (the print report as an A4 PDF of 1-3 pages, rendered
// with pdftoppm), hostile.checks.cjs (broken and hostile #req= links, prototype keys), links.checks.cjs
// (a link's unknown values, schema version and address kept) and
// validation.checks.cjs (the validation scripts, the .sh bundle, the read-back); help.checks.cjs (help on every
// field in both languages, the advanced groups folded, no code on the Chinese page, toasts, the icon).
// Prints one line per check and ends with "page: N passed, M failed".
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');
const { loadWebModules } = require('../js/web_module.cjs');

const [distArg, cliArg, shotArg] = process.argv.slice(2);
if (!distArg || !cliArg || !shotArg) {
  console.error('usage: node tests/browser/page.test.cjs <distDir> <gpu-advisor CLI> <screenshotDir>');
  process.exit(2);
}
const distDir = path.resolve(distArg);
const cli = path.resolve(cliArg);
const shotDir = path.resolve(shotArg);
const singleFile = path.join(distDir, 'gpu-advisor.html');
const siteDir = path.join(distDir, 'site');
for (const f of [singleFile, path.join(siteDir, 'index.html'), cli]) {
  if (!fs.existsSync(f)) {
    console.error('page test: missing ' + f + ' (run scripts/build.sh first)');
    process.exit(1);
  }
}
fs.mkdirSync(shotDir, { recursive: true });

let chromium;
try {
  ({ chromium } = require('playwright-core'));
} catch (e) {
  console.error('page test: playwright-core is not installed (npm ci): ' + e.message);
  process.exit(1);
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const GIB = 1024 ** 3;

// ------------------------------------------------------------------ bookkeeping

let passed = 0;
let failed = 0;
const networkViolations = [];
const pageErrors = [];

async function check(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log('ok   ' + name);
  } catch (e) {
    failed += 1;
    console.log('FAIL ' + name + '\n     ' + String(e && e.stack || e).split('\n').slice(0, 6).join('\n     '));
  }
}

/**
 * A screenshot of the whole page, every section drawn: a section's body off screen is skipped by
 * the browser until it nears the view (content-visibility: auto, web/style.css), which a
 * full-page capture does not do; shown here for the picture, then left to the page again.
 */
async function wholePageShot(page, file) {
  const bodies = '#panels .panel-body';
  await page.evaluate((sel) => {
    window.scrollTo(0, 0);
    document.getElementById('inputs').scrollTop = 0;
    document.querySelectorAll(sel).forEach((b) => b.style.setProperty('content-visibility', 'visible'));
  }, bodies);
  await page.screenshot({ path: file, fullPage: true });
  await page.evaluate((sel) => document.querySelectorAll(sel).forEach((b) => b.style.removeProperty('content-visibility')), bodies);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// ------------------------------------------------------------------ native CLI

function native(request) {
  const r = spawnSync(cli, ['advise', '-'], { input: JSON.stringify(request), encoding: 'utf8', timeout: 30000 });
  if (r.error) throw new Error('cannot run ' + cli + ': ' + r.error.message);
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch (e) {
    throw new Error('CLI printed no JSON (exit ' + r.status + '): ' + r.stdout.slice(0, 200) + r.stderr.slice(0, 200));
  }
  if (r.status === 0 && json.error) throw new Error('CLI exit 0 with an error envelope');
  if (r.status !== 0 && !json.error) throw new Error('CLI exit ' + r.status + ' without an error envelope');
  return json;
}

/** JSON pointer into a result; a segment "@id" picks the array element whose .gpu is id. */
function resolve(doc, pointer) {
  let o = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (o === null || o === undefined) return undefined;
    if (seg.startsWith('@') && Array.isArray(o)) o = o.find((x) => x && x.gpu === seg.slice(1));
    else o = o[seg];
  }
  return o;
}

function close(a, b) {
  if (a === b) return true;
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function deepClose(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (!close(a, b)) throw new Error(where + ': page ' + a + ' vs CLI ' + b);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (a !== b) throw new Error(where + ': page ' + JSON.stringify(a) + ' vs CLI ' + JSON.stringify(b));
    return;
  }
  const keys = new Set(Object.keys(a).concat(Object.keys(b)));
  for (const k of keys) deepClose(a[k], b[k], where + '/' + k);
}

// ------------------------------------------------------------------ page helpers

function watch(page, label) {
  page.on('request', (req) => {
    const url = req.url();
    // data: URLs never leave the machine (the Emscripten loader fetch()es its own data: URI).
    if (!url.startsWith('file://') && !url.startsWith('data:')) networkViolations.push(label + ': ' + req.method() + ' ' + url);
  });
  page.on('pageerror', (e) => pageErrors.push(label + ': ' + e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(label + ': console.error: ' + m.text().slice(0, 300));
  });
}

/**
 * Waits for the first result. The deep-dive panels start folded; unless opts.folded, every panel
 * is unfolded so that all figures are visible (and compared with the CLI).
 */
async function waitReady(page, opts) {
  await page.waitForFunction(() => {
    const s = document.body && document.body.getAttribute('data-state');
    return s === 'load-error' || (window.gpuAdvisor && window.gpuAdvisor.runs > 0 && !window.gpuAdvisor.pending);
  }, null, { timeout: 30000 });
  const state = await page.evaluate(() => document.body.getAttribute('data-state'));
  if (state === 'load-error') {
    const detail = await page.evaluate(() => document.getElementById('load-error').textContent);
    throw new Error('the page shows its load-error banner: ' + detail.trim());
  }
  if (!(opts && opts.folded)) await page.evaluate(() => window.gpuAdvisor.expandAll());
}

/** Waits until the page has recomputed with a request for which predicate(request, arg) holds. */
async function settle(page, predicate, arg) {
  await page.waitForFunction(([src, a]) => {
    const g = window.gpuAdvisor;
    if (!g || g.pending || !g.lastRequest) return false;
    // eslint-disable-next-line no-new-func
    return (0, eval)('(' + src + ')')(g.lastRequest, a);
  }, [predicate.toString(), arg === undefined ? null : arg], { timeout: 10000 });
}

async function lastRequest(page) {
  return page.evaluate(() => window.gpuAdvisor.lastRequest);
}

/** Every figure on the page equals the CLI's; returns how many were compared. */
async function compareWithCli(page, label) {
  const request = await lastRequest(page);
  const expected = native(request);
  assert(!expected.error, label + ': CLI rejected the page\'s request: ' + JSON.stringify(expected.error));
  const state = await page.evaluate(() => ({
    result: window.gpuAdvisor.lastResult,
    error: window.gpuAdvisor.lastError,
    figures: Array.from(document.querySelectorAll('#panels [data-field]'))
      .filter((n) => n.getClientRects().length > 0)
      .map((n) => ({ field: n.dataset.field, bytes: n.dataset.bytes, value: n.dataset.value, text: n.textContent })),
    optionRows: document.querySelectorAll('#panel-options tbody tr').length,
    warningItems: document.querySelectorAll('#panel-warnings li.warning').length,
  }));
  assert(!state.error, label + ': the page shows an error: ' + JSON.stringify(state.error));
  // The sections this page renders must be the CLI's exactly (other sections belong to other
  // panels and are compared by their own tests; wasm_matches_native covers the whole result).
  for (const section of ['/memory', '/model/params', '/warnings', '/catalog', '/training', '/inference', '/interconnect', '/power', '/cost', '/capacity']) {
    deepClose(resolve(state.result, section), resolve(expected, section), label + ': result' + section);
  }

  const fields = new Set(state.figures.map((f) => f.field));
  const required = ['/memory/per_gpu_bytes', '/memory/band_bytes/low', '/memory/band_bytes/high', '/memory/fits']
    .concat(['weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'].map((t) => '/memory/breakdown_bytes/' + t))
    .concat(expected.options.map((o) => '/options/@' + o.gpu + '/min_count'))
    .concat(expected.options.map((o) => '/options/@' + o.gpu + '/verdict'));
  if (expected.memory.fits !== null) required.push('/memory/headroom_bytes', '/memory/gpu_memory_bytes');
  if (expected.training && expected.training.tokens_per_second !== null) {
    required.push('/training/tokens_per_second', '/training/mfu', '/training/step_time_s', '/training/hours', '/training/gpu_hours',
      '/training/breakdown/compute_s', '/training/breakdown/exposed_communication_s', '/training/breakdown/pipeline_bubble_s');
  }
  if (expected.inference && expected.inference.decode_tokens_per_second !== null) {
    required.push('/inference/decode_tokens_per_second', '/inference/per_user_tokens_per_second', '/inference/time_to_first_token_s', '/inference/max_concurrency');
  }
  if (expected.power) required.push('/power/office_verdict/level', '/power/server_watts_full_load', '/power/server_watts_typical', '/power/servers', '/power/racks_needed', '/power/rack_kw', '/power/pue', '/power/facility_kw');
  if (expected.cost) {
    required.push('/cost/break_even_utilization', '/cost/seventy_percent_rule_holds');
    for (const k of ['buy', 'rent', 'rent_reserved', 'hybrid']) {
      if (expected.cost.options[k]) required.push('/cost/options/' + k + '/lifetime_cny');
    }
  }
  if (expected.capacity) expected.capacity.by_gpu_type.forEach((g, i) => required.push('/capacity/by_gpu_type/' + i + '/cards_needed'));
  for (const r of required) assert(fields.has(r), label + ': no figure shown for ' + r);
  assert(state.optionRows === expected.options.length,
    label + ': ' + state.optionRows + ' GPU rows shown, the CLI has ' + expected.options.length);
  assert(state.warningItems === expected.warnings.length,
    label + ': ' + state.warningItems + ' warnings shown, the CLI has ' + expected.warnings.length);

  for (const f of state.figures) {
    const want = resolve(expected, f.field);
    assert(want !== undefined, label + ': ' + f.field + ' is not in the CLI result');
    if (f.bytes !== undefined) {
      assert(close(Number(f.bytes), want), label + ': ' + f.field + ' data-bytes ' + f.bytes + ', CLI ' + want);
      const m = f.text.replace(/[,\s]/g, '').match(/-?\d+(\.(\d+))?/);
      assert(m, label + ': ' + f.field + ' shows no number: "' + f.text + '"');
      const decimals = m[2] ? m[2].length : 0;
      const shown = Number(m[0]);
      const exact = Math.abs(want) / GIB;
      assert(Math.abs(shown - exact) <= 0.5 * 10 ** -decimals + 1e-9,
        label + ': ' + f.field + ' shows "' + f.text.trim() + '", CLI ' + exact.toFixed(4) + ' GiB');
    } else {
      const got = f.value === 'null' ? null : f.value;
      const ok = typeof want === 'number' ? close(Number(got), want) : String(want) === String(got);
      assert(ok, label + ': ' + f.field + ' data-value ' + got + ', CLI ' + JSON.stringify(want));
      if (typeof want === 'number' && Number.isInteger(want) && f.field.match(/count|\/tp$|\/pp$|\/dp$|\/ep$|servers|zero$/)) {
        assert(Number(f.text.replace(/[,\s]/g, '')) === want, label + ': ' + f.field + ' shows "' + f.text + '", CLI ' + want);
      }
    }
  }
  return state.figures.length;
}

function nativeCatalog() {
  const r = spawnSync(cli, ['catalog'], { encoding: 'utf8', timeout: 30000 });
  if (r.error || r.status !== 0) throw new Error('gpu-advisor catalog failed: ' + (r.error ? r.error.message : r.stderr));
  return JSON.parse(r.stdout);
}

/**
 * The form follows the core's form schema: the task radios are catalog().tasks, each select in a
 * .field[data-path] offers the schema's choices, and an input whose schema tasks leave out the
 * current task is hidden.
 */
async function checkFormFollowsSchema(page, catalog, label) {
  const s = await page.evaluate(() => ({
    task: (document.querySelector('#task-group input:checked') || {}).value,
    tasks: Array.from(document.querySelectorAll('#task-group input')).map((n) => n.value),
    fields: Array.from(document.querySelectorAll('#inputs .field[data-path]')).map((f) => {
      const sel = f.querySelector('select[data-key]:not([data-custom])');
      return { path: f.dataset.path, hidden: Boolean(f.closest('[hidden]')),
        options: sel ? Array.from(sel.options).map((o) => o.value).filter((v) => v !== '') : null };
    }),
  }));
  assert(JSON.stringify(s.tasks) === JSON.stringify(catalog.tasks.map((x) => x.id)), label + ': task radios ' + s.tasks);
  const schema = {};
  catalog.form.forEach((e) => { schema[e.path] = e; });
  let selects = 0;
  for (const f of s.fields) {
    const e = schema[f.path];
    if (!e) continue;
    if (f.options && Array.isArray(e.choices) && e.kind !== 'modules') {
      selects += 1;
      // A choice that depends on the task (the stack): the task's own choices.
      const choices = (e.choices_by_task && e.choices_by_task[s.task]) || e.choices;
      assert(JSON.stringify(f.options) === JSON.stringify(choices.map(String)), label + ': ' + f.path + ' offers ' + f.options + ', the schema ' + choices);
    }
    if (Array.isArray(e.tasks) && !e.tasks.includes(s.task)) assert(f.hidden, label + ': ' + f.path + ' shown for ' + s.task);
  }
  assert(selects >= 10, label + ': only ' + selects + ' selects compared with the schema');
}

async function clickTask(page, task) {
  await page.click('#task-group label:has(input[value="' + task + '"])');
  await settle(page, (r, t) => r.task === t, task);
}

async function clickModelMode(page, mode) {
  await page.click('#model-mode-group label:has(input[value="' + mode + '"])');
}

/** Types into a price-table box and commits it the way a user does (Enter). */
async function editPrice(page, key, value) {
  const box = page.locator('#panel-prices tr[data-key="' + key + '"] input.price-input').first();
  await box.fill(String(value));
  await box.press('Enter');
}

/** A figure's raw value on the page (data-value / data-bytes of the first visible [data-field]). */
async function shownValue(page, field) {
  return page.evaluate((f) => {
    const n = Array.from(document.querySelectorAll('#panels [data-field="' + f + '"]')).find((x) => x.getClientRects().length > 0);
    if (!n) return undefined;
    const v = n.dataset.bytes !== undefined ? n.dataset.bytes : n.dataset.value;
    return v === 'null' ? null : v;
  }, field);
}

async function panelShot(page, id, file) {
  await page.evaluate(() => { document.querySelector('.topbar').style.position = 'static'; });
  await page.locator('#panel-' + id).screenshot({ path: path.join(shotDir, file) });
  await page.evaluate(() => { document.querySelector('.topbar').style.position = ''; });
}

async function visible(page, selector) {
  return page.evaluate((sel) => {
    const n = document.querySelector(sel);
    return Boolean(n && n.getClientRects().length > 0);
  }, selector);
}

async function expectError(page, pointer, code, label) {
  await page.waitForFunction((p) => {
    const g = window.gpuAdvisor;
    return g && !g.pending && g.lastError && g.lastError.path === p;
  }, pointer, { timeout: 10000 });
  const request = await lastRequest(page);
  const cliAnswer = native(request);
  assert(cliAnswer.error, label + ': the CLI accepts the request the page rejected');
  const info = await page.evaluate((p) => {
    const field = document.querySelector('.field.invalid[data-path="' + p + '"]');
    const banner = document.getElementById('error-banner');
    const panels = document.getElementById('panels');
    return {
      error: window.gpuAdvisor.lastError,
      fieldShown: Boolean(field && field.getClientRects().length),
      fieldMessage: field && field.querySelector('.field-error') ? field.querySelector('.field-error').textContent : '',
      invalidControl: Boolean(field && field.querySelector('[aria-invalid="true"]')),
      bannerShown: !banner.hidden && banner.getClientRects().length > 0,
      bannerText: banner.textContent,
      panelsShown: panels.getClientRects().length > 0 && panels.textContent.trim().length > 200,
      bodyText: document.body.innerText.trim().length,
    };
  }, pointer);
  deepClose(info.error, cliAnswer.error, label + ': error envelope');
  assert(info.error.code === code, label + ': error code ' + info.error.code + ', expected ' + code);
  assert(info.fieldShown, label + ': the input for ' + pointer + ' is not highlighted');
  assert(info.invalidControl, label + ': the input for ' + pointer + ' is not aria-invalid');
  assert(info.fieldMessage.includes(info.error.message), label + ': the message next to the input lacks the core\'s text');
  assert(info.bannerShown, label + ': no error banner above the results');
  assert(info.bannerText.includes(pointer), label + ': the banner does not name ' + pointer);
  assert(info.bannerText.includes(info.error.message), label + ': the banner lacks the core\'s message');
  assert(info.panelsShown && info.bodyText > 500, label + ': the page is blank under the error');
  return info;
}

// ------------------------------------------------------------------ the test

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // bypassCSP: settle() evaluates its predicate with eval, which the single file's own policy
  // (hashes, no 'unsafe-eval') refuses; csp.checks.cjs tests that policy in contexts of its own.
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1, bypassCSP: true });
  const page = await context.newPage();
  watch(page, 'single file');
  const url = pathToFileURL(singleFile).href;
  const zh = await readStrings();

  await check('both languages have the same string keys', async () => {
    const zhKeys = Object.keys(zh['zh-CN'] || {});
    const enKeys = Object.keys(zh.en || {});
    const onlyZh = zhKeys.filter((k) => !(k in zh.en));
    const onlyEn = enKeys.filter((k) => !(k in zh['zh-CN']));
    assert(zhKeys.length > 100, 'only ' + zhKeys.length + ' Chinese strings');
    assert(!onlyZh.length && !onlyEn.length, 'only in zh-CN: ' + onlyZh.slice(0, 8) + '; only in en: ' + onlyEn.slice(0, 8));
  });

  let loaded = false;
  await check('single file loads from file:// and shows the first result', async () => {
    await page.goto(url);
    await waitReady(page);
    const s = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      panels: document.querySelectorAll('#panels .panel').length,
      footer: document.querySelector('.footer').textContent,
    }));
    assert(s.lang === 'zh-CN', 'default language is ' + s.lang + ', expected zh-CN');
    assert(s.panels >= 4, 'only ' + s.panels + ' result panels');
    assert(s.footer.includes(zh['zh-CN']['footer.local']), 'footer lacks the local-only notice');
    loaded = true;
  });
  if (!loaded) return finish(browser);

  await check('default request: figures equal the CLI\'s', async () => {
    const n = await compareWithCli(page, 'default');
    assert(n > 100, 'only ' + n + ' figures compared');
  });

  const catalog = nativeCatalog();
  await check('the form is built from the core\'s schema (tasks, choices, tasks per input); blank boxes name the value used', async () => {
    await checkFormFollowsSchema(page, catalog, 'full_finetune');
    const s = await page.evaluate(() => ({ resolved: window.gpuAdvisor.lastResult.resolved_inputs, tp: document.getElementById('in-tp').placeholder }));
    assert(s.resolved && s.resolved['/parallelism/tp'] !== undefined, 'the result names no value for /parallelism/tp');
    assert(s.tp.includes(String(s.resolved['/parallelism/tp'])), 'TP placeholder "' + s.tp + '" does not name ' + s.resolved['/parallelism/tp']);
  });

  await check('model preset change (Qwen2.5 14B) recomputes to the CLI\'s figures', async () => {
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
    await compareWithCli(page, 'preset');
  });

  await check('task LoRA: LoRA inputs shown, figures equal the CLI\'s', async () => {
    await clickTask(page, 'lora');
    assert(await visible(page, '#in-lora-rank'), 'LoRA rank input hidden');
    assert(!(await visible(page, '#in-target-users')), 'inference inputs shown for LoRA');
    assert(!(await visible(page, '#in-baseq')), 'QLoRA base quantisation shown for LoRA');
    const r = await lastRequest(page);
    assert(r.training && r.training.lora_rank !== undefined && !('base_quantization' in r.training), 'LoRA request malformed: ' + JSON.stringify(r.training));
    await compareWithCli(page, 'lora');
  });

  await check('sequence length 8192 recomputes to the CLI\'s figures', async () => {
    await page.fill('#in-seq', '8192');
    await settle(page, (r) => r.training.sequence_length === 8192);
    await compareWithCli(page, 'sequence');
  });

  await check('pinned GPU (2 x H100 SXM): fit, headroom and pinned row equal the CLI\'s', async () => {
    await page.selectOption('#in-gpu', 'h100-sxm-80gb');
    await page.fill('#in-count', '2');
    await settle(page, (r) => r.hardware && r.hardware.gpu === 'h100-sxm-80gb' && r.hardware.count === 2);
    await compareWithCli(page, 'pinned');
    const pinnedRow = await page.evaluate(() => {
      const row = document.querySelector('#panel-options tr.pinned');
      return row && row.dataset.gpu;
    });
    assert(pinnedRow === 'h100-sxm-80gb', 'pinned row is ' + pinnedRow);
  });

  await check('QLoRA on 2 x RTX 4090: warnings shown as the CLI gives them', async () => {
    await clickTask(page, 'qlora');
    await page.selectOption('#in-gpu', 'rtx4090-24gb');
    await settle(page, (r) => r.task === 'qlora' && r.hardware.gpu === 'rtx4090-24gb');
    assert(await visible(page, '#in-baseq'), 'QLoRA base quantisation hidden');
    const r = await lastRequest(page);
    assert(r.training.base_quantization, 'QLoRA request lacks base_quantization');
    await compareWithCli(page, 'qlora');
    const codes = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-warnings li.warning')).map((n) => n.dataset.value));
    const expected = native(r).warnings.map((w) => w.code);
    assert(JSON.stringify(codes) === JSON.stringify(expected), 'warning codes ' + codes + ' vs CLI ' + expected);
    assert(expected.length > 0, 'expected at least one warning for 2 x RTX 4090 (no P2P)');
  });

  await check('task inference: inference inputs shown, figures equal the CLI\'s', async () => {
    await clickTask(page, 'inference');
    assert(await visible(page, '#in-target-users'), 'inference inputs hidden');
    assert(!(await visible(page, '#in-seq')), 'training inputs shown for inference');
    // One field for the load: the users online at once (no second "concurrency" to disagree).
    assert(!(await page.$('#in-conc')), 'a second concurrency field is on the page');
    await page.fill('#in-target-users', '16');
    await settle(page, (r) => r.task === 'inference' && r.inference && r.inference.target_users === 16 && !r.training);
    await compareWithCli(page, 'inference');
    await checkFormFollowsSchema(page, catalog, 'inference');
  });

  await check('the stack select offers the task\'s kind, sends /stack, and names the default it used', async () => {
    // On Auto the select names the engine the core chose (resolved_inputs["/stack"]).
    const auto = await page.evaluate(() => document.querySelector('#in-stack option[value=""]').textContent);
    assert(/vLLM/.test(auto), 'Auto entry "' + auto + '" does not name vLLM');
    await page.selectOption('#in-stack', 'sglang');
    await settle(page, (r) => r.task === 'inference' && r.stack === 'sglang');
    await compareWithCli(page, 'stack');
    // Every template got its parameters (a serving plan has no ZeRO stage: no "ZeRO-{zero}").
    const unfilled = await page.evaluate(() => document.body.innerText.match(/[^\n]{0,40}\{[a-z_]+\}/g));
    assert(!unfilled, 'unfilled template parameters: ' + JSON.stringify(unfilled));
    // Back to a training task: a serving engine has no meaning there, the select returns to Auto.
    await clickTask(page, 'lora');
    const after = await page.evaluate(() => ({ value: document.getElementById('in-stack').value,
      options: Array.from(document.querySelectorAll('#in-stack option')).map((o) => o.value) }));
    assert(after.value === '' && !after.options.includes('vllm') && after.options.includes('llamafactory'),
      'after switching to LoRA the stack select holds ' + JSON.stringify(after));
    assert(!('stack' in (await lastRequest(page))), 'the LoRA request still names a serving engine');
    await clickTask(page, 'inference');
  });

  await check('GPU table sorts by minimum count and back to the core\'s order', async () => {
    await page.selectOption('#in-gpu', '');
    await page.selectOption('#in-preset', 'llama-3.1-70b');
    await settle(page, (r) => !r.hardware && r.model.preset === 'llama-3.1-70b');
    const counts = () => page.evaluate(() => Array.from(document.querySelectorAll('#panel-options tbody tr'))
      .map((tr) => tr.querySelector('[data-field$="/min_count"]').dataset.value));
    await page.click('#panel-options th[data-col="min_count"] button');
    const asc = (await counts()).filter((v) => v !== 'null').map(Number);
    assert(asc.every((v, i) => i === 0 || asc[i - 1] <= v), 'not ascending: ' + asc);
    await page.click('#panel-options th[data-col="min_count"] button');
    const desc = (await counts()).filter((v) => v !== 'null').map(Number);
    assert(desc.every((v, i) => i === 0 || desc[i - 1] >= v), 'not descending: ' + desc);
    await page.click('#panel-options th[data-col="min_count"] button');
    const order = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-options tbody tr')).map((tr) => tr.dataset.gpu));
    const core = native(await lastRequest(page)).options.map((o) => o.gpu);
    assert(JSON.stringify(order) === JSON.stringify(core), 'third click did not restore the core\'s order');
  });

  await check('sequence length -5: located error at the input and above the results, page not blank', async () => {
    await clickTask(page, 'full_finetune');
    await page.fill('#in-seq', '-5');
    const info = await expectError(page, '/training/sequence_length', 'out_of_range', 'negative sequence');
    assert(info.bannerText.includes(zh['zh-CN']['error.out_of_range']), 'banner lacks the Chinese explanation');
    assert(info.bannerText.includes(zh['zh-CN']['result.stale']), 'no note that the figures are from the last valid input');
    await page.screenshot({ path: path.join(shotDir, 'page-error.png'), fullPage: false });
  });

  await check('fixing the sequence length clears the error', async () => {
    await page.fill('#in-seq', '4096');
    await settle(page, (r) => r.training && r.training.sequence_length === 4096);
    const s = await page.evaluate(() => ({
      err: window.gpuAdvisor.lastError,
      banner: document.getElementById('error-banner').hidden,
      invalid: document.querySelectorAll('.invalid').length,
    }));
    assert(!s.err && s.banner && s.invalid === 0, 'error still shown: ' + JSON.stringify(s));
    await compareWithCli(page, 'fixed');
  });

  await check('TP that does not divide the heads: inconsistent, located at the TP input', async () => {
    await page.fill('#in-tp', '3');
    await expectError(page, '/parallelism/tp', 'inconsistent', 'tp 3');
    await page.fill('#in-tp', '');
    await settle(page, (r) => r.parallelism.tp === undefined);
    const err = await page.evaluate(() => window.gpuAdvisor.lastError);
    assert(!err, 'error left after clearing TP: ' + JSON.stringify(err));
  });

  await check('malformed pasted config.json: located error on the textarea', async () => {
    await clickModelMode(page, 'hf_config');
    await page.fill('#in-hf', '{"model_type": "llama", "hidden_size": 4096,');
    const info = await expectError(page, '/model/hf_config', 'malformed_json', 'malformed config');
    assert(info.bannerText.includes(zh['zh-CN']['error.malformed_json']), 'banner lacks the Chinese explanation');
    await page.screenshot({ path: path.join(shotDir, 'page-error-config.png'), fullPage: false });
  });

  await check('a valid pasted config.json (Mixtral) gives the CLI\'s figures', async () => {
    const sample = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'golden', 'lora_hf_config_mixtral.request.json'), 'utf8'));
    await page.fill('#in-hf', JSON.stringify(sample.model.hf_config, null, 2));
    await settle(page, (r) => typeof r.model.hf_config === 'string' && r.model.hf_config.includes('mixtral'));
    await compareWithCli(page, 'hf_config');
  });

  await check('custom fields: missing field is located; model name is shown as text, never as markup', async () => {
    await clickModelMode(page, 'fields');
    await settle(page, (r) => r.model.layers !== undefined && r.model.preset === undefined);
    await page.fill('#in-m-layers', '');
    await expectError(page, '/model/layers', 'missing_field', 'missing layers');
    await page.fill('#in-m-layers', '24');
    const evil = '<img src=x onerror="window.__xss=1"><b>bold</b>';
    await page.fill('#in-m-name', evil);
    await settle(page, (r, name) => r.model.name === name && r.model.layers === 24, evil);
    await compareWithCli(page, 'custom fields');
    const s = await page.evaluate(() => ({
      imgs: document.querySelectorAll('#panels img, #panels b').length,
      xss: window.__xss,
      shown: document.querySelector('#panel-summary .model-name').textContent,
    }));
    assert(s.imgs === 0 && s.xss === undefined, 'model name was interpreted as HTML');
    assert(s.shown === evil, 'model name shown as "' + s.shown + '"');
  });

  await check('the URL hash restores the same request in a fresh page', async () => {
    await clickModelMode(page, 'preset');
    await page.selectOption('#in-preset', 'qwen2.5-7b');
    await clickTask(page, 'lora');
    await page.selectOption('#in-lora-targets', 'custom');
    await page.click('#lora-target-checks label:has(input[value="o"])');
    await page.selectOption('#in-gpu', 'l40s-48gb');
    await page.fill('#in-count', '4');
    await page.fill('#in-tp', '2');
    await page.selectOption('#in-acc-grad', 'fp32');
    await settle(page, (r) => r.task === 'lora' && r.hardware && r.hardware.count === 4 && r.parallelism.tp === 2 &&
      Array.isArray(r.training.lora_targets) && r.training.accounting && r.training.accounting.gradient_dtype === 'fp32');
    const before = await lastRequest(page);
    const href = page.url();
    assert(href.includes('#') && href.includes('req='), 'no request in the URL: ' + href);
    const fresh = await context.newPage();
    watch(fresh, 'restored page');
    await fresh.goto(href);
    await waitReady(fresh);
    const after = await lastRequest(fresh);
    deepClose(after, before, 'restored request');
    await compareWithCli(fresh, 'restored');
    await fresh.close();
  });

  await check('English: labels switch, figures unchanged', async () => {
    await page.click('.lang-btn[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    const s = await page.evaluate(() => ({
      footer: document.querySelector('.footer-local').textContent,
      title: document.querySelector('#panel-summary .panel-title').textContent,
      task: document.querySelector('#task-group').textContent,
    }));
    assert(s.footer === zh.en['footer.local'], 'footer not in English: ' + s.footer);
    assert(s.title === zh.en['panel.summary'], 'panel title not in English: ' + s.title);
    assert(s.task.includes('Full fine-tune'), 'task labels not in English');
    await compareWithCli(page, 'english');
    await wholePageShot(page, path.join(shotDir, 'page-en.png'));
  });

  await check('English error state names the field', async () => {
    await page.fill('#in-lora-rank', '1.5');
    const info = await expectError(page, '/training/lora_rank', 'not_integer', 'english error');
    assert(info.bannerText.includes(zh.en['error.not_integer']), 'banner lacks the English explanation');
    await page.fill('#in-lora-rank', '16');
    await settle(page, (r) => r.training.lora_rank === 16);
  });

  await check('back to Chinese', async () => {
    await page.click('.lang-btn[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const footer = await page.evaluate(() => document.querySelector('.footer-local').textContent);
    assert(footer === zh['zh-CN']['footer.local'], 'footer not in Chinese: ' + footer);
    await compareWithCli(page, 'chinese');
    await wholePageShot(page, path.join(shotDir, 'page-zh.png'));
  });


  // ---------------------------------------------------------------- speed, power, cost, capacity

  await check('pinned training run with a token budget: speed figures equal the CLI\'s', async () => {
    await page.click('#btn-reset');
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware);
    await page.selectOption('#in-preset', 'llama-2-13b');
    await page.fill('#in-seq', '4096');
    await page.selectOption('#in-ckpt', 'full');
    await page.fill('#in-tokens', '1e9');
    await page.fill('#in-gbs', '64');
    await page.selectOption('#in-gpu', 'a100-pcie-80gb');
    await page.fill('#in-count', '8');
    await settle(page, (r) => r.hardware && r.hardware.gpu === 'a100-pcie-80gb' && r.hardware.count === 8 &&
      r.training.tokens === 1e9 && r.training.global_batch_size === 64 && r.model.preset === 'llama-2-13b');
    const n = await compareWithCli(page, 'speed');
    assert(n > 150, 'only ' + n + ' figures compared');
    const cli = native(await lastRequest(page));
    assert(cli.training.tokens_per_second > 0, 'the CLI gives no speed for the pinned run');
    for (const f of ['tokens_per_second', 'mfu', 'step_time_s', 'hours', 'gpu_hours']) {
      const v = await shownValue(page, '/training/' + f);
      assert(v !== undefined && close(Number(v), cli.training[f]), '/training/' + f + ' shown ' + v + ', CLI ' + cli.training[f]);
    }
    // the headline text is the CLI's figure, rounded
    const text = await page.evaluate(() => ({
      tps: document.querySelector('#panel-speed [data-field="/training/tokens_per_second"]').textContent,
      hours: document.querySelector('#panel-speed [data-field="/training/hours"]').textContent,
      mfu: document.querySelector('#panel-speed [data-field="/training/mfu"]').textContent,
      points: document.querySelectorAll('#panel-speed svg circle[data-field^="/training/scaling_curve/"]').length,
      legend: document.querySelector('#panel-speed .line-legend').textContent,
      axis: Array.from(document.querySelectorAll('#panel-speed .axis-label')).map((x) => x.textContent),
      bus: document.querySelector('#panel-speed [data-field="/interconnect/allreduce_bus_bandwidth_gbps"]').dataset.value,
    }));
    assert(Number(text.tps.replace(/[,\s]/g, '')) === Math.round(cli.training.tokens_per_second), 'tokens/s shows "' + text.tps + '"');
    assert(Math.abs(Number(text.hours.replace(/[,\s]/g, '')) - cli.training.hours) < 0.051, 'hours shows "' + text.hours + '", CLI ' + cli.training.hours);
    assert(Math.abs(parseFloat(text.mfu) - cli.training.mfu * 100) < 0.051, 'MFU shows "' + text.mfu + '"');
    const fitting = cli.training.scaling_curve.filter((p) => p.fits).length;
    assert(text.points === fitting, text.points + ' points on the scaling chart, the CLI has ' + fitting + ' that fit');
    assert(text.axis.length >= 2 && text.axis.every((a) => a.length > 2), 'chart axes unlabelled');
    assert(text.legend.includes('PCIe'), 'scaling legend lacks PCIe: ' + text.legend);
    assert(close(Number(text.bus), cli.interconnect.allreduce_bus_bandwidth_gbps), 'all-reduce busbw ' + text.bus);
    const codes = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-warnings li.warning')).map((x) => x.dataset.value));
    assert(codes.includes('communication_bound'), 'no communication_bound warning for 8 x A100 PCIe ZeRO-3: ' + codes);
    const translated = await page.evaluate(() => document.querySelector('#panel-warnings li.warning[data-value="communication_bound"] .warning-text').textContent);
    assert(translated === zh['zh-CN']['warning.communication_bound'], 'communication_bound not translated');
    await panelShot(page, 'speed', 'page-speed-zh.png');
  });

  await check('power verdict and cost figures (lifetime per option, break-even) equal the CLI\'s', async () => {
    const cli = native(await lastRequest(page));
    const v = await page.evaluate(() => {
      const n = document.querySelector('#panel-power [data-field="/power/office_verdict/level"]');
      const banner = document.querySelector('#panel-power .verdict-banner');
      const reason = banner && banner.querySelector('.verdict-reason');
      return { level: n && n.dataset.value, text: n && n.textContent, reason: reason && reason.textContent, reasonCode: reason && reason.dataset.code, cls: banner && banner.className };
    });
    assert(v.level === cli.power.office_verdict.level, 'office verdict ' + v.level + ', CLI ' + cli.power.office_verdict.level);
    assert(v.text === zh['zh-CN']['power.office.' + cli.power.office_verdict.level], 'office verdict not in Chinese: ' + v.text);
    // The reason is rendered from its code and parameters, in Chinese (issue 10 item 5).
    assert(v.reasonCode === cli.power.office_verdict.reason_code && /[\u4e00-\u9fff]/.test(v.reason || ''), 'the core\'s reason is not shown in Chinese: ' + v.reason);
    assert(v.cls.includes('verdict-' + cli.power.office_verdict.level), 'the banner is not styled by the verdict');
    let priced = 0;
    for (const k of ['buy', 'rent', 'rent_reserved', 'hybrid']) {
      const want = cli.cost.options[k] ? cli.cost.options[k].lifetime_cny : null;
      const got = await shownValue(page, want === null ? '/cost/options/' + k : '/cost/options/' + k + '/lifetime_cny');
      if (want === null && k === 'rent_reserved') continue;
      assert(want === null ? got === null : close(Number(got), want), k + ' lifetime shown ' + got + ', CLI ' + want);
      if (want !== null) priced += 1;
    }
    assert(priced >= 2, 'fewer than two options priced');
    const be = await shownValue(page, '/cost/break_even_utilization');
    assert(cli.cost.break_even_utilization === null ? be === null : close(Number(be), cli.cost.break_even_utilization), 'break-even ' + be);
    const rule = await shownValue(page, '/cost/seventy_percent_rule_holds');
    assert(rule === String(cli.cost.seventy_percent_rule_holds), '70% rule ' + rule);
    const marker = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-cost .marker-label')).map((x) => x.textContent));
    if (cli.cost.break_even_year !== null) {
      assert(marker.some((m) => m.includes(String(cli.cost.break_even_year))), 'break-even year ' + cli.cost.break_even_year + ' not marked: ' + marker);
    }
    const lines = await page.evaluate(() => document.querySelectorAll('#panel-cost svg path.series').length);
    const series = ['buy', 'rent', 'rent_reserved', 'hybrid'].filter((k) => cli.cost.options[k]).length;
    assert(lines === series, lines + ' cumulative lines, ' + series + ' options priced');
    await panelShot(page, 'cost', 'page-cost-zh.png');
  });

  await check('editing a price: the override reaches the request and the lifetime cost becomes the CLI\'s', async () => {
    const key = 'sites.shenzhen.electricity_flat_cny_per_kwh';
    const before = native(await lastRequest(page));
    const entry = before.cost.defaults_used.find((e) => e.key === key);
    assert(entry && entry.override_path === '/cost/prices/electricity_flat_cny_per_kwh', 'no ' + key + ' entry');
    const marked = await page.evaluate((k) => Boolean(document.querySelector('#panel-prices tr[data-key="' + k + '"] .confirm-mark')), key);
    assert(marked === entry.needs_confirmation, 'confirm marker ' + marked + ', needs_confirmation ' + entry.needs_confirmation);
    const confirmCount = await page.evaluate(() => document.querySelectorAll('#panel-prices .confirm-mark').length);
    assert(confirmCount === before.cost.defaults_used.filter((e) => e.needs_confirmation).length +
      (before.capacity ? before.capacity.defaults_used.filter((e) => e.needs_confirmation).length : 0), 'confirm markers ' + confirmCount);
    const links = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-prices a')).map((a) => a.getAttribute('rel')));
    assert(links.length > 0 && links.every((r) => r === 'noopener noreferrer'), 'source links without rel="noopener noreferrer"');
    await editPrice(page, key, '1.2');
    await settle(page, (r) => r.cost && r.cost.prices && r.cost.prices.electricity_flat_cny_per_kwh === 1.2);
    await compareWithCli(page, 'price override');
    const after = native(await lastRequest(page));
    assert(after.cost.options.buy.lifetime_cny > before.cost.options.buy.lifetime_cny, 'a dearer tariff did not raise the buy cost');
    const shown = await shownValue(page, '/cost/options/buy/lifetime_cny');
    assert(close(Number(shown), after.cost.options.buy.lifetime_cny), 'buy lifetime shown ' + shown + ', CLI ' + after.cost.options.buy.lifetime_cny);
    const row = await page.evaluate((k) => {
      const tr = document.querySelector('#panel-prices tr[data-key="' + k + '"]');
      return { overridden: tr.classList.contains('overridden'), tag: Boolean(tr.querySelector('.tag-overridden')), confirm: Boolean(tr.querySelector('.confirm-mark')), value: tr.querySelector('input.price-input').value };
    }, key);
    assert(row.overridden && row.tag && !row.confirm && row.value === '1.2', 'overridden row not marked: ' + JSON.stringify(row));
    // the override survives a shared link
    const fresh = await context.newPage();
    watch(fresh, 'override link');
    await fresh.goto(page.url());
    await waitReady(fresh);
    deepClose(await lastRequest(fresh), await lastRequest(page), 'restored override');
    await fresh.close();
    // reset puts the default back
    await page.click('#panel-prices tr[data-key="' + key + '"] .reset-override');
    await settle(page, (r) => !(r.cost && r.cost.prices && r.cost.prices.electricity_flat_cny_per_kwh !== undefined));
    const back = await shownValue(page, '/cost/options/buy/lifetime_cny');
    assert(close(Number(back), before.cost.options.buy.lifetime_cny), 'reset did not restore the default cost');
  });

  await check('a budget as epochs x dataset tokens and the cost inputs go into the request', async () => {
    await page.selectOption('#in-budget-mode', 'epochs');
    await page.fill('#in-epochs', '2');
    await page.fill('#in-dataset-tokens', '5e8');
    await page.selectOption('#in-site', 'dongguan');
    await page.fill('#in-util', '0.8');
    await settle(page, (r) => r.training.epochs === 2 && r.training.dataset_tokens === 5e8 && r.training.tokens === undefined &&
      r.cost && r.cost.site === 'dongguan' && r.cost.utilization === 0.8);
    await compareWithCli(page, 'epochs and site');
    const selected = await page.evaluate(() => document.querySelector('#panel-sites tr.selected').dataset.site);
    assert(selected === 'dongguan', 'selected site row is ' + selected);
  });

  await check('capacity CSV with text in a number column: the error names the row and shows it', async () => {
    const csv = 'job,gpu_type,gpus,hours,month\nft-a,l40s-48gb,2,120,2026-08\nft-b,l40s-48gb,4,abc,2026-09\n';
    await page.fill('#in-jobs', csv);
    const pointer = '/capacity/jobs_csv/row 3/hours';
    await page.waitForFunction((p) => {
      const g = window.gpuAdvisor;
      return g && !g.pending && g.lastError && g.lastError.path === p;
    }, pointer, { timeout: 10000 });
    const cliAnswer = native(await lastRequest(page));
    assert(cliAnswer.error && cliAnswer.error.path === pointer, 'the CLI says ' + JSON.stringify(cliAnswer.error));
    const info = await page.evaluate(() => {
      const field = document.querySelector('.field.invalid[data-path="/capacity/jobs_csv"]');
      const row = field && field.querySelector('.csv-row');
      const banner = document.getElementById('error-banner');
      return {
        error: window.gpuAdvisor.lastError,
        fieldShown: Boolean(field && field.getClientRects().length),
        fieldText: field ? field.textContent : '',
        row: row && row.dataset.row, column: row && row.dataset.column, rowText: row ? row.querySelector('.csv-row-text').textContent : '',
        banner: banner.textContent, bannerRow: Boolean(banner.querySelector('.csv-row')),
        panels: document.getElementById('panels').textContent.trim().length,
      };
    });
    deepClose(info.error, cliAnswer.error, 'csv error envelope');
    assert(info.error.code === 'wrong_type', 'code ' + info.error.code);
    assert(info.fieldShown, 'the CSV box is not highlighted');
    assert(info.fieldText.includes(info.error.message), 'the CSV box lacks the core\'s message');
    assert(info.row === '3' && info.column === 'hours', 'row ' + info.row + ' column ' + info.column);
    assert(info.rowText === 'ft-b,l40s-48gb,4,abc,2026-09', 'shown row "' + info.rowText + '"');
    assert(info.bannerRow && info.banner.includes(pointer), 'the banner does not show the row');
    assert(info.panels > 500, 'the page is blank under the error');
    await page.click('.field[data-path="/capacity/jobs_csv"] .csv-row .link-btn');
    const sel = await page.evaluate(() => { const b = document.getElementById('in-jobs'); return b.value.slice(b.selectionStart, b.selectionEnd); });
    assert(sel === 'ft-b,l40s-48gb,4,abc,2026-09', 'the row is not selected in the box: "' + sel + '"');
  });

  await check('fixed CSV: cards needed per GPU type equal the CLI\'s', async () => {
    await page.fill('#in-jobs', 'job,gpu_type,gpus,hours,month\nft-a,l40s-48gb,2,120,2026-08\nft-b,l40s-48gb,4,300,2026-09\npre,h100-sxm-80gb,8,200,2026-10\n');
    await settle(page, (r) => r.capacity && r.capacity.jobs_csv.includes('300'));
    const err = await page.evaluate(() => window.gpuAdvisor.lastError);
    assert(!err, 'error left: ' + JSON.stringify(err));
    await compareWithCli(page, 'capacity');
    const rows = await page.evaluate(() => document.querySelectorAll('#panel-capacity tbody tr').length);
    assert(rows === 2, rows + ' GPU types shown');
    await panelShot(page, 'capacity', 'page-capacity-zh.png');
  });

  await check('hybrid: a 12-month demand profile prices the hybrid plan as the CLI does', async () => {
    await page.fill('#in-util', '');
    const months = [3000, 3000, 2500, 4000, 4500, 5500, 3000, 3000, 2500, 3000, 3500, 5800];
    await page.focus('#monthly-demand input[data-month="0"]');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      document.querySelector('#monthly-demand input[data-month="0"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, months.join('\t'));
    await settle(page, (r, m) => r.cost && Array.isArray(r.cost.monthly_demand_gpu_hours) && JSON.stringify(r.cost.monthly_demand_gpu_hours) === JSON.stringify(m), months);
    await compareWithCli(page, 'hybrid');
    const cli = native(await lastRequest(page));
    assert(cli.cost.options.hybrid, 'the CLI priced no hybrid');
    const bars = await page.evaluate(() => document.querySelectorAll('#panel-cost svg rect[data-field^="/cost/hybrid_split/monthly/"]').length);
    assert(bars === 24, bars + ' monthly bars');
  });

  await check('English: speed, cost and capacity panels switch language, figures unchanged', async () => {
    await page.click('.lang-btn[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    const titles = await page.evaluate(() => ['speed', 'cost', 'capacity', 'power', 'prices'].map((id) => document.querySelector('#panel-' + id + ' .panel-title').textContent));
    assert(titles[0] === zh.en['panel.speed'] && titles[1] === zh.en['panel.cost'] && titles[2] === zh.en['panel.capacity'], 'panel titles not in English: ' + titles);
    await compareWithCli(page, 'english cost');
    await panelShot(page, 'speed', 'page-speed-en.png');
    await panelShot(page, 'cost', 'page-cost-en.png');
    await panelShot(page, 'capacity', 'page-capacity-en.png');
    await page.click('.lang-btn[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  });

  await check('no GPU pinned: the speed panel describes the recommended plan and says so; the curve and per-option speeds stay', async () => {
    await page.selectOption('#in-gpu', '');
    await settle(page, (r) => !r.hardware);
    await compareWithCli(page, 'unpinned');
    const cli = native(await lastRequest(page));
    const s = await page.evaluate(() => ({
      note: document.querySelector('#panel-speed .note') ? document.querySelector('#panel-speed .note').textContent : '',
      tps: document.querySelectorAll('#panel-speed [data-field="/training/tokens_per_second"]').length,
      points: document.querySelectorAll('#panel-speed svg circle').length,
      optionSpeeds: document.querySelectorAll('#panel-options [data-field$="/training/tokens_per_second"]').length,
      costNote: document.querySelector('#panel-cost .note') ? document.querySelector('#panel-cost .note').textContent : '',
    }));
    assert(cli.sections_describe && cli.sections_describe.gpu === cli.recommendation.best.gpu, 'the CLI does not describe the recommended plan');
    assert(s.note.length > 20 && s.note.indexOf(String(cli.sections_describe.gpus)) >= 0, 'no note that the figures are the recommended plan\'s: ' + s.note);
    assert(s.tps === 1, 'the recommended plan\'s speed is not shown (' + s.tps + ')');
    assert(s.points > 0, 'no scaling curve without a pinned GPU');
    assert(s.optionSpeeds === cli.options.filter((o) => o.training).length, s.optionSpeeds + ' option speeds shown');
    assert(s.costNote.length > 10, 'the cost panel does not say which GPU it costed');
  });

  await check('inference target: decode tokens/s and max concurrency equal the CLI\'s', async () => {
    await page.click('#btn-reset');
    // The VAT box is a checkbox, always sent: a reset request carries only that of the cost section.
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware && !(r.cost && Object.keys(r.cost).some((k) => k !== 'vat_deductible')));
    await clickTask(page, 'inference');
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await page.selectOption('#in-wf', 'gguf_q4_k_m');
    await page.fill('#in-prompt', '2000');
    await page.fill('#in-output', '500');
    await page.fill('#in-target-users', '200');
    await page.fill('#in-target-tps', '20');
    await page.selectOption('#in-gpu', 'l40s-48gb');
    await page.fill('#in-count', '1');
    await settle(page, (r) => r.task === 'inference' && r.hardware && r.hardware.gpu === 'l40s-48gb' && r.inference.weight_format === 'gguf_q4_k_m' &&
      r.inference.target_users === 200 && r.inference.target_tokens_per_second_per_user === 20 && r.inference.output_tokens === 500);
    await compareWithCli(page, 'serving');
    const cli = native(await lastRequest(page));
    const s = await page.evaluate(() => {
      const get = (f) => { const n = document.querySelector('#panel-serving [data-field="' + f + '"]'); return n ? { v: n.dataset.value, t: n.textContent } : null; };
      return { decode: get('/inference/decode_tokens_per_second'), maxc: get('/inference/max_concurrency'), gpus: get('/inference/gpus_needed'),
        points: document.querySelectorAll('#panel-serving svg circle').length, speedPanel: !document.getElementById('panel-speed').hidden };
    });
    assert(s.decode && close(Number(s.decode.v), cli.inference.decode_tokens_per_second), 'decode shown ' + JSON.stringify(s.decode));
    assert(Number(s.decode.t.replace(/[,\s]/g, '')) === Math.round(cli.inference.decode_tokens_per_second), 'decode text ' + s.decode.t);
    assert(s.maxc && Number(s.maxc.v) === cli.inference.max_concurrency && Number(s.maxc.t.replace(/[,\s]/g, '')) === cli.inference.max_concurrency, 'max concurrency ' + JSON.stringify(s.maxc));
    assert(s.gpus && Number(s.gpus.v) === cli.inference.gpus_needed, 'GPUs needed ' + JSON.stringify(s.gpus));
    // The figures at the load come first, as the CLI's at_load has them.
    const load = await page.evaluate(() => {
      const n = document.querySelector('#panel-serving [data-field="/inference/at_load/per_user_tokens_per_second"]');
      const t = document.querySelector('#panel-serving [data-field="/inference/at_load/time_to_first_token_p90_s"]');
      return { tps: n ? Number(n.dataset.value) : null, p90: t ? Number(t.dataset.value) : null };
    });
    assert(close(load.tps, cli.inference.at_load.per_user_tokens_per_second), 'per-user speed at the load ' + JSON.stringify(load));
    assert(close(load.p90, cli.inference.at_load.time_to_first_token_p90_s), 'p90 first token at the load ' + JSON.stringify(load));
    assert(s.points === cli.inference.concurrency_curve.length * 2, s.points + ' points on the concurrency chart');
    assert(!s.speedPanel, 'the training speed panel is shown for inference');
    await panelShot(page, 'serving', 'page-serving-zh.png');
    await page.click('#btn-reset');
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware && !r.inference);
  });

  await check('no horizontal overflow at 1000 px wide', async () => {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForTimeout(100);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    if (w > 1001) {
      const wide = await page.evaluate(() => Array.from(document.querySelectorAll('body *')).filter((n) => n.getBoundingClientRect().right > 1001 && !n.closest('.table-wrap, .table-scroll'))
        .slice(0, 6).map((n) => n.tagName + '.' + n.className + (n.id ? '#' + n.id : '')));
      assert(false, 'page is ' + w + ' px wide at a 1000 px viewport; too wide: ' + wide.join(', '));
    }
    await page.screenshot({ path: path.join(shotDir, 'page-1000px.png'), fullPage: false });
  });

  // ---------------------------------------------------------------- the answer first, export, hostile links, validation
  /** A screenshot: of the viewport, or of one element with the sticky bars let go. */
  async function shot(p, file, selector) {
    if (!selector) { await p.screenshot({ path: path.join(shotDir, file) }); return; }
    await p.evaluate(() => { document.querySelectorAll('.topbar, .section-nav').forEach((n) => { n.style.position = 'static'; }); });
    await p.locator(selector).screenshot({ path: path.join(shotDir, file) });
    await p.evaluate(() => { document.querySelectorAll('.topbar, .section-nav').forEach((n) => { n.style.position = ''; }); });
  }
  const T = { assert, browser, check, cli, close, compareWithCli, context, expectError, lastRequest, native, settle, shot, shotDir, siteDir, url, waitReady, watch, zh };
  await require('./answer.checks.cjs')(T);
  await require('./rerender.checks.cjs')(T); // a patched re-render equals a fresh one; no stale row on screen
  await require('./report.checks.cjs')(T);
  await require('./hostile.checks.cjs')(T);
  await require('./links.checks.cjs')(T);  // shared links keep their values and their address (issue 23 item 3)
  await require('./validation.checks.cjs')(T);
  await require('./provider.checks.cjs')(T);
  await require('./csp.checks.cjs')(T);    // strict CSP: the site under serve.cjs's header, the single file's hashes
  await require('./widget.checks.cjs')(T); // <gpu-advisor> in a hostile host, postMessage, share in a frame
  await require('./burst.checks.cjs')(T);  // 200 set-request messages coalesced: one run per frame (issue 23 item 7)
  await require('./a11y.checks.cjs')(T);   // axe-core WCAG 2.1 AA, keyboard, charts, reflow 360-1920 px
  await require('./i18n.checks.cjs')(T);   // no untranslated text in zh-CN or en, no raw keys (issue 10 item 5)
  await require('./help.checks.cjs')(T);   // help on every field, folded groups, no code on the Chinese page, toasts, icon (issue 29)

  await check('static site (dist/site/index.html) loads and computes the CLI\'s figures', async () => {
    const site = await context.newPage();
    watch(site, 'site');
    await site.goto(pathToFileURL(path.join(siteDir, 'index.html')).href);
    await waitReady(site);
    await compareWithCli(site, 'site');
    await site.close();
  });

  await check('missing wasm module: error banner instead of a blank page', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-site-'));
    // The site without its wasm module's loaders (the answer part's and the whole one's): every
    // other file, folders included.
    fs.cpSync(siteDir, tmp, { recursive: true, filter: (f) => !/^gpu_advisor(_answer)?\.js$/.test(path.basename(f)) });
    const broken = await context.newPage();
    broken.on('request', (req) => {
      const u = req.url();
      if (!u.startsWith('file://') && !u.startsWith('data:')) networkViolations.push('broken site: ' + u);
    });
    await broken.goto(pathToFileURL(path.join(tmp, 'index.html')).href);
    await broken.waitForFunction(() => document.body.getAttribute('data-state') === 'load-error', null, { timeout: 10000 });
    const s = await broken.evaluate(() => ({
      banner: !document.getElementById('load-error').hidden,
      text: document.getElementById('load-error').textContent.trim(),
      inputs: document.querySelectorAll('#inputs input, #inputs select').length,
      enabled: document.querySelectorAll('#inputs input:not(:disabled), #inputs select:not(:disabled)').length,
      answer: (() => { const n = document.getElementById('answer-headline'); return n && n.getClientRects().length ? n.textContent : ''; })(),
    }));
    assert(s.banner && s.text.length > 10, 'no load-error banner');
    assert(s.inputs > 10, 'the form is gone');
    // The pre-rendered answer stays; the form is off (issue 29 item 6).
    assert(s.answer, 'the pre-rendered answer is gone');
    assert(s.enabled === 0, s.enabled + ' inputs still enabled');
    await broken.screenshot({ path: path.join(shotDir, 'page-load-error.png'), fullPage: false });
    await broken.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  await check('the page made no network request', async () => {
    assert(networkViolations.length === 0, networkViolations.length + ' request(s): ' + networkViolations.slice(0, 5).join('; '));
  });

  await check('no script errors', async () => {
    // The missing-module page logs the failed <script src>; that is the case under test.
    const real = pageErrors.filter((e) => !e.startsWith('broken site'));
    assert(real.length === 0, real.slice(0, 5).join('; '));
  });

  return finish(browser);
}

async function readStrings() {
  // The page's own strings (data/messages/<lang>.json, as web/js/i18n.js imports them), so the test
  // checks the shown text without copying it.
  return loadWebModules(['js/i18n.js']).STRINGS;
}

async function finish(browser) {
  await browser.close();
  console.log('screenshots: ' + shotDir);
  console.log('page: ' + passed + ' passed, ' + failed + ' failed');
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main().catch((e) => {
  console.error('page test crashed: ' + (e && e.stack || e));
  console.log('page: ' + passed + ' passed, ' + (failed + 1) + ' failed');
  process.exit(1);
});
