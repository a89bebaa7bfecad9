// SPDX-License-Identifier: MIT
// A strict Content-Security-Policy (issue 10 item 3): the static site served with the header a
// host needs (scripts/serve.cjs: script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; no
// unsafe-eval, no unsafe-inline) and the single file under its own <meta> policy (hashes of its
// inline elements) both load, show the answer, render every panel in both languages, and raise no
// securitypolicyviolation event at all.
'use strict';

const fs = require('fs');
const path = require('path');

/** Records every CSP violation in the page, from before its first script runs. */
const RECORD_VIOLATIONS = () => {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '').slice(0, 60) + ' @' + (e.sourceFile || '').split('/').pop() + ':' + e.lineNumber);
  });
};

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return 'http://127.0.0.1:' + server.address().port;
}

/** Loads a page, exercises it (both languages, every panel open, a scenario) and returns what it saw. */
async function exercise(T, page, address) {
  const { waitReady } = T;
  const consoleCsp = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text().slice(0, 200)); });
  await page.addInitScript(RECORD_VIOLATIONS);
  await page.goto(address);
  await waitReady(page);
  const headline = await page.evaluate(() => { const n = document.getElementById('answer-headline'); return n && n.getClientRects().length ? n.textContent : ''; });
  await page.evaluate(() => window.gpuAdvisor.setLanguage('en'));
  await page.evaluate(() => window.gpuAdvisor.applyScenario('serve_72b'));
  await page.evaluate(() => window.gpuAdvisor.expandAll());
  await page.evaluate(() => window.gpuAdvisor.setLanguage('zh-CN'));
  await page.evaluate(() => window.gpuAdvisor.applyScenario('pretrain_13b'));
  await page.evaluate(() => window.gpuAdvisor.expandAll());
  await page.waitForTimeout(200);
  const s = await page.evaluate(() => ({
    violations: window.__cspViolations,
    state: document.body.getAttribute('data-state'),
    // The legend swatches and usage bars are sized and coloured through the CSSOM.
    swatches: Array.from(document.querySelectorAll('#panels .swatch:not(.swatch-total)')).filter((n) => getComputedStyle(n).backgroundColor !== 'rgba(0, 0, 0, 0)').length,
    allSwatches: document.querySelectorAll('#panels .swatch:not(.swatch-total)').length,
    bars: Array.from(document.querySelectorAll('#panels .usage-fill, #panels .mini-bar span')).filter((n) => n.getBoundingClientRect().width > 0).length,
  }));
  return Object.assign(s, { headline: headline, consoleCsp: consoleCsp });
}

