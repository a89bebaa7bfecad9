// SPDX-License-Identifier: MIT
// Accessibility and every width (issue 10 items 4 and 6), in headless Chromium:
//   - axe-core (node_modules/axe-core) with the WCAG 2.0/2.1 A and AA rules: zero violations in
//     zh-CN and en, folded and with every panel open, and with the inputs drawer open on a phone;
//   - a skip link first in the tab order that takes focus to the answer card (the next Tab is in it);
//   - a visible focus indicator on everything the Tab key reaches;
//   - every control keyboard-usable (nothing clickable that Tab cannot reach);
//   - text alternatives for charts (role="img" with a name, and the figures in a table);
//   - reflow (WCAG 1.4.10): no horizontal page scroll from 360 to 1920 px, every panel open; in a
//     600 px-high window the answer is on the first screen.
'use strict';

const fs = require('fs');
const path = require('path');

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// The widths the issue names: phones (360, 390), tablets (768, 912: a Surface Pro, or a frame of
// that width), laptops (1280, 1366) and a desktop (1920).
const WIDTHS = [360, 390, 768, 912, 1280, 1366, 1920];
const SHORT_WINDOW_PX = 600;
// Tab presses the test walks through looking at focus indicators (the top bar, the scenario
// chips, the goal bar, the answer card and beyond).
const TAB_WALK = 90;

function axeSource() {
  return fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
}

/** axe's violations, one line each (rule, impact, how many nodes, the first target and why). */
async function axeViolations(page) {
  const found = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length,
      target: String(v.nodes[0] && v.nodes[0].target), why: (v.nodes[0] && v.nodes[0].failureSummary || '').replace(/\s+/g, ' ').slice(0, 240) }));
  }, WCAG_TAGS);
  return found.map((v) => v.id + ' (' + v.impact + ', ' + v.n + ' nodes) e.g. ' + v.target + ': ' + v.why);
}

