// SPDX-License-Identifier: MIT
// The validation panel (issue 9 items 4-5): the scripts the core writes for the plan, with copy
// buttons, downloads and one .sh bundle that unpacks to exactly the CLI's files; a dropped
// nvidia-smi CSV or validation-result.json gives the CLI's check report in the source's order,
// and a file of another plan or a broken one gives the core's located error. Under a provider's
// catalog, the scripts are for the provider's plan (the CLI's with --provider).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const AREAS = ['memory', 'interconnect', 'compute', 'power', 'cost'];

module.exports = async function validationChecks(T) {
  const { assert, check, cli, context, lastRequest, settle, shot, url, waitReady, watch, zh } = T;
  const ZH = zh['zh-CN'];
  const samples = path.join(__dirname, '..', 'validation', 'samples');

  function cliScripts(request, flags) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-scripts-'));
    const r = spawnSync(cli, ['scripts', '-', '-o', dir].concat(flags || []), { input: JSON.stringify(request), encoding: 'utf8', timeout: 30000 });
    if (r.status !== 0) throw new Error('gpu-advisor scripts failed: ' + r.stdout + r.stderr);
    return dir;
  }

  function cliCheck(request, file) {
    const req = path.join(os.tmpdir(), 'gpu-advisor-check-request.json');
    fs.writeFileSync(req, JSON.stringify(request));
    const r = spawnSync(cli, ['check', req].concat(file), { encoding: 'utf8', timeout: 30000 });
    return JSON.parse(r.stdout);
  }

  const page = await context.newPage();
  watch(page, 'validation');
  await page.goto(url);
  await waitReady(page, { folded: true });
  try { await context.grantPermissions(['clipboard-read', 'clipboard-write']); } catch (e) { /* older playwright */ }

  let supported = true;
  await check('validation panel: the scripts for the plan, as the CLI writes them, with the NGC container', async () => {
    supported = await page.evaluate(() => window.gpuAdvisor.internals.hasValidation());
    assert(supported, 'this wasm module has no validationScripts/validationCheck');
    await page.click('#section-nav .nav-item[data-panel="validation"]');
    await page.waitForSelector('#panel-validation .script-list li');
    const request = await lastRequest(page);
    const dir = cliScripts(request);
    const want = fs.readdirSync(dir).sort();
    const s = await page.evaluate(() => ({
      names: Array.from(document.querySelectorAll('#panel-validation .script')).map((li) => li.dataset.name),
      texts: Array.from(document.querySelectorAll('#panel-validation .script pre')).map((p) => p.textContent),
      image: (document.querySelector('#panel-validation .ngc-image') || {}).textContent || '',
      copy: document.querySelectorAll('#panel-validation .copy-script').length,
    }));
    assert(JSON.stringify(s.names.slice().sort()) === JSON.stringify(want), 'files ' + s.names + ' vs CLI ' + want);
    s.names.forEach((n, i) => assert(s.texts[i] === fs.readFileSync(path.join(dir, n), 'utf8'), n + ' differs from the CLI\'s'));
    assert(/nvidia\/pytorch:\d\d\.\d\d-py3/.test(s.image), 'NGC image "' + s.image + '"');
    assert(s.copy === s.names.length, 'a script without a copy button');
    fs.rmSync(dir, { recursive: true, force: true });
    await shot(page, 'validation-scripts.png', '#panel-validation');
  });
  if (!supported) { await page.close(); return; }

  await check('validation panel: copy puts the script on the clipboard', async () => {
    await page.click('#panel-validation .script:first-child .copy-script');
    await page.waitForFunction(() => !document.getElementById('toast').hidden);
    const toast = await page.evaluate(() => document.getElementById('toast').textContent);
    assert(toast === ZH['toast.script_copied'], 'toast "' + toast + '"');
    const clip = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
    if (clip !== null) {
      const first = await page.evaluate(() => document.querySelector('#panel-validation .script:first-child pre').textContent);
      assert(clip === first, 'the clipboard holds something else');
    }
  });

  await check('validation panel: the .sh bundle unpacks to exactly the CLI\'s files (text and executable bits)', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#btn-validation-bundle')]);
    const bundle = await dl.path();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-bundle-'));
    const r = spawnSync('bash', [bundle, path.join(out, 'v')], { encoding: 'utf8', timeout: 30000 });
    assert(r.status === 0, 'bash bundle exit ' + r.status + ': ' + r.stderr);
    const dir = cliScripts(await lastRequest(page));
    const want = fs.readdirSync(dir).sort();
    const got = fs.readdirSync(path.join(out, 'v')).sort();
    assert(JSON.stringify(got) === JSON.stringify(want), 'unpacked ' + got + ' vs ' + want);
    for (const n of want) {
      const a = path.join(dir, n), b = path.join(out, 'v', n);
      assert(fs.readFileSync(a, 'utf8') === fs.readFileSync(b, 'utf8'), n + ' differs after unpacking');
      assert(Boolean(fs.statSync(a).mode & 0o100) === Boolean(fs.statSync(b).mode & 0o100), n + ': executable bit differs');
    }
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function drop(file) {
    await page.setInputFiles('#validation-file', file);
    await page.waitForFunction((name) => document.querySelector('#panel-validation .check-result[data-file="' + name + '"]'), path.basename(file));
  }

  await check('validation read-back: a raw nvidia-smi CSV gives the CLI\'s check report, in the source\'s order', async () => {
    const file = path.join(samples, 'gpu_ok.csv');
    await drop(file);
    const want = cliCheck(await lastRequest(page), file);
    assert(!want.error, 'the CLI says ' + JSON.stringify(want.error));
    const s = await page.evaluate(() => ({
      overall: document.querySelector('#panel-validation .check-report').dataset.overall,
      rows: Array.from(document.querySelectorAll('#panel-validation tr.check-item')).map((tr) => [tr.dataset.area, tr.dataset.item, tr.dataset.status, tr.dataset.code]),
      en: document.querySelectorAll('#panel-validation tr.check-item .check-reason [lang=en]').length,
    }));
    const expected = want.items.map((i) => [i.area, i.item, i.status, i.reason.code]);
    const order = (a) => AREAS.indexOf(a[0]);
    assert(JSON.stringify(s.rows) === JSON.stringify(expected.slice().sort((a, b) => order(a) - order(b))), 'rows ' + JSON.stringify(s.rows) + ' vs ' + JSON.stringify(expected));
    assert(s.overall === want.overall, 'overall ' + s.overall);
    assert(s.en === 0, s.en + ' reasons fell back to English');
    await shot(page, 'validation-report.png', '#panel-validation');
  });

  await check('validation read-back follows the request: another preset re-checks the same file as the CLI does', async () => {
    await page.selectOption('#in-preset', 'qwen2.5-7b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-7b');
    await page.waitForFunction(() => document.querySelector('#panel-validation .check-report, #panel-validation .check-error'));
    const want = cliCheck(await lastRequest(page), path.join(samples, 'gpu_ok.csv'));
    const rows = await page.evaluate(() => document.querySelectorAll('#panel-validation tr.check-item').length);
    assert(rows === want.items.length, rows + ' rows, the CLI has ' + want.items.length);
  });

  for (const [name, code] of [['result_other_plan.json', 'other_plan'], ['gpu_truncated.csv', 'csv_truncated'], ['result_memory_in_gib.json', null]]) {
    await check('validation read-back: ' + name + ' gives the core\'s located error', async () => {
      const file = path.join(samples, name);
      await drop(file);
      const want = cliCheck(await lastRequest(page), file);
      assert(want.error, 'the CLI accepts ' + name);
      if (code) assert(want.error.code === code, 'CLI code ' + want.error.code);
      const s = await page.evaluate(() => {
        const box = document.querySelector('#panel-validation .check-error');
        return box ? { code: box.querySelector('.code').textContent, text: box.textContent } : null;
      });
      assert(s && s.code === want.error.code, 'page shows ' + JSON.stringify(s));
      assert(s.text.includes(want.error.message) && (!want.error.path || s.text.includes(want.error.path)), 'the error lacks the core\'s message or path');
    });
  }

  // A cluster's results, one file per server, dropped together (issue 28): the CLI's
  // `check REQUEST RESULT…` report, one verdict and each server's own report.
  await check('validation read-back: one file per server, dropped together, gives the CLI\'s cluster report', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-servers-'));
    const files = ['gpu-node-a.csv', 'gpu-node-b.csv'].map((n) => path.join(dir, n));
    files.forEach((f) => fs.copyFileSync(path.join(samples, 'gpu_ok.csv'), f));
    await page.setInputFiles('#validation-file', files);
    await page.waitForFunction((names) => document.querySelector('#panel-validation .check-result[data-file="' + names + '"]'), files.map((f) => path.basename(f)).join(' '));
    const want = cliCheck(await lastRequest(page), files);
    const s = await page.evaluate(() => {
      const box = document.querySelector('#panel-validation .check-result');
      const cluster = box.querySelector('.check-cluster');
      const error = box.querySelector('.check-error .code');
      return {
        error: error ? error.textContent : null,
        overall: cluster ? cluster.dataset.overall : null,
        servers: Array.from(box.querySelectorAll('.check-server')).map((d) => [d.dataset.host, d.dataset.overall]),
        items: cluster ? Array.from(cluster.querySelectorAll(':scope > .table-scroll tr.check-item')).map((tr) => tr.dataset.code) : [],
        en: box.querySelectorAll('.check-reason [lang=en]').length,
      };
    });
    if (want.error) {
      assert(s.error === want.error.code, 'the CLI says ' + want.error.code + ', the page ' + JSON.stringify(s));
    } else {
      assert(want.kind === 'cluster', 'the CLI gave no cluster report');
      assert(s.overall === want.overall, 'overall ' + s.overall + ' vs the CLI\'s ' + want.overall);
      assert(JSON.stringify(s.servers) === JSON.stringify(want.servers.map((x) => [x.host, x.overall])), 'servers ' + JSON.stringify(s.servers));
      assert(s.items.length === want.items.length, s.items.length + ' cluster items, the CLI has ' + want.items.length);
      assert(s.en === 0, s.en + ' reasons fell back to English');
    }
    fs.rmSync(dir, { recursive: true, force: true });
    await shot(page, 'validation-cluster.png', '#panel-validation');
  });

  // Under a provider, the scripts were rebuilt from the built-in catalog: the answer was the
  // provider's rented part, the scripts another part (security review, issue 23 item 4).
  await check('validation under a provider: the scripts are for the plan on screen, as the CLI writes them with --provider', async () => {
    const example = path.join(__dirname, '..', '..', 'data', 'examples', 'provider-example.json');
    const before = await page.evaluate(() => window.gpuAdvisor.runs);
    await page.evaluate((text) => window.gpuAdvisor.setProvider(text), fs.readFileSync(example, 'utf8'));
    await page.waitForFunction((n) => window.gpuAdvisor.runs > n && !window.gpuAdvisor.pending, before, { timeout: 15000 });
    await page.waitForFunction(() => document.querySelector('#panel-validation .script pre'));
    const request = await lastRequest(page);
    const withProvider = cliScripts(request, ['--provider', example]);
    const builtin = cliScripts(request);
    const summary = (dir) => fs.readFileSync(path.join(dir, '90_summary.sh'), 'utf8');
    assert(summary(withProvider) !== summary(builtin), 'precondition: the provider should change the plan of this request');
    const best = await page.evaluate(() => window.gpuAdvisor.lastResult.recommendation.best.gpu);
    assert(summary(withProvider).includes('GPU_ID=' + best + '\n'), 'the CLI\'s scripts are not for the answer\'s ' + best);
    const shown = await page.evaluate(() => {
      const li = Array.from(document.querySelectorAll('#panel-validation .script')).find((x) => x.dataset.name === '90_summary.sh');
      return li ? li.querySelector('pre').textContent : '';
    });
    assert(shown === summary(withProvider), 'the page\'s 90_summary.sh is not the provider plan\'s');
    for (const dir of [withProvider, builtin]) fs.rmSync(dir, { recursive: true, force: true });
    await page.evaluate(() => window.gpuAdvisor.clearProvider());
  });

  await page.close();
};