module.exports = async function cspChecks(T) {
  const { assert, check, browser, siteDir, url } = T;
  const distDir = path.dirname(siteDir);
  const { createServer, SITE_CSP } = require('../../scripts/serve.cjs');

  await check('CSP: the policy a host needs has no unsafe-eval or unsafe-inline', async () => {
    assert(/script-src 'self' 'wasm-unsafe-eval'(;|$)/.test(SITE_CSP) && /style-src 'self'(;|$)/.test(SITE_CSP), 'serve.cjs policy: ' + SITE_CSP);
    assert(!/unsafe-eval'|unsafe-inline/.test(SITE_CSP.replace("'wasm-unsafe-eval'", '')), 'serve.cjs policy allows unsafe-*: ' + SITE_CSP);
    const single = fs.readFileSync(path.join(distDir, 'gpu-advisor.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(single);
    assert(meta, 'the single file has no CSP <meta>');
    assert(!/'unsafe-eval'|'unsafe-inline'/.test(meta[1]), 'single-file policy allows unsafe-*: ' + meta[1]);
    assert(/script-src 'sha256-/.test(meta[1]) && /style-src 'sha256-/.test(meta[1]), 'single-file policy does not hash its inline elements: ' + meta[1].slice(0, 200));
    const index = fs.readFileSync(path.join(siteDir, 'index.html'), 'utf8');
    assert(!/\sstyle="/i.test(index), 'index.html has a style attribute');
    assert(!/\son[a-z]+="/i.test(index), 'index.html has an inline event handler');
  });

  await check('CSP: the static site under script-src \'self\' \'wasm-unsafe-eval\'; style-src \'self\' shows the answer, every panel, both languages, zero violations', async () => {
    const server = createServer(distDir);
    const origin = await listen(server);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      const response = await page.request.get(origin + '/');
      const header = response.headers()['content-security-policy'] || '';
      assert(header === SITE_CSP, 'the server sent ' + JSON.stringify(header));
      const s = await exercise(T, page, origin + '/');
      assert(s.headline, 'no answer shown (state ' + s.state + ')');
      assert(!s.violations.length && !s.consoleCsp.length, s.violations.length + ' violation(s): ' + s.violations.concat(s.consoleCsp).slice(0, 5).join(' | '));
      assert(s.allSwatches > 0 && s.swatches === s.allSwatches, 'swatches without colour: ' + s.swatches + '/' + s.allSwatches);
      assert(s.bars > 0, 'no usage bar has a width');
      assert(!errors.length, 'page errors: ' + errors.slice(0, 3).join('; '));
    } finally {
      await context.close();
      server.close();
    }
  });

  // The site's module is a file of its own (issue 30 item 5), and the site starts with its answer
  // part (gpu_advisor_answer.wasm, no validation; item 2): fetched compressed from a server; the
  // whole module (gpu_advisor.js, gpu_advisor.wasm) only when the validation section opens; the
  // packed loader where nothing can be fetched (file://, a server without the .wasm files).
  await check('Site: the answer part first (gpu_advisor_answer.wasm as brotli), the whole module only when validation opens; from file:// and from a server without the modules, the packed loader; the same answer and scripts each way', async () => {
    const { pathToFileURL } = require('url');
    const os = require('os');
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-nowasm-'));
    fs.cpSync(distDir, bare, { recursive: true, filter: (f) => !/\.wasm(\.|$)/.test(path.basename(f)) });
    const servers = [createServer(distDir), createServer(bare)];
    const [withWasm, withoutWasm] = await Promise.all(servers.map(listen));
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const load = async (address) => {
      const page = await context.newPage();
      const loaded = [];
      page.on('response', (r) => loaded.push(r.url().replace(/^.*\//, '') + ':' + r.status() + ':' + (r.headers()['content-encoding'] || '')));
      await page.goto(address);
      await T.waitReady(page, { folded: true }); // folded: opening every section would open validation too
      const headline = await page.evaluate(() => document.getElementById('answer-headline').textContent);
      const atStart = loaded.slice();
      await page.click('#section-nav .nav-item[data-panel="validation"]');
      await page.waitForSelector('#panel-validation .script-list li', { timeout: 20000 });
      const scripts = await page.evaluate(() => document.querySelectorAll('#panel-validation .script').length);
      await page.close();
      return { atStart, loaded, headline, scripts };
    };
    const has = (list, prefix) => list.some((x) => x.startsWith(prefix));
    try {
      const served = await load(withWasm + '/');
      assert(served.atStart.includes('gpu_advisor_answer.wasm:200:br'), 'the answer part was not sent as brotli: ' + served.atStart.join(' '));
      assert(!has(served.atStart, 'gpu_advisor.wasm') && !has(served.atStart, 'gpu_advisor.js') && !has(served.atStart, 'gpu_advisor.packed.js'),
             'the whole module was fetched before validation was opened: ' + served.atStart.join(' '));
      assert(served.loaded.includes('gpu_advisor.wasm:200:br') && !has(served.loaded, 'gpu_advisor.packed.js'),
             'opening validation did not fetch the whole module (alone): ' + served.loaded.join(' '));
      const fromDisk = await load(pathToFileURL(path.join(siteDir, 'index.html')).href);
      assert(has(fromDisk.atStart, 'gpu_advisor.packed.js'), 'from file:// the packed loader was not loaded: ' + fromDisk.atStart.join(' '));
      const missing = await load(withoutWasm + '/');
      assert(missing.atStart.includes('gpu_advisor_answer.wasm:404:') && missing.atStart.includes('gpu_advisor.wasm:404:') &&
             has(missing.atStart, 'gpu_advisor.packed.js:200'), 'a server without the modules: ' + missing.atStart.join(' '));
      const each = [served, fromDisk, missing];
      assert(served.headline && each.every((x) => x.headline === served.headline), 'the answers differ: ' + each.map((x) => x.headline).join(' | '));
      assert(served.scripts > 0 && each.every((x) => x.scripts === served.scripts), 'the scripts differ: ' + each.map((x) => x.scripts).join(' | '));
    } finally {
      await context.close();
      servers.forEach((s) => s.close());
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  // Where the whole module cannot be had when validation opens, the section says so and offers
  // to try again; the answer and the form stay as they were.
  await check('Site: validation when the whole module cannot load: a located sentence and "try again", the answer kept', async () => {
    const os = require('os');
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-advisor-nowhole-'));
    fs.cpSync(distDir, bare, { recursive: true, filter: (f) => !/^gpu_advisor\.(js|wasm|packed\.js)(\.|$)/.test(path.basename(f)) });
    const server = createServer(bare);
    const origin = await listen(server);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(origin + '/');
      await T.waitReady(page, { folded: true });
      await page.click('#section-nav .nav-item[data-panel="validation"]');
      await page.waitForSelector('#btn-validation-retry', { timeout: 20000 });
      const s = await page.evaluate(() => ({
        alert: (document.querySelector('#panel-validation [role=alert]') || {}).textContent || '',
        headline: document.getElementById('answer-headline').textContent,
        enabled: document.querySelectorAll('#inputs input:not(:disabled), #inputs select:not(:disabled)').length,
      }));
      assert(/gpu_advisor\.js/.test(s.alert), 'the failure does not name the file: ' + s.alert);
      assert(s.headline && s.enabled > 10, 'the answer or the form went with it');
      await page.click('#btn-validation-retry');
      await page.waitForSelector('#btn-validation-retry', { timeout: 20000 });
    } finally {
      await context.close();
      server.close();
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  // The site's bundle carries Chinese only (issue 30 item 5); English is fetched when asked for.
  await check('Site: the English words load only when asked for (messages/en.json, once); a link in English opens in English; without the file the page stays in Chinese and says so', async () => {
    const server = createServer(distDir);
    const origin = await listen(server);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const fetched = [];
    context.on('request', (r) => { if (/\/messages\//.test(r.url())) fetched.push(r.url()); });
    try {
      const en = JSON.parse(fs.readFileSync(path.join(siteDir, 'messages', 'en.json'), 'utf8'));
      assert(!fs.readFileSync(path.join(siteDir, 'bundle.js'), 'utf8').includes(JSON.stringify(en['load.kept_answer']).slice(1, -1)), 'the site\'s bundle carries the English words');
      const page = await context.newPage();
      await page.goto(origin + '/');
      await T.waitReady(page);
      assert(!fetched.length, 'fetched at load: ' + fetched.join(', '));
      await page.click('.lang-btn[data-lang="en"]');
      await page.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: 10000 });
      assert(await page.title() === en['app.title'], 'title in English: ' + await page.title());
      await page.evaluate(() => window.gpuAdvisor.setLanguage('zh-CN'));
      await page.evaluate(() => window.gpuAdvisor.setLanguage('en'));
      assert(fetched.length === 1 && await page.evaluate(() => document.documentElement.lang) === 'en', 'fetches ' + fetched.length);
      await page.close();
      const link = await context.newPage();
      await link.goto(origin + '/#lang=en');
      await T.waitReady(link);
      assert(await link.evaluate(() => document.documentElement.lang) === 'en' && await link.title() === en['app.title'], 'a link with lang=en opened in ' + await link.evaluate(() => document.documentElement.lang));
      await link.close();
      await context.route('**/messages/en.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
      const missing = await context.newPage();
      await missing.goto(origin + '/');
      await T.waitReady(missing);
      await missing.evaluate(() => window.gpuAdvisor.setLanguage('en'));
      const s = await missing.evaluate(() => ({ lang: document.documentElement.lang, toast: document.getElementById('toast').textContent }));
      assert(s.lang === 'zh-CN' && /英文/.test(s.toast) && /404/.test(s.toast), 'without the file: ' + JSON.stringify(s));
    } finally {
      await context.close();
      server.close();
    }
  });

  await check('CSP: a host whose policy forbids WebAssembly (no \'wasm-unsafe-eval\'): the pre-rendered answer stays, the inputs are off, a sentence in Chinese says what to allow', async () => {
    const server = createServer(distDir, SITE_CSP.replace(" 'wasm-unsafe-eval'", ''));
    const origin = await listen(server);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(origin + '/');
      await page.waitForFunction(() => document.body.getAttribute('data-state') === 'load-error', null, { timeout: 30000 });
      const s = await page.evaluate(() => {
        const banner = document.getElementById('load-error');
        const headline = document.getElementById('answer-headline');
        const controls = Array.from(document.querySelectorAll('#inputs input, #inputs select, #goal-form input, #goal-form select'));
        return { banner: !banner.hidden, text: document.getElementById('load-error-detail').textContent,
          headline: headline && headline.getClientRects().length ? headline.textContent : '',
          enabled: controls.filter((c) => !c.disabled).length, controls: controls.length };
      });
      assert(s.banner, 'no load-error banner');
      assert(s.text.includes("'wasm-unsafe-eval'") && /[\u4e00-\u9fff]/.test(s.text), 'the banner does not say what to allow, in Chinese: ' + s.text);
      assert(s.headline, 'the pre-rendered answer is gone');
      assert(s.controls > 20 && s.enabled === 0, s.enabled + ' of ' + s.controls + ' inputs still enabled');
      await page.screenshot({ path: path.join(T.shotDir, 'page-csp-blocked.png') });
    } finally {
      await context.close();
      server.close();
    }
  });

  // The compact card as a page of its own (?embed=card, issue 29 item 1): on the site under the
  // strict header and from file://; at 360 px the whole answer in the first screen, no chrome,
  // and a link to the full page with the same request (file:// links to the file itself).
  await check('CSP: the card page (?embed=card) on the site under the strict header and as the single file from file:// at 360 px: the answer, no chrome, the full-advisor link, zero violations', async () => {
    const server = createServer(distDir);
    const origin = await listen(server);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      for (const address of [origin + '/?embed=card', url + '?embed=card']) {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.addInitScript(RECORD_VIOLATIONS);
        await page.goto(address);
        await T.waitReady(page, { folded: true });
        const s = await page.evaluate(() => {
          const visible = (q) => { const n = document.querySelector(q); return !!n && n.checkVisibility({ visibilityProperty: true }); };
          const answer = document.getElementById('panel-answer').getBoundingClientRect();
          const link = document.getElementById('card-full-link');
          return { card: document.documentElement.classList.contains('embed-card'), bottom: answer.bottom, inner: innerHeight,
            sw: document.scrollingElement.scrollWidth, iw: innerWidth,
            chrome: ['.topbar', '#btn-export', '#btn-reset', '.footer', '#scenarios', '#panel-cost'].filter(visible),
            inputs: ['#in-preset', '#in-tokens', '#in-deadline', '#in-budget'].filter((q) => !visible(q)),
            link: link ? link.href : '', hash: window.gpuAdvisor.internals.shareLink().split('#')[1], violations: window.__cspViolations };
        });
        assert(s.card && !s.chrome.length && !s.inputs.length, address + ': ' + JSON.stringify(s));
        assert(s.bottom <= s.inner && s.sw <= s.iw, address + ': the answer ends at ' + s.bottom + ' px in a ' + s.inner + ' px screen, width ' + s.sw);
        const u = new URL(s.link);
        assert(u.href.split('#')[0] === address.replace(/\?embed=card$/, '') && u.hash === '#' + s.hash, address + ': link ' + s.link);
        assert(!s.violations.length && !errors.length, address + ': ' + s.violations.concat(errors).slice(0, 5).join(' | '));
        await page.screenshot({ path: path.join(T.shotDir, 'csp-card-' + (address.startsWith('file:') ? 'file' : 'site') + '-360.png'), fullPage: true });
        await page.close();
      }
    } finally {
      await context.close();
      server.close();
    }
  });

  await check('CSP: the single file under its own hashed policy shows the answer, every panel, both languages, zero violations', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      const s = await exercise(T, page, url);
      assert(s.headline, 'no answer shown (state ' + s.state + ')');
      assert(!s.violations.length && !s.consoleCsp.length, s.violations.length + ' violation(s): ' + s.violations.concat(s.consoleCsp).slice(0, 5).join(' | '));
      assert(s.allSwatches > 0 && s.swatches === s.allSwatches, 'swatches without colour: ' + s.swatches + '/' + s.allSwatches);
      assert(!errors.length, 'page errors: ' + errors.slice(0, 3).join('; '));
    } finally {
      await context.close();
    }
  });
};
