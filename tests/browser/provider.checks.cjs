// SPDX-License-Identifier: MIT
// Provider catalogs in the page (issue 10 item 2): the example provider (data/examples/
// provider-example.json) loaded through window.gpuAdvisor.setProvider shows the banner with its
// name and date, rented plans are priced at its offers, a hostile provider name is text (no
// element, no script), a bad document shows the core's located error, and the banner's button
// goes back to the neutral prices. Its own GPUs are in the GPU picker and pinning one puts it into
// /hardware; the banner names the built-in GPUs whose specs it replaces (issue 23 items 3 and 6).
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const EXAMPLE = fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'examples', 'provider-example.json'), 'utf8');

// A name that must stay text wherever the page shows it.
const MARKUP = '<img src=x onerror="window.__pwned=1">';

module.exports = async function providerChecks(T) {
  const { assert, check, context, settle, shot, siteDir, url, waitReady, watch, zh } = T;
  const example = JSON.parse(EXAMPLE);
  const offerPrice = {};
  for (const o of example.offers) if (o.availability !== 'sold_out' && o.price_cny_per_gpu_hour) {
    offerPrice[o.gpu] = Math.min(offerPrice[o.gpu] || Infinity, o.price_cny_per_gpu_hour);
  }

  /** Runs `fn` in the page and waits for the recompute it starts. */
  async function andRun(page, fn, arg) {
    const before = await page.evaluate(() => window.gpuAdvisor.runs);
    const out = await page.evaluate(fn, arg);
    await page.waitForFunction((n) => window.gpuAdvisor.runs > n && !window.gpuAdvisor.pending, before, { timeout: 15000 });
    return out;
  }

  const rents = (result) => (result.recommendation.pareto || []).concat(result.recommendation.best ? [result.recommendation.best] : [])
    .filter((p) => p.deployment === 'rent');

  await check('provider catalog: banner, the provider\'s rental prices, hostile text, back to neutral', async () => {
    const page = await context.newPage();
    watch(page, 'provider');
    await page.goto(url);
    await waitReady(page);
    const neutral = await page.evaluate(() => window.gpuAdvisor.lastResult);
    assert(!neutral.provider, 'a result without a provider has no provider block');

    // Accepted: the banner names the provider and the date; rents are at the offers' prices.
    const set = await andRun(page, (text) => window.gpuAdvisor.setProvider(text), EXAMPLE);
    assert(set && set.provider && set.provider.name === example.name, 'setProvider did not accept the example: ' + JSON.stringify(set));
    const shown = await page.evaluate(() => {
      const b = document.getElementById('provider-banner');
      return { hidden: !b || b.hidden, text: b ? b.textContent : '', first: document.getElementById('results').firstElementChild.id };
    });
    assert(!shown.hidden && shown.text.includes(example.name) && shown.text.includes(example.as_of), 'the banner does not name the provider: ' + shown.text);
    assert(shown.first === 'provider-banner', 'the banner is not at the top of the results');
    const priced = await page.evaluate(() => window.gpuAdvisor.lastResult);
    assert(priced.provider && priced.provider.name === example.name, 'the result has no provider block');
    const rented = rents(priced);
    assert(rented.length > 0, 'no rented plan under the example provider');
    for (const p of rented) assert(p.gpu in offerPrice, p.gpu + ' is rented but the provider does not offer it');
    const best = priced.recommendation.best;
    assert(best && best.deployment === 'rent', 'the default answer under the example provider is not rented: ' + JSON.stringify(best && best.deployment));
    assert(best.cost.cny_per_gpu_hour === offerPrice[best.gpu], best.gpu + ' rented at ' + best.cost.cny_per_gpu_hour + ', offer ' + offerPrice[best.gpu]);
    // The answer card shows this run's cost: its GPU-hours at the offer's price.
    const card = await page.evaluate(() => {
      const n = document.querySelector('[data-field="/recommendation/best/cost/cny"]');
      return n ? Number(n.dataset.value) : null;
    });
    // A rented run is billed in whole hours on every GPU (prices.json rental.billing_unit_hours).
    const billed = Math.max(1, Math.ceil(best.hours - 1e-9)) * best.gpus;
    assert(card !== null && Math.abs(card - billed * offerPrice[best.gpu]) <= 1e-6 * card,
      'the answer card shows ' + card + ' CNY, not ' + billed + ' billed GPU-hours x ' + offerPrice[best.gpu]);
    {
      assert(priced.provider.recommended_offer !== null, 'the rented answer names no offer');
      const facts = await page.evaluate(() => document.querySelector('#provider-banner .provider-facts').textContent);
      assert(facts.includes('#' + (priced.provider.recommended_offer + 1)), 'the banner does not name the offer: ' + facts);
    }

    // A bad document: the core's located error, as text; the accepted provider stays.
    const bad = JSON.parse(EXAMPLE);
    bad.offers[2].price_cny_per_gpu_hour = -1;
    const refused = await page.evaluate((text) => window.gpuAdvisor.setProvider(text), JSON.stringify(bad));
    assert(refused.error && refused.error.path === '/offers/2/price_cny_per_gpu_hour', 'no located error: ' + JSON.stringify(refused));
    const errText = await page.evaluate(() => document.getElementById('provider-banner').textContent);
    assert(errText.includes('/offers/2/price_cny_per_gpu_hour') && errText.includes('out_of_range'), 'the banner does not show the located error: ' + errText);

    // Hostile text: markup in the name is shown as text and never runs.
    const hostile = JSON.parse(EXAMPLE);
    hostile.name = '<img src=x onerror="window.__pwned=1">Evil';
    hostile.offers[0].region = '<script>window.__pwned=2</script>';
    await andRun(page, (text) => window.gpuAdvisor.setProvider(text), JSON.stringify(hostile));
    await page.waitForTimeout(200);
    const safe = await page.evaluate(() => {
      const b = document.getElementById('provider-banner');
      return { text: b.textContent, elements: b.querySelectorAll('img, script').length, pwned: window.__pwned || null,
        anywhere: document.querySelectorAll('img[src="x"]').length };
    });
    assert(safe.text.includes('<img src=x onerror="window.__pwned=1">Evil'), 'the hostile name is not shown as text: ' + safe.text);
    assert(safe.elements === 0 && safe.anywhere === 0 && safe.pwned === null, 'provider text became markup: ' + JSON.stringify(safe));

    // The banner's button: back to the neutral defaults, the same answer as before.
    await andRun(page, () => document.querySelector('#provider-banner .provider-clear').click());
    const back = await page.evaluate(() => ({ result: window.gpuAdvisor.lastResult,
      hidden: document.getElementById('provider-banner').hidden }));
    assert(back.hidden, 'the banner stays after switching back');
    assert(!back.result.provider, 'the result still has a provider block');
    assert(JSON.stringify(back.result.recommendation.best) === JSON.stringify(neutral.recommendation.best),
      'switching back did not restore the neutral answer');
    await page.close();
  });

  await check('provider catalog: its own GPUs are in the GPU picker; choosing or pinning one puts it into /hardware; cleared, a pinned one stays as itself', async () => {
    const own = example.gpus[0];
    const page = await context.newPage();
    watch(page, 'provider GPUs');
    await page.goto(url);
    await waitReady(page, { folded: true });
    await andRun(page, (text) => window.gpuAdvisor.setProvider(text), EXAMPLE);
    const option = await page.evaluate((id) => {
      const o = Array.from(document.getElementById('in-gpu').options).find((x) => x.value === id);
      return o ? { text: o.textContent, unknown: o.hasAttribute('data-unknown'), group: o.parentElement.label || '' } : null;
    }, own.id);
    assert(option && option.text.includes(own.name) && !option.unknown && option.group.includes(example.name), 'the picker does not list the provider\'s GPU: ' + JSON.stringify(option));
    await page.selectOption('#in-gpu', own.id);
    await settle(page, (r, id) => r.hardware && r.hardware.gpu === id, own.id);
    assert(!(await page.evaluate(() => window.gpuAdvisor.lastError)), 'the core refused the provider\'s GPU');
    await page.selectOption('#in-gpu', '');
    await settle(page, (r) => !r.hardware);
    // What every pin button calls, with a plan on the provider's GPU.
    await page.evaluate((id) => window.gpuAdvisor.internals.pinPlan({ gpu: id, gpus: 2, deployment: 'rent', name: 'x' }), own.id);
    await settle(page, (r, id) => Boolean(r.hardware), own.id);
    const pinned = await page.evaluate(() => ({ hw: window.gpuAdvisor.lastRequest.hardware, error: window.gpuAdvisor.lastError }));
    assert(pinned.hw.gpu === own.id && pinned.hw.count === 2 && !pinned.error, 'pinned: ' + JSON.stringify(pinned));
    // Back to neutral: the pinned GPU stays as itself (marked unknown) and the core names it.
    await andRun(page, () => window.gpuAdvisor.clearProvider());
    const cleared = await page.evaluate(() => ({ hw: window.gpuAdvisor.lastRequest.hardware, error: window.gpuAdvisor.lastError,
      selected: document.getElementById('in-gpu').selectedOptions[0].hasAttribute('data-unknown'),
      listed: Array.from(document.querySelectorAll('#in-gpu option[data-provider]')).length }));
    assert(cleared.hw.gpu === own.id && cleared.selected && !cleared.listed, 'after clearing: ' + JSON.stringify(cleared));
    assert(cleared.error && cleared.error.code === 'unknown_gpu' && cleared.error.path === '/hardware/gpu', 'error ' + JSON.stringify(cleared.error));
    await page.close();
  });

  await check('provider catalog: the banner names the built-in GPUs whose specs it replaces (gpus_replaced), as text, in both languages; none when the list is empty or missing', async () => {
    const page = await context.newPage();
    watch(page, 'provider replaces');
    await page.goto(url);
    await waitReady(page, { folded: true });
    const line = () => page.evaluate(() => { const n = document.querySelector('#provider-banner .provider-replaced'); return n ? n.textContent : null; });
    await andRun(page, (text) => window.gpuAdvisor.setProvider(text), EXAMPLE);
    assert(await line() === null, 'a provider that replaces nothing has a "replaces" line');
    // A document whose own entry carries a built-in id. Until the core reports gpus_replaced
    // (issue 23 item 6) the summary is given the list it will report; a markup id rides along.
    const doc = JSON.parse(EXAMPLE);
    doc.gpus.push(Object.assign({}, doc.gpus[0], { id: 'h100-sxm-80gb' }));
    await page.evaluate((markup) => {
      // The core's own check of the document, wrapped: its summary names a part full of markup.
      const core = window.gpuAdvisor.internals.coreModule();
      const real = core.validateProvider;
      core.validateProvider = function (text) {
        const answer = JSON.parse(real.call(core, text));
        if (answer.provider) answer.provider.gpus_replaced = (answer.provider.gpus_replaced || ['h100-sxm-80gb']).concat([markup]);
        return JSON.stringify(answer);
      };
    }, MARKUP);
    await andRun(page, (text) => window.gpuAdvisor.setProvider(text), JSON.stringify(doc));
    const name = await page.evaluate(() => window.gpuAdvisor.internals.findGpu('h100-sxm-80gb').name); // the built-in part, by name
    for (const lang of ['zh-CN', 'en']) {
      await page.evaluate((l) => window.gpuAdvisor.setLanguage(l), lang);
      const text = await line();
      const head = zh[lang]['provider.replaced'].split('{gpus}')[0];
      assert(text && text.startsWith(head) && text.includes(name) && text.includes(MARKUP), lang + ': "' + text + '"');
      if (lang === 'zh-CN') await shot(page, 'provider-replaces.png', '#provider-banner');
    }
    const safe = await page.evaluate(() => ({ img: document.querySelectorAll('#provider-banner img').length, pwned: window.__pwned || null }));
    assert(!safe.img && safe.pwned === null, 'a replaced id became markup');
    await page.close();
  });

  await check('provider catalog: ?catalog= loads a same-origin URL and refuses another origin', async () => {
    // The site over HTTP with the example at /catalogs/provider.json.
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
    const server = http.createServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === '/catalogs/provider.json') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(EXAMPLE); return; }
      const file = path.join(siteDir, path.normalize(u.pathname === '/' ? '/index.html' : u.pathname));
      if (!file.startsWith(siteDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
    });
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    const base = 'http://127.0.0.1:' + server.address().port + '/';
    try {
      const page = await context.newPage();
      await page.goto(base + '?catalog=' + encodeURIComponent('/catalogs/provider.json'));
      await waitReady(page);
      await page.waitForFunction(() => window.gpuAdvisor.lastResult && window.gpuAdvisor.lastResult.provider && !window.gpuAdvisor.pending, null, { timeout: 15000 });
      const text = await page.evaluate(() => document.getElementById('provider-banner').textContent);
      assert(text.includes(example.name), 'the ?catalog banner does not name the provider: ' + text);
      await page.close();

      const other = await context.newPage();
      const asked = [];
      other.on('request', (r) => asked.push(r.url()));
      await other.goto(base + '?catalog=' + encodeURIComponent('http://localhost:' + server.address().port + '/catalogs/provider.json'));
      await waitReady(other);
      await other.waitForFunction(() => { const b = document.getElementById('provider-banner'); return b && !b.hidden; }, null, { timeout: 15000 });
      const refused = await other.evaluate(() => ({ text: document.getElementById('provider-banner').textContent, provider: Boolean(window.gpuAdvisor.lastResult.provider) }));
      assert(refused.text.includes('localhost') && !refused.provider, 'another origin was not refused: ' + refused.text);
      assert(!asked.some((u) => u.startsWith('http://localhost')), 'the page fetched the other origin');
      await other.close();
    } finally {
      server.close();
    }
  });
};
