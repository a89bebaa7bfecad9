// SPDX-License-Identifier: MIT
// The <gpu-advisor> widget and the page's postMessage API (issue 10 items 1 and 3), in headless
// Chromium, over HTTP on three origins:
//   widget   http://127.0.0.1:<B>   the dist (scripts/serve.cjs): /widget/gpu-advisor.js and the
//                                   page it frames
//   host     http://127.0.0.1:<A>   a provider's page: a strict CSP header, hostile global CSS
//                                   (* { all: unset }, iframe { display: none }), two widgets
//   stranger http://localhost:<A>   another origin in the host page (an ad frame) that posts to
//                                   the advisor's frame: ignored
// Checks: both widgets show the answer; ready and result events fire; setRequest changes the
// result and getResult() returns it; a theme variable reaches the frame; a located error comes
// back as an error event; zero CSP violations in the host and the frames; the host's own DOM is
// untouched; a host with its own iframe drives the page through postMessage alone, and a page
// told another origin sends it nothing; the share button in a cross-origin frame copies the
// standalone link; the example host page of the dist works.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const ACCENT = 'rgb(200, 0, 100)';
// A provider's logo as a data: URL (the frame loads nothing from the network).
const LOGO = 'data:image/svg+xml;base64,' + Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="30"><rect width="96" height="30" fill="#c80064"/></svg>').toString('base64');
const FONT = 'Georgia, serif';
const HOSTILE_CSS = `* { all: unset !important; }
iframe { display: none !important; }
div, p, span { color: red !important; font-size: 40px !important; }
gpu-advisor { --gpu-advisor-accent: ${ACCENT}; --gpu-advisor-font: ${FONT}; }
#b { --gpu-advisor-accent: rgb(0, 90, 60); }
#a { --gpu-advisor-logo: url("${LOGO}"); }
`;

// The host page's script: records what the widgets say.
const HOST_JS = `'use strict';
window.__events = [];
window.__violations = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__violations.push(e.violatedDirective + ' ' + e.blockedURI); });
['a', 'b'].forEach(function (id) {
  const el = document.getElementById(id);
  ['ready', 'result', 'error'].forEach(function (type) {
    el.addEventListener(type, function (e) { window.__events.push({ id: id, type: type, detail: JSON.parse(JSON.stringify(e.detail)) }); });
  });
});
`;

// A host that uses its own <iframe> and postMessage, no widget script.
const RAW_JS = `'use strict';
window.__messages = [];
const frame = document.getElementById('raw');
window.addEventListener('message', function (e) {
  if (e.source !== frame.contentWindow) return;
  window.__messages.push({ origin: e.origin, data: JSON.parse(JSON.stringify(e.data)) });
  if (e.data && e.data.type === 'gpu-advisor:ready') {
    frame.contentWindow.postMessage({ type: 'gpu-advisor:set-request', request: { schema: 1, task: 'qlora', model: { preset: 'llama-3.1-70b' } } }, e.origin);
    frame.contentWindow.postMessage({ type: 'gpu-advisor:get-result', id: 7 }, e.origin);
  }
});
`;

// The stranger: posts to the advisor's frame through the host's window.
const STRANGER_JS = `'use strict';
setInterval(function () {
  try {
    const target = parent.document; // throws: another origin
  } catch (e) { /* expected */ }
  for (let i = 0; i < parent.frames.length; i++) {
    if (parent.frames[i] === window) continue;
    parent.frames[i].postMessage({ type: 'gpu-advisor:set-request', request: { schema: 1, task: 'inference', model: { preset: 'qwen2.5-72b' } } }, '*');
    parent.frames[i].postMessage({ type: 'gpu-advisor:set-theme', theme: { accent: 'rgb(1, 2, 3)' } }, '*');
  }
}, 200);
`;

// The provider catalog example (data/examples, issue 10 item 2) and a copy whose texts carry
// markup: the page must show them as text.
const PROVIDER_TEXT = fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'examples', 'provider-example.json'), 'utf8');
// 71 characters: within the catalog's text limits (regions 80), so that it is accepted and shown.
const PAYLOAD = '<img src=x onerror="parent.__pwned=1"><script>parent.__pwned=2</script>';
function hostileProvider() {
  const doc = JSON.parse(PROVIDER_TEXT);
  doc.name = PAYLOAD;
  if (doc.note !== undefined) doc.note = PAYLOAD;
  (doc.offers || []).forEach((o) => { if (o.region !== undefined) o.region = PAYLOAD; });
  return JSON.stringify(doc);
}

