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
// Prints one line per check and ends with "page: N passed, M failed".
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');

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

async function waitReady(page) {
  await page.waitForFunction(() => {
    const s = document.body && document.body.getAttribute('data-state');
    return s === 'load-error' || (window.gpuAdvisor && window.gpuAdvisor.runs > 0 && !window.gpuAdvisor.pending);
  }, null, { timeout: 30000 });
  const state = await page.evaluate(() => document.body.getAttribute('data-state'));
  if (state === 'load-error') {
    const detail = await page.evaluate(() => document.getElementById('load-error').textContent);
    throw new Error('the page shows its load-error banner: ' + detail.trim());
  }
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
  for (const section of ['/memory', '/model/params', '/warnings', '/catalog']) {
    deepClose(resolve(state.result, section), resolve(expected, section), label + ': result' + section);
  }

  const fields = new Set(state.figures.map((f) => f.field));
  const required = ['/memory/per_gpu_bytes', '/memory/band_bytes/low', '/memory/band_bytes/high', '/memory/fits']
    .concat(['weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'].map((t) => '/memory/breakdown_bytes/' + t))
    .concat(expected.options.map((o) => '/options/@' + o.gpu + '/min_count'))
    .concat(expected.options.map((o) => '/options/@' + o.gpu + '/verdict'));
  if (expected.memory.fits !== null) required.push('/memory/headroom_bytes', '/memory/gpu_memory_bytes');
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

async function clickTask(page, task) {
  await page.click('#task-group label:has(input[value="' + task + '"])');
  await settle(page, (r, t) => r.task === t, task);
}

async function clickModelMode(page, mode) {
  await page.click('#model-mode-group label:has(input[value="' + mode + '"])');
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
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, 'single file');
  const url = pathToFileURL(singleFile).href;
  const zh = await readStrings();

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

  await check('model preset change (Qwen2.5 14B) recomputes to the CLI\'s figures', async () => {
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
    await compareWithCli(page, 'preset');
  });

  await check('task LoRA: LoRA inputs shown, figures equal the CLI\'s', async () => {
    await clickTask(page, 'lora');
    assert(await visible(page, '#in-lora-rank'), 'LoRA rank input hidden');
    assert(!(await visible(page, '#in-conc')), 'inference inputs shown for LoRA');
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
    assert(await visible(page, '#in-conc'), 'inference inputs hidden');
    assert(!(await visible(page, '#in-seq')), 'training inputs shown for inference');
    await page.fill('#in-conc', '16');
    await settle(page, (r) => r.task === 'inference' && r.inference && r.inference.concurrency === 16 && !r.training);
    await compareWithCli(page, 'inference');
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
    const sample = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'requests', 'lora_hf_config_mixtral.json'), 'utf8'));
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
    await page.evaluate(() => { window.scrollTo(0, 0); document.getElementById('inputs').scrollTop = 0; });
    await page.screenshot({ path: path.join(shotDir, 'page-en.png'), fullPage: true });
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
    await page.evaluate(() => { window.scrollTo(0, 0); document.getElementById('inputs').scrollTop = 0; });
    await page.screenshot({ path: path.join(shotDir, 'page-zh.png'), fullPage: true });
  });

  await check('no horizontal overflow at 1000 px wide', async () => {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForTimeout(100);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(w <= 1001, 'page is ' + w + ' px wide at a 1000 px viewport');
    await page.screenshot({ path: path.join(shotDir, 'page-1000px.png'), fullPage: false });
  });

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
    for (const f of ['index.html', 'style.css', 'app.js', 'i18n.js']) fs.copyFileSync(path.join(siteDir, f), path.join(tmp, f));
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
    }));
    assert(s.banner && s.text.length > 10, 'no load-error banner');
    assert(s.inputs > 10, 'the form is gone');
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
  // The page's own strings, so the test checks the shown text without copying it.
  const text = fs.readFileSync(path.join(siteDir, 'i18n.js'), 'utf8');
  const sandbox = { window: {} };
  // eslint-disable-next-line no-new-func
  new Function('window', text)(sandbox.window);
  return sandbox.window.GPU_ADVISOR_I18N;
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
