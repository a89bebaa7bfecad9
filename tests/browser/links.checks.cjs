// SPDX-License-Identifier: MIT
// Shared links keep what the user chose (issue 23 item 3). A task, preset or GPU the page does not
// list (a link made on a newer catalog or under a provider) stays selected as itself and reaches
// the core, whose located error is shown at its input; a count without a GPU is sent as it is; a
// request of another schema version is refused with its reason; and the address keeps the opened
// link byte for byte (a reload gives it back) until the user changes something, a refused link too.
'use strict';

const fs = require('fs');
const path = require('path');

const PROVIDER = fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'examples', 'provider-example.json'), 'utf8');
// Longer than the page's address delay (hash.js HASH_MS) and the frame it waits for.
const ADDRESS_SETTLE_MS = 700;
// One more value than a link may hold (hash.js LIMITS.values).
const TOO_MANY_VALUES = 20001;

function b64url(text) {
  return Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function link(req, lang) {
  return '#' + (lang ? 'lang=' + lang + '&' : '') + 'req=' + b64url(typeof req === 'string' ? req : JSON.stringify(req));
}

/** The request an address holds (#[lang=..&]req=<base64url JSON>), or null. */
function requestOf(hash) {
  const m = /(?:^#|&)req=([A-Za-z0-9_-]+)/.exec(hash);
  return m ? JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) : null;
}

const LORA = { schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: 4096 } };