function hostServer(widgetOrigin) {
  const strangerOrigin = 'STRANGER'; // http://localhost:<this server's port>, filled in per request
  const pages = {
    '/host.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<link rel="stylesheet" href="hostile.css"><script src="${widgetOrigin}/widget/gpu-advisor.js"></script></head><body>
<div id="host-banner">Host banner</div>
<gpu-advisor id="a" lang="zh-CN" height="600"></gpu-advisor>
<div id="host-middle">between</div>
<gpu-advisor id="b" lang="en" chrome="tools notice" catalog="${widgetOrigin}/elsewhere.json"></gpu-advisor>
<iframe id="stranger" src="${strangerOrigin}/stranger.html" title="stranger"></iframe>
<script src="host.js"></script></body></html>`,
    '/raw.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>raw host</title></head><body>
<iframe id="raw" title="advisor" src="${widgetOrigin}/widget/gpu-advisor.html?embed=1&amp;origin=ORIGIN" width="900" height="600"></iframe>
<script src="raw.js"></script></body></html>`,
    '/wrong.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wrong origin</title></head><body>
<iframe id="raw" title="advisor" src="${widgetOrigin}/widget/gpu-advisor.html?embed=1&amp;origin=https://example.invalid" width="900" height="600"></iframe>
<script src="raw.js"></script></body></html>`,
    '/stranger.html': '<!doctype html><html><head><meta charset="utf-8"><title>s</title></head><body><script src="stranger.js"></script></body></html>',
    '/hostile.css': HOSTILE_CSS,
    '/host.js': HOST_JS,
    '/raw.js': RAW_JS,
    '/stranger.js': STRANGER_JS,
    '/catalog.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>catalogs</title>
<link rel="stylesheet" href="hostile.css"><script src="${widgetOrigin}/widget/gpu-advisor.js"></script></head><body>
<div id="host-banner">Host banner</div>
<gpu-advisor id="a" catalog="provider.json"></gpu-advisor>
<gpu-advisor id="b" catalog="hostile-provider.json"></gpu-advisor>
<gpu-advisor id="c" catalog="broken-provider.json"></gpu-advisor>
<script src="catalog.js"></script></body></html>`,
    '/catalog.js': HOST_JS.replace("['a', 'b']", "['a', 'b', 'c']"),
    // The compact card (issue 29 item 1): a provider's page with its catalog and logo.
    '/card.html': `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>card host</title>
<link rel="stylesheet" href="hostile.css"><link rel="stylesheet" href="card.css"><script src="${widgetOrigin}/widget/gpu-advisor.js"></script></head><body>
<div id="host-banner">Host banner</div>
<gpu-advisor id="card" mode="card" lang="zh-CN" catalog="provider.json"></gpu-advisor>
<div id="host-after">after</div>
<script src="card.js"></script></body></html>`,
    '/card.css': `#card { --gpu-advisor-logo: url("${LOGO}"); }\n`,
    '/card.js': HOST_JS.replace("['a', 'b']", "['card']"),
    '/provider.json': PROVIDER_TEXT,
    '/hostile-provider.json': hostileProvider(),
    '/broken-provider.json': PROVIDER_TEXT.slice(0, Math.floor(PROVIDER_TEXT.length / 2)),
  };
  const types = { html: 'text/html; charset=utf-8', css: 'text/css', js: 'text/javascript', json: 'application/json' };
  return http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    let body = pages[u.pathname];
    if (body === undefined) { res.writeHead(404).end('not found'); return; }
    const self = 'http://' + req.headers.host;
    const stranger = 'http://localhost:' + req.socket.localPort;
    body = body.replace('ORIGIN', self).replace(/STRANGER/g, stranger);
    const csp = ["default-src 'none'", "script-src 'self' " + widgetOrigin, "style-src 'self'",
      'frame-src ' + widgetOrigin + ' ' + stranger, "connect-src 'self'", "img-src 'self' data:"].join('; ');
    res.writeHead(200, { 'Content-Type': types[u.pathname.split('.').pop()], 'Content-Security-Policy': csp });
    res.end(body);
  });
}

async function listen(server, host) {
  await new Promise((resolve) => server.listen(0, host || '127.0.0.1', resolve));
  return server.address().port;
}

/** The advisor's frame inside a widget (Playwright's selectors pierce open shadow roots). */
async function frameOf(page, id) {
  const handle = await page.locator('#' + id + ' iframe').elementHandle();
  return handle.contentFrame();
}

/**
 * In every frame, from before its first script: the first answer headline that is painted
 * (checked in each animation frame, i.e. before each paint), with the price figures in it.
 */