module.exports = async function a11yChecks(T) {
  const { assert, check, browser, url, waitReady } = T;
  const axe = axeSource();
  // bypassCSP: the single file's policy would refuse the axe script the test adds.
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    await page.goto(url);
    await waitReady(page, { folded: true });
    await page.addScriptTag({ content: axe });

    await check('a11y: axe-core WCAG 2.1 AA, zero violations in zh-CN and en, folded and with every panel open', async () => {
      const problems = [];
      for (const lang of ['zh-CN', 'en']) {
        await page.evaluate((l) => { window.gpuAdvisor.setLanguage(l); window.gpuAdvisor.collapseAll(); }, lang);
        (await axeViolations(page)).forEach((v) => problems.push(lang + ' folded: ' + v));
        await page.evaluate(() => window.gpuAdvisor.expandAll());
        (await axeViolations(page)).forEach((v) => problems.push(lang + ' open: ' + v));
      }
      await page.evaluate(() => { window.gpuAdvisor.setLanguage('zh-CN'); window.gpuAdvisor.applyScenario('serve_72b'); window.gpuAdvisor.expandAll(); });
      (await axeViolations(page)).forEach((v) => problems.push('inference scenario: ' + v));
      assert(!problems.length, problems.length + ' violation(s):\n       ' + problems.join('\n       '));
    });

    await check('a11y: axe-core on the compact card (?embed=card) at 360 px, zero violations in zh-CN and en', async () => {
      const card = await context.newPage();
      try {
        await card.setViewportSize({ width: 360, height: 800 });
        await card.goto(url + '?embed=card');
        await waitReady(card, { folded: true });
        await card.addScriptTag({ content: axe });
        const problems = [];
        for (const lang of ['zh-CN', 'en']) {
          await card.evaluate((l) => window.gpuAdvisor.setLanguage(l), lang);
          (await axeViolations(card)).forEach((v) => problems.push(lang + ': ' + v));
        }
        assert(!problems.length, problems.length + ' violation(s):\n       ' + problems.join('\n       '));
      } finally {
        await card.close();
      }
    });

    await check('a11y: axe-core on a phone (390 px) with the inputs drawer open', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.click('#btn-inputs');
      await page.waitForFunction(() => document.body.classList.contains('inputs-open'));
      // The drawer slides in: mid-way, the top bar's button shows through the backdrop only
      // (axe then measures it against the dimmed page). Check the drawer once it is in place.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      const problems = await axeViolations(page);
      assert(!problems.length, problems.length + ' violation(s):\n       ' + problems.join('\n       '));
      await page.keyboard.press('Escape');
      const closed = await page.evaluate(() => !document.body.classList.contains('inputs-open'));
      assert(closed, 'Escape does not close the drawer');
      await page.setViewportSize({ width: 1366, height: 900 });
    });

    await check('a11y: the first Tab reaches a visible skip link; Enter takes focus to the answer', async () => {
      await page.evaluate(() => { window.scrollTo(0, 0); document.activeElement && document.activeElement.blur(); });
      await page.evaluate(() => { const a = document.createElement('a'); a.href = '#'; a.id = 'tab-start'; document.body.prepend(a); a.focus(); a.remove(); });
      await page.keyboard.press('Tab');
      const s = await page.evaluate(() => {
        const a = document.activeElement;
        const r = a.getBoundingClientRect();
        return { cls: a.className, visible: r.top >= 0 && r.bottom <= innerHeight && r.width > 20 && getComputedStyle(a).visibility === 'visible' };
      });
      assert(s.cls.includes('skip-link'), 'the first Tab focuses ' + s.cls);
      assert(s.visible, 'the focused skip link is not visible');
      await page.keyboard.press('Enter');
      const focus = await page.evaluate(() => document.activeElement.id);
      assert(focus === 'panel-answer', 'focus after the skip link: ' + focus);
      const hash = await page.evaluate(() => location.hash);
      assert(!hash.includes('panel-answer'), 'the skip link changed the address: ' + hash);
      // The answer card's own controls are the next Tab.
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(() => !!document.activeElement.closest('#panel-answer'));
      assert(inside, 'the Tab after the skip link leaves the answer card');
    });

    await check('a11y: everything the Tab key reaches shows a visible focus indicator', async () => {
      await page.evaluate(() => { window.gpuAdvisor.expandAll(); window.scrollTo(0, 0); });
      await page.focus('.skip-link');
      const missing = [];
      const seen = new Set();
      for (let i = 0; i < TAB_WALK; i++) {
        await page.keyboard.press('Tab');
        const s = await page.evaluate(() => {
          const a = document.activeElement;
          if (!a || a === document.body) return null;
          const cs = getComputedStyle(a);
          const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1) || (cs.boxShadow && cs.boxShadow !== 'none');
          // A radio or checkbox shows its ring on the label's text next to it.
          const next = a.nextElementSibling;
          const nextRing = next && (getComputedStyle(next).outlineStyle !== 'none' || getComputedStyle(next).boxShadow !== 'none');
          return { key: a.tagName + '#' + a.id + '.' + String(a.className.baseVal !== undefined ? a.className.baseVal : a.className).slice(0, 40), ring: ring || nextRing };
        });
        if (!s || seen.has(s.key)) continue;
        seen.add(s.key);
        if (!s.ring) missing.push(s.key);
      }
      assert(seen.size > 30, 'Tab reached only ' + seen.size + ' elements');
      assert(!missing.length, 'no focus indicator on: ' + missing.slice(0, 10).join(', '));
    });

    await check('a11y: every control is keyboard-usable (nothing clickable that Tab cannot reach)', async () => {
      const s = await page.evaluate(() => {
        const bad = [];
        document.querySelectorAll('[role="button"], [role="tab"], [role="link"], [role="checkbox"], [role="switch"], [onclick], .clickable').forEach((n) => {
          const native = /^(BUTTON|A|INPUT|SELECT|TEXTAREA|SUMMARY)$/.test(n.tagName);
          if (!native && n.tabIndex < 0 && !n.closest('[aria-hidden="true"], [hidden]')) bad.push(n.tagName + '.' + (n.className.baseVal !== undefined ? n.className.baseVal : n.className));
        });
        // Buttons and links that are taken out of the tab order.
        document.querySelectorAll('#panels button, #panels a[href], #panels summary, .topbar button').forEach((n) => {
          if (n.getAttribute('tabindex') === '-1' && !n.closest('[aria-hidden="true"]')) bad.push('tabindex=-1 on ' + n.tagName + '.' + n.className);
        });
        return bad;
      });
      assert(!s.length, s.length + ': ' + s.slice(0, 8).join(', '));
    });

    await check('a11y: every chart has a text alternative (role="img" with a name, and its figures in a table)', async () => {
      await page.evaluate(() => { window.gpuAdvisor.applyScenario('pretrain_13b'); window.gpuAdvisor.expandAll(); });
      const s = await page.evaluate(() => {
        const out = { charts: 0, bad: [], tables: 0, lineCharts: 0 };
        document.querySelectorAll('#panels svg').forEach((n) => {
          if (!n.getClientRects().length || n.closest('[aria-hidden="true"]') || n.getAttribute('aria-hidden') === 'true') return;
          out.charts += 1;
          const title = n.querySelector(':scope > title');
          const name = (n.getAttribute('aria-label') || (title && title.textContent) || '').trim();
          // role img; a chart whose points are buttons is a named group (an img's children are presentational).
          const role = n.getAttribute('role');
          if ((role !== 'img' && !(role === 'group' && n.querySelector('[role="button"]'))) || !name) out.bad.push(String(n.className.baseVal || n.tagName) + ' role=' + n.getAttribute('role') + ' name="' + name.slice(0, 30) + '"');
          if (n.classList.contains('line-chart')) {
            out.lineCharts += 1;
            const fig = n.closest('figure');
            if (fig && fig.querySelector('table')) out.tables += 1;
          }
        });
        return out;
      });
      assert(s.charts > 3, 'only ' + s.charts + ' charts');
      assert(!s.bad.length, 'charts without a role or a name: ' + s.bad.join('; '));
      assert(s.tables === s.lineCharts, s.lineCharts - s.tables + ' of ' + s.lineCharts + ' line charts have no data table');
    });

    await check('reflow: no horizontal page scroll at ' + WIDTHS.join(', ') + ' px with every panel open (tables scroll in their own box)', async () => {
      const problems = [];
      for (const scenario of [null, 'pretrain_13b', 'serve_72b']) {
        if (scenario) await page.evaluate((sc) => window.gpuAdvisor.applyScenario(sc), scenario);
        for (const lang of ['zh-CN', 'en']) {
          await page.evaluate((l) => { window.gpuAdvisor.setLanguage(l); window.gpuAdvisor.expandAll(); }, lang);
          for (const w of WIDTHS) {
            await page.setViewportSize({ width: w, height: 900 });
            await page.waitForTimeout(200); // the charts re-render after a resize
            const r = await page.evaluate(() => {
              const iw = innerWidth;
              const sw = document.scrollingElement.scrollWidth;
              if (sw <= iw) return null;
              const wide = Array.from(document.querySelectorAll('body *')).filter((n) => n.getClientRects().length && n.getBoundingClientRect().right > iw + 1
                && (!n.parentElement || n.parentElement.getBoundingClientRect().right <= iw + 1));
              return sw + ' px: ' + wide.slice(0, 4).map((n) => n.tagName + '.' + String(n.className.baseVal !== undefined ? n.className.baseVal : n.className).slice(0, 30)).join(', ');
            });
            if (r) problems.push((scenario || 'default') + ' ' + lang + ' ' + w + ' px: ' + r);
          }
        }
      }
      await page.setViewportSize({ width: 1366, height: 900 });
      assert(!problems.length, problems.length + ' case(s):\n       ' + problems.join('\n       '));
    });

    await check('reflow: in a ' + SHORT_WINDOW_PX + ' px-high window the answer is on the first screen at every width', async () => {
      const p = await context.newPage();
      const late = [];
      try {
        await p.setViewportSize({ width: WIDTHS[0], height: SHORT_WINDOW_PX });
        await p.goto(url);
        await waitReady(p, { folded: true });
        for (const w of WIDTHS) {
          await p.setViewportSize({ width: w, height: SHORT_WINDOW_PX });
          await p.evaluate(() => window.scrollTo(0, 0));
          await p.waitForTimeout(100);
          const top = await p.evaluate(() => { const n = document.getElementById('answer-headline'); return n ? n.getBoundingClientRect().top : null; });
          if (top === null || top > SHORT_WINDOW_PX - 40) late.push(w + ' px: headline at ' + top);
          if (w === 360 || w === 768 || w === 1366) await T.shot(p, 'reflow-' + w + 'x' + SHORT_WINDOW_PX + '.png');
        }
      } finally {
        await p.close();
      }
      assert(!late.length, 'the answer is below the first screen: ' + late.join('; '));
    });
  } finally {
    await context.close();
  }
};