module.exports = async function linkChecks(T) {
  const { assert, check, context, settle, shot, url, waitReady, watch, zh } = T;

  /** A fresh page on `hash`, its first answer in and the address given time to be (wrongly) rewritten. */
  async function open(hash, label) {
    const page = await context.newPage();
    watch(page, label);
    // The address as the browser holds it before any script of the page has run.
    await page.addInitScript(() => { window.__openedHash = location.hash; });
    await page.goto(url + hash);
    await waitReady(page, { folded: true });
    await page.waitForTimeout(ADDRESS_SETTLE_MS);
    return page;
  }

  async function addressKept(page) {
    return page.evaluate(() => location.hash === window.__openedHash);
  }

  /** What the page shows and sent: the request, the error, the note, the marked input. */
  async function shown(page, selector) {
    return page.evaluate((sel) => ({
      request: window.gpuAdvisor.lastRequest,
      error: window.gpuAdvisor.lastError,
      note: (() => { const n = document.getElementById('hash-note'); return n && !n.hidden ? n.textContent : ''; })(),
      invalid: Array.from(document.querySelectorAll('.invalid')).map((n) => n.getAttribute('data-path')),
      choice: (() => {
        const n = sel ? document.querySelector(sel) : null;
        if (!n) return null;
        const picked = n.tagName === 'SELECT' ? n.selectedOptions[0] : n.closest('label');
        return { value: n.value, text: picked ? picked.textContent : '', unknown: Boolean(picked && picked.hasAttribute('data-unknown')) };
      })(),
      markup: document.querySelectorAll('#inputs b, #error-banner b').length,
    }), selector || null);
  }

  await check('shared links: an unknown task, preset or GPU stays selected as itself (marked unknown); the request carries it; the core\'s error is at its input', async () => {
    const cases = [
      { name: 'task', req: Object.assign({}, LORA, { task: 'dpo' }), sel: 'input[name="task"]:checked', id: 'dpo', at: '/task',
        sent: (r) => r.task === 'dpo' },
      { name: 'preset', req: Object.assign({}, LORA, { model: { preset: 'qwen9-1t' } }), sel: '#in-preset', id: 'qwen9-1t', at: '/model/preset',
        sent: (r) => r.model.preset === 'qwen9-1t' },
      { name: 'GPU', req: Object.assign({}, LORA, { hardware: { gpu: '<b>h900-sxm</b>', count: 8 } }), sel: '#in-gpu', id: '<b>h900-sxm</b>', at: '/hardware/gpu',
        sent: (r) => r.hardware && r.hardware.gpu === '<b>h900-sxm</b>' && r.hardware.count === 8 },
    ];
    const failures = [];
    for (const c of cases) {
      const hash = link(c.req);
      const page = await open(hash, 'link with an unknown ' + c.name);
      const s = await shown(page, c.sel);
      const problems = [];
      if (!c.sent(s.request)) problems.push('sent ' + JSON.stringify(s.request).slice(0, 160));
      if (!s.error || s.error.path !== c.at) problems.push('error ' + JSON.stringify(s.error));
      if (s.invalid.indexOf(c.at) < 0) problems.push('input ' + c.at + ' not marked (' + s.invalid.join(',') + ')');
      if (!s.choice || s.choice.value !== c.id || !s.choice.text.includes(c.id) || !s.choice.unknown) problems.push('shown as ' + JSON.stringify(s.choice));
      if (s.markup) problems.push('the id became markup');
      if (!(await addressKept(page))) problems.push('the address was rewritten');
      if (c.name === 'task' && !problems.length) {
        await shot(page, 'link-unknown-task.png');
        // The link's other values wait for the task the user picks.
        await page.click('#task-group label:has(input[value="lora"])');
        await settle(page, (r) => r.task === 'lora');
        const after = await shown(page, c.sel);
        if (!after.request.training || after.request.training.sequence_length !== 4096) problems.push('the link\'s sequence length is lost: ' + JSON.stringify(after.request.training));
        if (after.error) problems.push('an error after picking lora: ' + JSON.stringify(after.error));
      }
      if (c.name === 'preset' && !problems.length) {
        // The lists are filled again in another language: the unknown preset stays, in its words.
        await page.evaluate(() => window.gpuAdvisor.setLanguage('en'));
        const en = (await shown(page, c.sel)).choice;
        if (en.value !== c.id || en.text !== zh.en['form.unknown_choice'].replace('{id}', c.id)) problems.push('in English: ' + JSON.stringify(en));
      }
      if (problems.length) failures.push(c.name + ': ' + problems.join('; '));
      await page.close();
    }
    assert(!failures.length, failures.join('\n       '));
  });

  await check('shared links: a GPU count without a GPU is sent as it is; the core asks for the GPU at its input', async () => {
    const page = await open(link(Object.assign({}, LORA, { hardware: { count: 4 } })), 'link with a count alone');
    const s = await shown(page);
    assert(JSON.stringify(s.request.hardware) === '{"count":4}', 'hardware sent: ' + JSON.stringify(s.request.hardware));
    assert(s.error && s.error.path === '/hardware/gpu' && s.error.code === 'missing_field', 'error ' + JSON.stringify(s.error));
    assert(s.invalid.indexOf('/hardware/gpu') >= 0, 'the GPU input is not marked: ' + s.invalid.join(','));
    const box = await page.evaluate(() => ({ value: document.getElementById('in-count').value, disabled: document.getElementById('in-count').disabled }));
    assert(box.value === '4' && !box.disabled, 'count box ' + JSON.stringify(box));
    assert(await addressKept(page), 'the address was rewritten');
    // Choosing "none" is the user's edit: no GPU, no count, an answer again.
    await page.selectOption('#in-gpu', '');
    await settle(page, (r) => !r.hardware);
    assert(!(await shown(page)).error, 'still an error after choosing no GPU');
    await page.close();
  });

  await check('shared links: another schema version is refused with its reason (both languages); the link stays in the address', async () => {
    const failures = [];
    for (const [name, req, lang] of [['schema 2', Object.assign({}, LORA, { schema: 2 }), null],
      ['schema 2, English', Object.assign({}, LORA, { schema: 2 }), 'en'], ['schema "1"', Object.assign({}, LORA, { schema: '1' }), null]]) {
      const page = await open(link(req, lang), 'link of ' + name);
      const s = await shown(page);
      const why = zh[lang || 'zh-CN']['hash.why.schema'];
      const problems = [];
      if (!s.note.includes(why)) problems.push('note "' + s.note + '"');
      if (s.request.schema !== 1 || s.request.task !== 'full_finetune') problems.push('sent ' + JSON.stringify(s.request).slice(0, 120));
      if (!(await addressKept(page))) problems.push('the address was rewritten');
      if (problems.length) failures.push(name + ': ' + problems.join('; '));
      if (name === 'schema 2') await shot(page, 'link-schema-2.png');
      await page.close();
    }
    assert(!failures.length, failures.join('\n       '));
  });

  await check('shared links: the address keeps the opened link byte for byte (a provider\'s recompute too) until an edit; a reload gives it back', async () => {
    // Written by hand: keys in another order and spaces, which the page would write differently.
    const text = '{ "task": "lora", "schema": 1, "model": { "preset": "qwen2.5-7b" }, "training": { "sequence_length": 4096 } }';
    const page = await open(link(text), 'link kept');
    assert(await addressKept(page), 'the address was rewritten on opening');
    const first = await shown(page);
    assert(first.request.task === 'lora' && first.request.training.sequence_length === 4096 && !first.error, 'not restored: ' + JSON.stringify(first.request));
    const runs = await page.evaluate(() => window.gpuAdvisor.runs);
    await page.evaluate((p) => window.gpuAdvisor.setProvider(p), PROVIDER);
    await page.waitForFunction((n) => window.gpuAdvisor.runs > n && !window.gpuAdvisor.pending, runs);
    await page.evaluate(() => window.gpuAdvisor.clearProvider());
    await page.waitForTimeout(ADDRESS_SETTLE_MS);
    assert(await addressKept(page), 'a provider\'s recompute rewrote the address');
    await page.reload();
    await waitReady(page, { folded: true });
    const again = await shown(page);
    assert(JSON.stringify(again.request) === JSON.stringify(first.request), 'a reload did not give the link back: ' + JSON.stringify(again.request));
    // An edit: now the address follows the request.
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
    const edited = await page.evaluate(() => ({ hash: location.hash, request: window.gpuAdvisor.lastRequest }));
    assert(JSON.stringify(requestOf(edited.hash)) === JSON.stringify(edited.request), 'the address does not follow the edit: ' + edited.hash.slice(0, 40));
    await page.close();
  });

  await check('shared links: a link refused for its size stays in the address with the reason; an edit then writes the page\'s request', async () => {
    const big = Object.assign({}, LORA, { capacity: { jobs: new Array(TOO_MANY_VALUES).fill(0) } });
    const page = await open(link(big), 'link over the value limit');
    const s = await shown(page);
    assert(s.note.includes(zh['zh-CN']['hash.why.too_big']), 'note "' + s.note + '"');
    assert(s.request.task === 'full_finetune', 'not the default page: ' + JSON.stringify(s.request).slice(0, 120));
    assert(await addressKept(page), 'the refused link was erased from the address');
    await page.selectOption('#in-preset', 'qwen2.5-14b');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b');
    const edited = await page.evaluate(() => ({ hash: location.hash, request: window.gpuAdvisor.lastRequest }));
    assert(JSON.stringify(requestOf(edited.hash)) === JSON.stringify(edited.request), 'the address does not follow the edit');
    await page.close();
  });
};