const RECORD_FIRST_PAINT = () => {
  window.__firstAnswer = null;
  const poll = () => {
    const n = document.getElementById('answer-headline');
    if (n && n.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
      const card = document.getElementById('panel-answer');
      window.__firstAnswer = { headline: n.textContent, card: card ? card.textContent : '', at: performance.now() };
      return;
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
};

/** The cheapest on-demand price of `gpu` among the catalog's offers that are not sold out. */
function offerPrice(catalogText, gpu) {
  const offers = JSON.parse(catalogText).offers.filter((o) => o.gpu === gpu && o.availability !== 'sold_out' && typeof o.price_cny_per_gpu_hour === 'number');
  return offers.length ? Math.min(...offers.map((o) => o.price_cny_per_gpu_hour)) : null;
}

/**
 * <gpu-advisor mode="card"> cross-origin under the host's strict CSP at 360, 390 and 1280 px:
 * the provider's prices in the first painted answer, the frame sized to the height it reports
 * (no scrolling inside), the application's chrome hidden, the inputs a buyer changes, the
 * provider's offers and logo, and a link to the full advisor with the same request.
 */
async function cardChecks(T) {
  const { assert, check, browser, siteDir, shotDir } = T;
  const distDir = path.dirname(siteDir);
  const { createServer } = require('../../scripts/serve.cjs');
  const widgetServer = createServer(distDir);
  const widgetOrigin = 'http://127.0.0.1:' + await listen(widgetServer);
  const host = hostServer(widgetOrigin);
  await new Promise((resolve) => host.listen(0, resolve));
  const hostOrigin = 'http://127.0.0.1:' + host.address().port;
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const pageErrors = [];
  context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message)));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window.__frameViolations = window.__frameViolations || []).push(e.violatedDirective + ' ' + e.blockedURI);
    });
  });
  await context.addInitScript(RECORD_FIRST_PAINT);
  try {
    for (const width of [360, 390, 1280]) {
      await check('card widget at ' + width + ' px, cross-origin under a strict CSP: provider prices in the first paint, height reported, the answer without inner scrolling, chrome hidden, offers, logo, the full-advisor link', async () => {
        const page = await context.newPage();
        await page.setViewportSize({ width: width, height: 800 });
        await page.goto(hostOrigin + '/card.html');
        await page.waitForFunction(() => window.__events.some((e) => e.type === 'result'), null, { timeout: 40000 });
        const frame = await frameOf(page, 'card');
        await frame.waitForFunction(() => window.__firstAnswer && window.gpuAdvisor && !window.gpuAdvisor.pending, null, { timeout: 10000 });
        await page.waitForTimeout(400); // the last resize message
        // Every result the host heard was priced by the provider: none with neutral prices first.
        const events = await page.evaluate(() => window.__events);
        const results = events.filter((e) => e.type === 'result');
        assert(results.every((e) => e.detail.result.provider), 'a result without the provider\'s prices: ' + results.map((e) => !!e.detail.result.provider).join(','));
        assert(!events.some((e) => e.type === 'error'), 'errors: ' + JSON.stringify(events.filter((e) => e.type === 'error')));
        const s = await frame.evaluate(() => {
          const visible = (n) => !!n && n.checkVisibility({ visibilityProperty: true });
          const box = (n) => { const r = n.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
          const best = window.gpuAdvisor.lastResult.recommendation.best;
          const link = document.getElementById('card-full-link');
          return {
            first: window.__firstAnswer,
            headline: document.getElementById('answer-headline').textContent,
            card: document.getElementById('panel-answer').textContent,
            best: { gpu: best.gpu, perHour: best.cost.cny_per_gpu_hour, deployment: best.deployment },
            answer: box(document.getElementById('panel-answer')),
            reasons: document.querySelectorAll('#panel-answer .reason-item').length,
            inner: innerHeight, iw: innerWidth,
            sh: document.scrollingElement.scrollHeight, sw: document.scrollingElement.scrollWidth,
            docHeight: Math.ceil(document.documentElement.getBoundingClientRect().height),
            chrome: ['.topbar', '#btn-export', '#btn-reset', '.footer', '#scenarios', '#section-nav', '#panel-warnings', '#panel-cost'].filter((q) => visible(document.querySelector(q))),
            notice: /请向供应商确认/.test(document.body.innerText),
            inputs: ['#in-preset', '#in-tokens', '#in-deadline', '#in-budget', 'input[name="task"]'].filter((q) => !visible(document.querySelector(q))),
            extra: ['#in-seq', '#in-precision', '#in-gpu', '#in-objective', '#in-stack'].filter((q) => visible(document.querySelector(q))),
            offers: Array.from(document.querySelectorAll('.card-offer')).map((n) => ({ gpu: n.dataset.gpu, rec: n.classList.contains('recommended'), text: n.textContent })),
            provider: (document.querySelector('.card-provider-name') || {}).textContent || '',
            logo: (() => { const i = document.querySelector('img.card-logo'); return i && visible(i) && i.naturalWidth > 0 ? i.getAttribute('src').slice(0, 26) : ''; })(),
            link: link && visible(link) ? { href: link.href, target: link.target, rel: link.rel } : null,
            request: window.gpuAdvisor.lastRequest,
          };
        });
        const frameBox = await page.locator('#card iframe').boundingBox();
        // The first answer painted is the provider's: the same headline as now, its price the catalog's.
        assert(s.first.headline === s.headline, 'the first painted answer differs from the provider\'s: ' + s.first.headline + ' / ' + s.headline);
        const price = offerPrice(PROVIDER_TEXT, s.best.gpu);
        assert(/^rent/.test(s.best.deployment) && price !== null && Math.abs(s.best.perHour - price) < 1e-9, 'the card\'s price is not the provider\'s: ' + JSON.stringify(s.best) + ' offer ' + price);
        assert(s.first.card.includes(String(price)) || s.first.card.includes(price.toFixed(2)), 'the provider\'s price ' + price + ' is not in the first painted card');
        // The frame is as tall as the page says; nothing scrolls inside it; the whole answer is in it.
        assert(Math.abs(frameBox.height - s.docHeight) <= 1 && s.inner === Math.round(frameBox.height), 'frame ' + frameBox.height + ' px, content ' + s.docHeight + ' px, inner ' + s.inner);
        assert(s.sh <= s.inner + 1 && s.sw <= s.iw, 'the frame scrolls inside: ' + JSON.stringify({ sh: s.sh, inner: s.inner, sw: s.sw, iw: s.iw }));
        assert(s.answer.top >= 0 && s.answer.bottom <= s.inner && s.reasons >= 4, 'the answer is not wholly in the frame: ' + JSON.stringify(s.answer) + ' reasons ' + s.reasons);
        assert(frameBox.height < (width < 400 ? 2400 : 1600), 'the card is ' + frameBox.height + ' px tall');
        assert(!s.chrome.length && !s.notice, 'chrome shown: ' + s.chrome.join(', ') + (s.notice ? ' + the confirm-with-provider notice' : ''));
        assert(!s.inputs.length && !s.extra.length, 'inputs missing: ' + s.inputs.join(', ') + '; extra: ' + s.extra.join(', '));
        assert(s.offers.length > 0 && s.offers[0].rec && s.offers[0].gpu === s.best.gpu && s.offers[0].text.includes(String(price)), 'offers ' + JSON.stringify(s.offers).slice(0, 300));
        assert(s.provider === JSON.parse(PROVIDER_TEXT).name, 'provider name ' + s.provider);
        assert(s.logo.startsWith('data:image/svg+xml'), 'logo ' + s.logo);
        // The link: the standalone page with this request, in a new tab.
        assert(s.link && s.link.target === '_blank' && /noopener/.test(s.link.rel), 'link ' + JSON.stringify(s.link));
        const u = new URL(s.link.href);
        assert(u.origin + u.pathname === widgetOrigin + '/widget/gpu-advisor.html' && !u.search && /^#req=/.test(u.hash), 'link ' + s.link.href);
        const decoded = await frame.evaluate((hash) => window.gpuAdvisor.internals.parseUntrustedJson(new TextDecoder().decode(Uint8Array.from(atob(hash.slice(5).replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)))).value, u.hash);
        assert(JSON.stringify(decoded) === JSON.stringify(s.request), 'the link carries another request');
        await page.screenshot({ path: path.join(shotDir, 'widget-card-' + width + '.png'), fullPage: true });
        // An input in the card recomputes: the model.
        if (width === 390) {
          const before = await page.evaluate(() => window.__events.length);
          await frame.selectOption('#in-preset', 'qwen2.5-7b');
          await page.waitForFunction((n) => window.__events.slice(n).some((e) => e.type === 'result' && e.detail.request.model.preset === 'qwen2.5-7b' && e.detail.result.provider), before, { timeout: 10000 });
          const href = await frame.evaluate(() => document.getElementById('card-full-link').href);
          assert(href !== s.link.href, 'the link did not follow the request');
        }
        const v = await page.evaluate(() => window.__violations);
        const fv = [];
        for (const f of page.frames()) fv.push(...await f.evaluate(() => window.__frameViolations || []).catch(() => []));
        assert(!v.length && !fv.length, 'CSP violations: ' + v.concat(fv).slice(0, 5).join('; '));
        await page.close();
      });
    }
    await check('card widget: no script errors', async () => {
      assert(!pageErrors.length, pageErrors.slice(0, 5).join('; '));
    });
  } finally {
    await context.close();
    widgetServer.close();
    host.close();
  }
}

module.exports = async function widgetAndCardChecks(T) {
  await widgetChecks(T);
  await cardChecks(T);
};
module.exports.card = cardChecks;

async function widgetChecks(T) {
  const { assert, check, browser, siteDir, shotDir } = T;
  const distDir = path.dirname(siteDir);
  const { createServer } = require('../../scripts/serve.cjs');
  const widgetServer = createServer(distDir);
  const widgetPort = await listen(widgetServer);
  const widgetOrigin = 'http://127.0.0.1:' + widgetPort;
  // The host and the stranger: one server, two host names, two origins.
  const hostServer2 = hostServer(widgetOrigin);
  await new Promise((resolve) => hostServer2.listen(0, resolve)); // every interface: 127.0.0.1 and localhost
  const hostPort = hostServer2.address().port;
  const hostOrigin = 'http://127.0.0.1:' + hostPort;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const pageErrors = [];
  const frameViolations = [];
  context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message)));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window.__frameViolations = window.__frameViolations || []).push(e.violatedDirective + ' ' + e.blockedURI);
    });
  });

  try {
    const page = await context.newPage();
    await page.goto(hostOrigin + '/host.html');

    await check('widget: under hostile host CSS and a strict host CSP, both widgets fire ready and result and show the answer', async () => {
      await page.waitForFunction(() => ['a', 'b'].every((id) => window.__events.some((e) => e.id === id && e.type === 'result')), null, { timeout: 40000 });
      const events = await page.evaluate(() => window.__events);
      for (const id of ['a', 'b']) {
        const mine = events.filter((e) => e.id === id).map((e) => e.type);
        assert(mine.indexOf('ready') >= 0 && mine.indexOf('ready') < mine.indexOf('result'), id + ': events ' + mine.join(','));
      }
      const ready = events.find((e) => e.id === 'a' && e.type === 'ready').detail;
      assert(typeof ready.version === 'string' && ready.lang === 'zh-CN', 'ready detail ' + JSON.stringify(ready));
      for (const id of ['a', 'b']) {
        const frame = await frameOf(page, id);
        const box = await page.locator('#' + id + ' iframe').boundingBox();
        assert(box && box.width > 600 && box.height >= 590, id + ': frame box ' + JSON.stringify(box));
        const headline = await frame.evaluate(() => { const n = document.getElementById('answer-headline'); return n && n.getClientRects().length ? n.textContent : ''; });
        assert(headline, id + ': no answer in the frame');
        const lang = await frame.evaluate(() => document.documentElement.lang);
        assert(lang === (id === 'a' ? 'zh-CN' : 'en'), id + ': frame language ' + lang);
      }
      // Widget a has height="600": the answer is within it (the answer first).
      const a = await frameOf(page, 'a');
      const inView = await a.evaluate(() => { const r = document.getElementById('answer-headline').getBoundingClientRect(); return { bottom: r.bottom, inner: innerHeight, sw: document.scrollingElement.scrollWidth, iw: innerWidth }; });
      assert(inView.inner === 600 && inView.bottom <= 600, 'answer headline not in the 600 px frame: ' + JSON.stringify(inView));
      assert(inView.sw <= inView.iw, 'the 600 px frame scrolls sideways: ' + JSON.stringify(inView));
      await page.screenshot({ path: path.join(shotDir, 'widget-hostile-host.png'), fullPage: true });
    });

    await check('widget: in a 360 px-wide host the answer comes first in both frames (600 px and content-sized), no sideways scroll', async () => {
      await page.setViewportSize({ width: 360, height: 800 });
      await page.waitForTimeout(600); // the frames re-lay out and report their height
      for (const id of ['a', 'b']) {
        const frame = await frameOf(page, id);
        const s = await frame.evaluate(() => ({ top: document.getElementById('answer-headline').getBoundingClientRect().top, sw: document.scrollingElement.scrollWidth, iw: innerWidth }));
        assert(s.top < 600 - 40, id + ': the answer starts at ' + s.top + ' px in the frame');
        assert(s.sw <= s.iw, id + ': the frame scrolls sideways ' + JSON.stringify(s));
      }
      const host = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
      assert(host[0] <= host[1], 'the host scrolls sideways: ' + host);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.waitForTimeout(300);
    });

    await check('widget: the application\'s chrome is hidden in the frame (dark bar, Export JSON / Reset, the confirm-with-provider notice) unless the chrome attribute asks for it', async () => {
      const parts = async (f) => {
        await f.evaluate(() => window.gpuAdvisor.expandAll());
        await f.waitForFunction(() => !window.gpuAdvisor.pending && document.querySelector('#panel-warnings .panel-body'), null, { timeout: 10000 });
        return f.evaluate(() => {
        const visible = (q) => { const n = document.querySelector(q); return !!n && n.checkVisibility({ visibilityProperty: true }); };
        return { title: visible('.brand-title'), bar: getComputedStyle(document.querySelector('.topbar')).backgroundColor,
          exportBtn: visible('#btn-export'), reset: visible('#btn-reset'), share: visible('#btn-share'), print: visible('#btn-print'),
          notice: Array.from(document.querySelectorAll('#panel-warnings .warning')).some((n) => /prices_need_confirmation/.test(n.textContent)),
          warnings: (window.gpuAdvisor.lastResult.warnings || []).map((w) => w.code) };
        });
      };
      const a = await parts(await frameOf(page, 'a'));
      assert(!a.title && a.bar !== 'rgb(21, 34, 51)' && !a.exportBtn && !a.reset && !a.notice, 'widget a shows chrome: ' + JSON.stringify(a));
      assert(a.share && a.print, 'widget a lost its share / print buttons: ' + JSON.stringify(a));
      const b = await parts(await frameOf(page, 'b'));
      assert(!b.title && b.exportBtn && b.reset, 'widget b (chrome="tools notice"): ' + JSON.stringify(b));
      assert(b.notice === b.warnings.includes('prices_need_confirmation'), 'widget b: the notice ' + JSON.stringify(b));
    });

    await check('widget: the host page is untouched (its own nodes, no globals but the element)', async () => {
      const s = await page.evaluate(() => ({
        bodyChildren: Array.from(document.body.children).map((n) => n.tagName.toLowerCase() + (n.id ? '#' + n.id : '')),
        defined: !!customElements.get('gpu-advisor'),
        globals: Object.keys(window).filter((k) => /advisor/i.test(k)),
        banner: document.getElementById('host-banner').textContent,
      }));
      assert(s.defined, 'gpu-advisor is not defined');
      assert(!s.globals.length, 'globals: ' + s.globals.join(', '));
      assert(s.banner === 'Host banner', 'host text changed');
      assert(s.bodyChildren.join(' ') === 'div#host-banner gpu-advisor#a div#host-middle gpu-advisor#b iframe#stranger script', 'host DOM: ' + s.bodyChildren.join(' '));
    });

    await check('widget: a cross-origin catalog URL gives a located error event', async () => {
      const events = await page.evaluate(() => window.__events.filter((e) => e.type === 'error'));
      const e = events.find((x) => x.id === 'b' && x.detail.code === 'catalog_not_same_origin');
      assert(e && e.detail.path === 'catalog', 'no catalog error on b: ' + JSON.stringify(events));
    });

    await check('widget: theme variables on the element (accent, font, logo) reach the frame; each widget its own', async () => {
      const a = await frameOf(page, 'a');
      const b = await frameOf(page, 'b');
      await a.waitForFunction((want) => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() === want, ACCENT, { timeout: 5000 });
      const s = await a.evaluate(() => ({ font: getComputedStyle(document.body).fontFamily, accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() }));
      assert(s.font.includes('Georgia'), 'font ' + s.font);
      const bAccent = await b.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
      assert(bAccent === 'rgb(0, 90, 60)', 'widget b accent ' + bAccent);
      const logo = await a.evaluate(() => ({ on: document.body.classList.contains('has-logo'), image: getComputedStyle(document.querySelector('.brand-mark')).backgroundImage.slice(0, 40) }));
      assert(logo.on && logo.image.startsWith('url("data:image/svg+xml'), 'the logo did not reach the frame: ' + JSON.stringify(logo));
      const bLogo = await b.evaluate(() => document.body.classList.contains('has-logo'));
      assert(!bLogo, 'widget b shows a logo it was not given');
    });

    await check('widget: setRequest changes the result (result event, getResult); the other widget and a stranger frame change nothing', async () => {
      const before = await page.evaluate(() => window.__events.length);
      await page.evaluate(() => document.getElementById('a').setRequest({ schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: 2048, tokens: 1e8 } }));
      await page.waitForFunction((n) => window.__events.slice(n).some((e) => e.id === 'a' && e.type === 'result' && e.detail.request.task === 'lora'), before, { timeout: 10000 });
      const got = await page.evaluate(() => document.getElementById('a').getResult().then((r) => ({ task: r.request.task, preset: r.request.model.preset, rec: !!r.result.recommendation })));
      assert(got.task === 'lora' && got.preset === 'qwen2.5-7b' && got.rec, 'getResult ' + JSON.stringify(got));
      const a = await frameOf(page, 'a');
      const b = await frameOf(page, 'b');
      await page.waitForTimeout(800); // the stranger posts every 200 ms
      const s = await a.evaluate(() => ({ task: window.gpuAdvisor.lastRequest.task, accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() }));
      assert(s.task === 'lora', 'the stranger changed the request: ' + s.task);
      assert(s.accent === ACCENT, 'the stranger changed the theme: ' + s.accent);
      const bTask = await b.evaluate(() => window.gpuAdvisor.lastRequest.task);
      assert(bTask === 'full_finetune', 'widget b changed: ' + bTask);
    });

    await check('widget: a bad request comes back as an error event with its place; getResult rejects with it', async () => {
      const before = await page.evaluate(() => window.__events.length);
      await page.evaluate(() => document.getElementById('a').setRequest({ schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: -5 } }));
      await page.waitForFunction((n) => window.__events.slice(n).some((e) => e.id === 'a' && e.type === 'error'), before, { timeout: 10000 });
      const e = await page.evaluate((n) => window.__events.slice(n).find((x) => x.type === 'error').detail, before);
      assert(e.code && e.message && e.path === '/training/sequence_length', 'error detail ' + JSON.stringify(e));
      const rejected = await page.evaluate(() => document.getElementById('a').getResult().then(() => 'resolved', (x) => x.path));
      assert(rejected === '/training/sequence_length', 'getResult: ' + rejected);
    });

    await check('widget: language switch through the lang attribute', async () => {
      await page.evaluate(() => document.getElementById('a').setAttribute('lang', 'en'));
      const a = await frameOf(page, 'a');
      await a.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: 5000 });
    });

    await check('widget: the share button in a cross-origin frame copies the standalone link (or shows it to copy)', async () => {
      const a = await frameOf(page, 'a');
      const url = a.url();
      await a.click('#btn-share');
      await a.waitForFunction(() => { const t = document.getElementById('toast'); const b = document.getElementById('copy-box'); return (t && !t.hidden) || (b && !b.hidden); }, null, { timeout: 5000 });
      const s = await a.evaluate(() => ({ link: window.gpuAdvisor.internals.shareLink(), box: (document.getElementById('copy-box') || {}).hidden === false ? document.getElementById('copy-box-text').value : null }));
      assert(a.url().split('#')[0] === url.split('#')[0], 'the frame navigated: ' + a.url());
      assert(!/[?&](embed|origin|fit)=/.test(s.link) && /#(lang=en&)?req=/.test(s.link) && s.link.startsWith(widgetOrigin + '/widget/gpu-advisor.html'), 'share link ' + s.link);
      if (s.box !== null) assert(s.box === s.link, 'the copy box shows ' + s.box);
      // Blocked clipboard: the box with the link, selected.
      await a.evaluate(() => window.gpuAdvisor.internals.showCopyBox(window.gpuAdvisor.internals.shareLink()));
      const box = await a.evaluate(() => ({ value: document.getElementById('copy-box-text').value, focused: document.activeElement.id }));
      assert(box.value === s.link && box.focused === 'copy-box-text', 'copy box ' + JSON.stringify(box));
      await a.evaluate(() => { document.getElementById('copy-box').hidden = true; });
    });

    await check('widget: zero CSP violations in the host page and in the frames; no script errors', async () => {
      const host = await page.evaluate(() => window.__violations);
      assert(!host.length, 'host: ' + host.join('; '));
      for (const f of page.frames()) {
        const v = await f.evaluate(() => window.__frameViolations || []).catch(() => []);
        // The host page's own hostile stylesheet is allowed ('self'); nothing may be blocked anywhere.
        frameViolations.push(...v.map((x) => f.url().slice(0, 60) + ': ' + x));
      }
      assert(!frameViolations.length, frameViolations.slice(0, 5).join('; '));
      assert(!pageErrors.length, pageErrors.slice(0, 5).join('; '));
    });
    await page.close();

    await check('postMessage: a host with its own iframe drives the page (ready, set-request, get-result answered with its id, to its origin only)', async () => {
      const p = await context.newPage();
      await p.goto(hostOrigin + '/raw.html');
      await p.waitForFunction(() => window.__messages.some((m) => m.data.type === 'gpu-advisor:result' && m.data.id === 7), null, { timeout: 40000 });
      const msgs = await p.evaluate(() => window.__messages);
      const types = msgs.map((m) => m.data.type);
      assert(['gpu-advisor:loading', 'gpu-advisor:ready', 'gpu-advisor:resize'].indexOf(types[0]) >= 0, 'first message ' + types[0]);
      const answered = msgs.find((m) => m.data.id === 7);
      assert(answered.data.request.task === 'qlora' && answered.data.result.recommendation, 'get-result answer ' + JSON.stringify(answered.data).slice(0, 200));
      assert(msgs.every((m) => m.origin === widgetOrigin), 'origins ' + msgs.map((m) => m.origin).join(','));
      await p.close();
    });

    await check('postMessage: a page told another origin sends this host no result', async () => {
      const p = await context.newPage();
      await p.goto(hostOrigin + '/wrong.html');
      const frame = await (await p.locator('#raw').elementHandle()).contentFrame();
      await frame.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.runs > 0, null, { timeout: 40000 });
      await p.waitForTimeout(500);
      const types = await p.evaluate(() => window.__messages.map((m) => m.data.type));
      assert(!types.some((t) => t === 'gpu-advisor:result' || t === 'gpu-advisor:ready'), 'messages reached the wrong host: ' + types.join(','));
      await p.close();
    });

    await check('widget: provider catalogs from the host: one prices the answer, markup in one is shown as text, a broken one gives a located error; the host untouched', async () => {
      const p = await context.newPage();
      await p.goto(hostOrigin + '/catalog.html');
      await p.waitForFunction(() => ['a', 'b'].every((id) => window.__events.some((e) => e.id === id && e.type === 'result' && e.detail.result && e.detail.result.provider))
        && window.__events.some((e) => e.id === 'c' && e.type === 'error'), null, { timeout: 40000 });
      const events = await p.evaluate(() => window.__events);
      const withProvider = events.find((e) => e.id === 'a' && e.type === 'result' && e.detail.result.provider);
      assert(withProvider, 'no result priced by the provider');
      const broken = events.find((e) => e.id === 'c' && e.type === 'error').detail;
      assert(broken.code && broken.message, 'broken catalog error ' + JSON.stringify(broken));
      const b = await frameOf(p, 'b');
      const shown = await b.evaluate((payload) => ({
        text: document.body.textContent.includes(payload),
        imgs: document.querySelectorAll('img[src="x"], #panels script, #provider-banner script').length,
        pwned: window.__pwned,
      }), PAYLOAD);
      const host = await p.evaluate(() => ({ pwned: window.__pwned, children: Array.from(document.body.children).map((n) => n.tagName.toLowerCase() + (n.id ? '#' + n.id : '')).join(' ') }));
      assert(shown.text, 'the provider name is not shown as text');
      assert(!shown.imgs && shown.pwned === undefined && host.pwned === undefined, 'markup from the catalog ran: ' + JSON.stringify({ shown, host }));
      assert(host.children === 'div#host-banner gpu-advisor#a gpu-advisor#b gpu-advisor#c script', 'host DOM: ' + host.children);
      await p.close();
    });

    await check('widget: the example host page (dist/widget/index.html) shows the answer and answers its buttons', async () => {
      const p = await context.newPage();
      await p.goto(widgetOrigin + '/widget/');
      await p.waitForFunction(() => /^(recommended|no plan)/.test(document.getElementById('host-status').textContent), null, { timeout: 40000 });
      await p.click('#ask-lora');
      await p.waitForFunction(() => /result: lora/.test(document.getElementById('host-log').textContent), null, { timeout: 10000 });
      const frame = await frameOf(p, 'advisor');
      const headline = await frame.evaluate(() => document.getElementById('answer-headline').textContent);
      assert(headline, 'no answer in the example');
      const v = await p.evaluate(() => window.__frameViolations || []);
      assert(!v.length, 'example host violations: ' + v.join('; '));
      await p.screenshot({ path: path.join(shotDir, 'widget-example.png') });
      await p.close();
    });
  } finally {
    await context.close();
    widgetServer.close();
    hostServer2.close();
  }
}
