// SPDX-License-Identifier: MIT
// A re-render patched into the page (js/dom.js patchChildren, rows kept or drawn after the frame)
// leaves the same DOM as a full rebuild (issue 13): after each of a series of changes (the
// sequence length with the GPU table on screen and at the top, a pinned GPU, a sort, the task,
// the language), once the page has settled, every shown section's markup, inline styles and
// listener types are recorded, then every section is emptied and drawn from scratch and recorded
// again; the two must be equal. Right after a run (before its frame) no GPU row on screen shows
// an earlier result's figure.
'use strict';

/** In the page: each section's markup, and which listeners each element carries (h()'s on*). */
function snapshotInPage() {
  const out = [];
  document.querySelectorAll('#panels > section.panel').forEach((s) => {
    if (s.hidden) return; // a hidden section may keep an earlier result's nodes (redrawn when it appears)
    const listeners = [];
    s.querySelectorAll('*').forEach((n, i) => { if (n.__on) listeners.push(i + ':' + Object.keys(n.__on).sort().join(',')); });
    // Attributes in name order: a patched node keeps the ones it had and gains the new ones
    // after them, a fresh node has them in h()'s order; the DOM is the same either way.
    const copy = s.cloneNode(true);
    [copy].concat(Array.from(copy.querySelectorAll('*'))).forEach((n) => {
      const attrs = Array.from(n.attributes).map((a) => [a.name, a.value]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      attrs.forEach((a) => n.removeAttribute(a[0]));
      attrs.forEach((a) => n.setAttribute(a[0], a[1]));
    });
    out.push({ id: s.id, html: copy.outerHTML, listeners: listeners.join(' ') });
  });
  return out;
}

function rebuildInPage() {
  window.gpuAdvisor.internals.redrawPanels();
}

module.exports = async function rerenderChecks(T) {
  const { assert, check, context, settle, url, waitReady, watch } = T;
  const page = await context.newPage();
  watch(page, 'rerender');
  await page.goto(url);
  await waitReady(page);

  async function same(label) {
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
    const patched = await page.evaluate(snapshotInPage);
    await page.evaluate(rebuildInPage);
    const fresh = await page.evaluate(snapshotInPage);
    assert(patched.length === fresh.length && patched.length > 5, label + ': ' + patched.length + ' sections patched, ' + fresh.length + ' rebuilt');
    patched.forEach((p, i) => {
      const f = fresh[i];
      if (p.html !== f.html) {
        let at = 0;
        while (at < p.html.length && p.html[at] === f.html[at]) at++;
        assert(false, label + ': ' + p.id + ' differs from a fresh render at ' + at + ':\n  patched ' + p.html.slice(Math.max(0, at - 120), at + 120) + '\n  fresh   ' + f.html.slice(Math.max(0, at - 120), at + 120));
      }
      assert(p.listeners === f.listeners, label + ': ' + p.id + ' listeners differ');
    });
  }

  /**
   * Changes an input and runs; right after the run (before any frame) reads which GPU rows on
   * screen show a figure of an earlier result (stale: none may) and how many off screen do (the
   * rows left for after the frame).
   */
  async function change(selector, value) {
    return page.evaluate(([sel, v]) => {
      const box = document.querySelector(sel);
      box.value = v;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new Event('change', { bubbles: true }));
      window.gpuAdvisor.recompute();
      const r = window.gpuAdvisor.lastResult, UI = window.gpuAdvisor.internals;
      const out = { stale: [], later: 0, onScreen: 0 };
      document.querySelectorAll('#panel-options tbody tr').forEach((tr) => {
        const b = tr.getBoundingClientRect();
        const seen = b.bottom > 0 && b.top < window.innerHeight;
        if (seen) out.onScreen++;
        const old = Array.from(tr.querySelectorAll('[data-field]')).filter((n) => {
          const x = UI.pointerGet(r, n.dataset.field);
          return n.hasAttribute('data-bytes') ? n.dataset.bytes !== String(x) : n.dataset.value !== (x === null || x === undefined ? 'null' : String(x));
        });
        if (old.length && seen) out.stale.push(tr.dataset.gpu + ' ' + old[0].dataset.field);
        else if (old.length) out.later++;
      });
      return out;
    }, [selector, value]);
  }

  await check('a re-render patched into the page equals a fresh render (GPU table on screen, then at the top)', async () => {
    await page.evaluate(() => document.getElementById('panel-options').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    let later = 0;
    for (const v of ['4096', '2048', '8192', '1024']) {
      // A change first, to the rows the last check drew from scratch (which the page has not yet
      // seen laid out), then the one checked.
      await change('#in-seq', '3000');
      await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const rows = await change('#in-seq', v);
      assert(rows.onScreen > 3 && !rows.stale.length, 'sequence length ' + v + ': ' + rows.onScreen + ' rows on screen, stale right after the run: ' + rows.stale.join(', '));
      later += rows.later;
      await same('GPU table on screen, sequence length ' + v);
    }
    assert(later > 0, 'no row off screen was left for after the frame');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    for (const v of ['4096', '2048']) {
      await change('#in-seq', v);
      await same('page at the top, sequence length ' + v);
    }
  });

  await check('a re-render equals a fresh render after a pin, a sort, the task and the language', async () => {
    await page.evaluate(() => document.getElementById('panel-options').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    // Sort by speed, then by cost descending (rows move), then back to the default order.
    await page.click('#panel-options th[data-col="speed"] button');
    await same('sorted by speed');
    await change('#in-seq', '4096');
    await same('sorted by speed, sequence length 4096');
    await page.click('#panel-options th[data-col="cost"] button');
    await page.click('#panel-options th[data-col="cost"] button');
    await same('sorted by cost, descending');
    await page.click('#panel-options th[data-col="cost"] button');
    await same('default order');
    // Pin a GPU (the pinned row's class and tag change).
    const gpu = await page.evaluate(() => document.querySelectorAll('#panel-options tbody tr')[3].dataset.gpu);
    await page.selectOption('#in-gpu', gpu);
    await page.evaluate(() => window.gpuAdvisor.recompute());
    await same('pinned ' + gpu);
    await page.evaluate(() => window.gpuAdvisor.applyScenario('serve_72b'));
    await page.evaluate(() => window.gpuAdvisor.recompute());
    await same('inference scenario');
    await page.evaluate(() => window.gpuAdvisor.setLanguage('en'));
    await same('English');
    await page.evaluate(() => window.gpuAdvisor.setLanguage('zh-CN'));
    await page.click('#btn-reset');
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware);
    await same('reset, Chinese');
  });
  await page.close();
};
