// SPDX-License-Identifier: MIT
// Hostile and broken share links (issue 12 items 5 and 7): each opens in a fresh page, which must
// show a clear message and a working page (the answer card, panels, a form that recomputes),
// never a broken one, and nothing from the link may reach Object.prototype.
'use strict';

function b64url(text) {
  return Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// Longer than the page's address delay (hash.js HASH_MS) and the frame it waits for.
const ADDRESS_SETTLE_MS = 700;

const VALID = { schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: 2048 } };

function deepObject(depth) {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** [name, hash, what the page must show: 'note' (refused, default page) | 'located' (restored, the core's located error)]. */
function cases() {
  const good = b64url(JSON.stringify(VALID));
  return [
    ['truncated base64', '#req=' + good.slice(0, Math.floor(good.length / 2)), 'note'],
    ['characters outside base64url', '#req=' + good.slice(0, 20) + '%%%$$$' + good.slice(20), 'note'],
    ['not JSON', '#req=' + b64url('hello, world'), 'note'],
    ['truncated JSON', '#req=' + b64url(JSON.stringify(VALID).slice(0, 40)), 'note'],
    ['invalid UTF-8', '#req=' + Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('base64').replace(/=+$/, ''), 'note'],
    ['an array', '#req=' + b64url('[1,2,3]'), 'note'],
    ['a number', '#req=' + b64url('42'), 'note'],
    ['20,000-deep object', '#req=' + b64url(deepObject(20000)), 'note'],
    ['deep array in /power', '#req=' + b64url('{"schema":1,"task":"full_finetune","model":{"preset":"llama-3.1-8b"},"power":' + '['.repeat(9000) + ']'.repeat(9000) + '}'), 'note'],
    ['__proto__ key (spoofed error banner)', '#req=' + b64url('{"schema":1,"task":"full_finetune","model":{"preset":"llama-3.1-8b"},"cost":{"__proto__":{"error":{"message":"SPOOFED"},"polluted":"yes"}}}'), 'note'],
    ['constructor.prototype keys', '#req=' + b64url('{"schema":1,"task":"full_finetune","model":{"preset":"llama-3.1-8b"},"constructor":{"prototype":{"polluted":"yes"}}}'), 'note'],
    ['prototype key inside hf_config', '#req=' + b64url('{"schema":1,"task":"lora","model":{"hf_config":{"model_type":"llama","prototype":{"polluted":"yes"}}}}'), 'note'],
    ['huge string (1.2 MB)', '#req=' + b64url(JSON.stringify({ schema: 1, task: 'lora', model: { preset: 'x'.repeat(1.2e6) } })), 'note'],
    ['1e400', '#req=' + b64url('{"schema":1,"task":"lora","model":{"preset":"qwen2.5-7b"},"training":{"sequence_length":1e400}}'), 'note'],
    ['task of the wrong type', '#req=' + b64url('{"schema":1,"task":5,"model":{"preset":"qwen2.5-7b"}}'), 'note'],
    ['model as a string', '#req=' + b64url('{"schema":1,"task":"lora","model":"qwen2.5-7b"}'), 'note'],
    ['hardware as an array', '#req=' + b64url('{"schema":1,"task":"lora","model":{"preset":"qwen2.5-7b"},"hardware":[1,2]}'), 'note'],
    ['preset as an object', '#req=' + b64url('{"schema":1,"task":"lora","model":{"preset":{"a":1}}}'), 'note'],
    ['a value of the wrong type (the core locates it)', '#req=' + b64url(JSON.stringify(Object.assign({}, VALID, { training: { sequence_length: 'abc' } }))), 'located'],
    ['an unknown preset (the core locates it)', '#req=' + b64url(JSON.stringify({ schema: 1, task: 'lora', model: { preset: '<img src=x onerror=alert(1)>' } })), 'located'],
    ['lang=__proto__ with a valid request', '#lang=__proto__&req=' + b64url(JSON.stringify(VALID)), 'restored'],
  ];
}

async function pageState(page) {
  return page.evaluate(() => ({
    state: document.body.getAttribute('data-state'),
    lang: document.documentElement.lang,
    note: (() => { const n = document.getElementById('hash-note'); return n && !n.hidden ? n.textContent : ''; })(),
    banner: (() => { const n = document.getElementById('error-banner'); return n && !n.hidden ? n.textContent : ''; })(),
    headline: (() => { const n = document.getElementById('answer-headline'); return n && n.getClientRects().length ? n.textContent : ''; })(),
    panels: document.querySelectorAll('#panels .panel:not([hidden])').length,
    polluted: ({}).polluted, error: ({}).error, proto: Object.keys(Object.prototype).length,
    request: window.gpuAdvisor && window.gpuAdvisor.lastRequest,
    spoofed: document.body.innerText.includes('SPOOFED'),
    // The address as it was opened (recorded before the page's scripts ran), byte for byte.
    kept: location.hash === window.__openedHash,
  }));
}

module.exports = async function hostileChecks(T) {
  const { assert, check, context, url, watch, waitReady, settle, zh, shot } = T;

  await check('hostile links: every broken or hostile #req= shows a message and a working default page; nothing reaches a prototype', async () => {
    const failures = [];
    for (const [name, hash, expect] of cases()) {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      watch(page, 'hostile link (' + name + ')');
      await page.addInitScript(() => { window.__openedHash = location.hash; });
      try {
        await page.goto(url + hash);
        await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.runs > 0 && !window.gpuAdvisor.pending, null, { timeout: 30000 });
        const s = await pageState(page);
        const problems = [];
        if (errors.length) problems.push('page errors: ' + errors.join('; '));
        if (s.polluted !== undefined || s.error !== undefined || s.proto !== 0) problems.push('Object.prototype polluted');
        if (s.spoofed) problems.push('the spoofed text is shown');
        if (!s.headline || s.panels < 4) problems.push('no answer card / panels (' + s.panels + ')');
        if (expect === 'note') {
          if (s.state !== 'ready') problems.push('state ' + s.state);
          if (!s.note.includes(zh['zh-CN']['hash.invalid'].slice(0, 6))) problems.push('no "link could not be read" note: "' + s.note + '"');
          if (!s.request || s.request.model.preset !== 'llama-3.1-8b' || s.request.task !== 'full_finetune') problems.push('not the default request: ' + JSON.stringify(s.request).slice(0, 120));
        } else if (expect === 'located') {
          if (s.state !== 'error') problems.push('state ' + s.state + ', expected a located error');
          if (!s.banner.includes(zh['zh-CN']['result.stale_default'].slice(0, 8))) problems.push('the banner does not say the figures are the default request\'s');
          const invalid = await page.evaluate(() => document.querySelectorAll('.field.invalid').length);
          if (!invalid) problems.push('no input marked invalid');
        } else if (expect === 'restored') {
          if (s.state !== 'ready' || s.lang !== 'zh-CN') problems.push('state ' + s.state + ' lang ' + s.lang);
          if (!s.request || s.request.task !== 'lora') problems.push('request not restored');
        }
        // The link stays in the address as it was (a reload gives it back) until an edit.
        if (!s.kept) problems.push('the address was rewritten before any edit');
        // The page still works: a change recomputes, and the address then follows the request.
        if (!problems.length) {
          await page.selectOption('#in-preset', 'qwen2.5-14b');
          await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
          const after = await pageState(page);
          if (!after.headline) problems.push('no answer after an edit');
          if (after.polluted !== undefined || after.error !== undefined) problems.push('polluted after an edit');
          if (after.kept) problems.push('the address did not follow the edit');
        }
        if (problems.length) failures.push(name + ': ' + problems.join(', '));
        if (name.startsWith('__proto__')) await shot(page, 'hostile-proto.png');
        if (name.startsWith('a value of the wrong type')) await shot(page, 'hostile-located.png');
      } catch (e) {
        failures.push(name + ': ' + String(e.message || e).split('\n')[0]);
      }
      await page.close();
    }
    assert(!failures.length, failures.length + ' case(s):\n       ' + failures.join('\n       '));
  });

  await check('hostile hash change on a working page: a note, the page unchanged, the typed link left in the address until an edit', async () => {
    const page = await context.newPage();
    watch(page, 'hash change');
    await page.goto(url);
    await waitReady(page);
    const before = await page.evaluate(() => JSON.stringify(window.gpuAdvisor.lastRequest));
    await page.evaluate((h) => { location.hash = h; window.__openedHash = location.hash; }, '#req=' + b64url('{"cost":{"__proto__":{"polluted":"yes"}}}'));
    await page.waitForFunction(() => { const n = document.getElementById('hash-note'); return n && !n.hidden; }, null, { timeout: 5000 });
    await page.waitForTimeout(ADDRESS_SETTLE_MS);
    const s = await pageState(page);
    assert(s.polluted === undefined, 'polluted');
    assert(JSON.stringify(s.request) === before, 'the request changed');
    assert(s.kept, 'the typed link was erased from the address');
    assert(s.note.includes(zh['zh-CN']['hash.why.forbidden_key'].slice(0, 4)), 'the note does not name the reason: ' + s.note);
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
    assert(!(await pageState(page)).kept, 'the address did not follow the edit');
    await page.close();
  });

  await check('the page\'s own pointer writes refuse prototype keys', async () => {
    const page = await context.newPage();
    await page.goto(url);
    await waitReady(page);
    const r = await page.evaluate(() => {
      const UI = window.gpuAdvisor.internals;
      const o = {};
      const a = UI.pointerSet(o, '/__proto__/polluted', 'yes');
      const b = UI.pointerSet(o, '/constructor/prototype/polluted', 'yes');
      const c = UI.pointerGet({}, '/constructor');
      const parsed = UI.parseUntrustedJson('{"a":{"__proto__":{"x":1}}}');
      const fine = UI.parseUntrustedJson('{"a":{"b":[1,2,{"c":"d"}]}}');
      return { a, b, c: c === undefined, polluted: ({}).polluted, why: parsed.why,
        fineProto: Object.getPrototypeOf(fine.value) === null && Object.getPrototypeOf(fine.value.a) === null };
    });
    assert(r.a === false && r.b === false && r.c && r.polluted === undefined, 'pointer helpers: ' + JSON.stringify(r));
    assert(r.why === 'forbidden_key', 'parseUntrustedJson accepted __proto__: ' + r.why);
    assert(r.fineProto, 'objects from untrusted JSON have a prototype');
    await page.close();
  });
};
