// SPDX-License-Identifier: MIT
// A page for a sales page and a boss's desk (issue 29 items 4 and 7), in headless Chromium:
//   - every control of the form and the goal bar (input, select, textarea) is described by a
//     one-line help (aria-describedby), in Chinese on the Chinese page and in English on the
//     English one; its "?" button is reached by Tab and shows the line;
//   - the advanced groups of the form start folded, on a desktop too;
//   - the Chinese page shows no code: no JSON pointer (/cost/prices) and no snake_case name
//     (prices_need_confirmation) in visible text or in a title / aria-label / placeholder outside
//     a "技术细节" fold (.tech-detail), the core's own sentence (.core-message) and code
//     elements (pre, code, textarea): default page, each scenario, every section open, an error;
//   - a toast goes at the next key press and after a few seconds; the page's icon is a data: URI.
'use strict';

const CJK_RE = /[\u3400-\u9fff]/;

/** Runs in the page: visible strings that show code ("where: text"), outside technical folds. */
function codeOnPage() {
  const POINTER = /(^|[\s（(“"'，,：:=])\/[a-z][a-z0-9_]*(\/[\w@.~-]+)*(?![\w/])/;
  const SNAKE = /(^|[^\w./-])[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9](?![\w.-])/;
  const folded = (el) => {
    for (let d = el.closest('details:not([open])'); d; d = d.parentElement && d.parentElement.closest('details:not([open])')) {
      const summary = el.closest('summary');
      if (!summary || summary.parentElement !== d) return true;
    }
    return false;
  };
  const visible = (el) => el && !folded(el) && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const skip = (el) => el.closest('script, style, noscript, pre, code, kbd, samp, textarea, .tech-detail, .core-message, .lang-switch, #report');
  const bad = [];
  const test = (where, text) => {
    const m = POINTER.exec(text) || SNAKE.exec(text);
    if (m) bad.push(where + ': "' + m[0].trim() + '" in "' + text.slice(0, 120) + '"');
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.nodeValue.replace(/\s+/g, ' ').trim();
    if (!text || !el || skip(el) || !visible(el)) continue;
    test(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : ''), text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skip(el) || !visible(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) test(el.tagName.toLowerCase() + '[' + a + ']', v.trim());
    }
  }
  return Array.from(new Set(bad));
}

/** Runs in the page: each form control's help text (or what is missing). */
function controlHelp() {
  const out = [];
  document.querySelectorAll('#inputs input, #inputs select, #inputs textarea, #goal-form input, #goal-form select, #goal-form textarea').forEach((c) => {
    if (c.type === 'hidden') return;
    const name = c.id || c.name + '=' + c.value || c.getAttribute('data-month') || c.outerHTML.slice(0, 60);
    const ids = (c.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    const help = ids.map((id) => document.getElementById(id)).filter((n) => n && n.classList.contains('field-help'));
    out.push({ name: name, text: help.map((n) => n.textContent.trim()).join(' ') });
  });
  return out;
}

module.exports = async function helpChecks(T) {
  const { assert, check, context, url, waitReady, watch } = T;
  const page = await context.newPage();
  watch(page, 'help');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(url);
  await waitReady(page, { folded: true });

  await check('help: the advanced groups of the form start folded on a desktop', async () => {
    const open = await page.evaluate(() => Array.from(document.querySelectorAll('#inputs details.group-collapsible[open]')).map((d) => d.dataset.group));
    const all = await page.evaluate(() => document.querySelectorAll('#inputs details.group-collapsible').length);
    assert(all >= 6, 'only ' + all + ' advanced groups');
    assert(!open.length, 'open at load: ' + open.join(', '));
  });

  await check('help: the page has an inline icon (a data: URI, no request)', async () => {
    const href = await page.evaluate(() => { const l = document.querySelector('link[rel~="icon"]'); return l ? l.getAttribute('href') : ''; });
    assert(href.startsWith('data:image/svg+xml,'), 'icon: ' + href.slice(0, 60));
  });

  const helps = {};
  for (const lang of ['zh-CN', 'en']) {
    await check('help: every form control has a one-line help in ' + lang, async () => {
      await page.evaluate((l) => window.gpuAdvisor.setLanguage(l), lang);
      const list = await page.evaluate(controlHelp);
      assert(list.length > 80, 'only ' + list.length + ' controls found');
      const missing = list.filter((x) => x.text.length < 12).map((x) => x.name);
      assert(!missing.length, missing.length + ' without help: ' + missing.slice(0, 12).join(', '));
      const wrong = list.filter((x) => (lang === 'en') === CJK_RE.test(x.text)).map((x) => x.name + ': ' + x.text.slice(0, 40));
      assert(!wrong.length, 'help in the other language: ' + wrong.slice(0, 5).join(' | '));
      const keys = await page.evaluate(() => Array.from(document.querySelectorAll('.field-help')).map((n) => n.getAttribute('data-i18n')));
      const unknown = keys.filter((k) => !k || !k.startsWith('help.'));
      assert(!unknown.length, 'help without a string key: ' + unknown.slice(0, 5).join(', '));
      helps[lang] = list;
    });
  }
  await check('help: the two languages give a different line for each control', async () => {
    assert(helps['zh-CN'] && helps.en, 'no help read');
    const same = helps.en.filter((x, i) => helps['zh-CN'][i] && helps['zh-CN'][i].text === x.text).map((x) => x.name);
    assert(!same.length, 'the same text in both: ' + same.slice(0, 5).join(', '));
  });
  await page.evaluate(() => window.gpuAdvisor.setLanguage('zh-CN'));

  await check('help: the "?" beside a field is reached by Tab, opens its line with Enter and closes it again', async () => {
    await page.focus('#in-deadline');
    await page.keyboard.press('Shift+Tab');
    const s = await page.evaluate(() => {
      const b = document.activeElement;
      return { cls: b.className, controls: b.getAttribute('aria-controls'), expanded: b.getAttribute('aria-expanded') };
    });
    assert(s.cls.includes('help-toggle'), 'Shift+Tab from the deadline box reached ' + s.cls);
    assert(s.expanded === 'false', 'open at load');
    await page.keyboard.press('Enter');
    const shown = await page.evaluate((id) => { const n = document.getElementById(id); return n && !n.hidden && n.getClientRects().length > 0 ? n.textContent : ''; }, s.controls);
    assert(/730/.test(shown), 'the deadline help is not shown, or does not say a month is 730 hours: ' + shown);
    await page.keyboard.press('Enter');
    const hidden = await page.evaluate((id) => document.getElementById(id).hidden, s.controls);
    assert(hidden, 'a second Enter does not close it');
  });

  await check('help: a toast goes at the next key press, and by itself within 4 s', async () => {
    await page.evaluate(() => window.gpuAdvisor.applyScenario(window.gpuAdvisor.internals.scenarios[1]));
    await page.waitForFunction(() => !document.getElementById('toast').hidden, null, { timeout: 3000 });
    await page.keyboard.press('Shift');
    const afterKey = await page.evaluate(() => document.getElementById('toast').hidden);
    assert(afterKey, 'the toast stays after a key press');
    await page.evaluate(() => window.gpuAdvisor.applyScenario(window.gpuAdvisor.internals.scenarios[0]));
    await page.waitForFunction(() => !document.getElementById('toast').hidden, null, { timeout: 3000 });
    await page.waitForFunction(() => document.getElementById('toast').hidden, null, { timeout: 4000 });
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
  });

  await check('help: the Chinese page shows no JSON pointer or snake_case code outside technical folds (every section open)', async () => {
    await page.evaluate(() => {
      window.gpuAdvisor.expandAll();
      document.querySelectorAll('.help-toggle[aria-expanded="false"]').forEach((b) => b.click());
    });
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
    const bad = await page.evaluate(codeOnPage);
    assert(!bad.length, bad.length + ' string(s) with code:\n       ' + bad.slice(0, 20).join('\n       '));
  });

  await check('help: no JSON pointer or snake_case code on the Chinese page in any scenario (every section open)', async () => {
    const found = [];
    for (const id of await page.evaluate(() => window.gpuAdvisor.internals.scenarios)) {
      await page.evaluate((s) => window.gpuAdvisor.applyScenario(s), id);
      await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
      await page.evaluate(() => window.gpuAdvisor.expandAll());
      await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
      for (const b of await page.evaluate(codeOnPage)) found.push(id + ': ' + b);
    }
    assert(!found.length, found.length + ' string(s) with code:\n       ' + found.slice(0, 20).join('\n       '));
    await page.click('#btn-reset');
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
  });

  await check('help: an error on the Chinese page keeps its code, pointer and the core\'s sentence in a "技术细节" fold', async () => {
    await page.fill('#in-seq', '12abc');
    await page.dispatchEvent('#in-seq', 'input');
    await page.waitForFunction(() => window.gpuAdvisor.lastError && !window.gpuAdvisor.pending, null, { timeout: 10000 });
    const s = await page.evaluate(() => {
      const fold = document.querySelector('#error-banner details.tech-detail');
      return { fold: Boolean(fold), summary: fold ? fold.querySelector('summary').textContent : '', inside: fold ? fold.textContent : '' };
    });
    assert(s.fold, 'no technical-detail fold in the error banner');
    assert(s.summary.includes('技术细节'), 'fold title: ' + s.summary);
    assert(s.inside.includes('/training/sequence_length') && s.inside.includes('wrong_type'), 'the fold lacks the pointer or the code: ' + s.inside.slice(0, 200));
    const bad = await page.evaluate(codeOnPage);
    assert(!bad.length, bad.length + ' string(s) with code:\n       ' + bad.slice(0, 20).join('\n       '));
    await page.fill('#in-seq', '2048');
    await page.dispatchEvent('#in-seq', 'input');
    await page.waitForFunction(() => !window.gpuAdvisor.lastError && !window.gpuAdvisor.pending, null, { timeout: 10000 });
  });
  await page.close();
};

module.exports.codeOnPage = codeOnPage;
