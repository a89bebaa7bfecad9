// SPDX-License-Identifier: MIT
// The print report (issue 8 item 8): printed to PDF by headless Chromium (page.pdf, A4) for a
// training plan and a serving plan; 1-3 pages; it holds the inputs, the answer with its
// reasons, the alternatives, the key charts, the assumptions and the prices with their sources;
// each PDF is rendered to PNG (pdftoppm, poppler-utils) next to the screenshots to look at.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

function pdfPages(file) {
  const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
  if (!info.error && info.status === 0) {
    const m = /Pages:\s+(\d+)/.exec(info.stdout);
    if (m) return Number(m[1]);
  }
  // Without poppler: count the page objects.
  const text = fs.readFileSync(file, 'latin1');
  return (text.match(/\/Type\s*\/Page[^s]/g) || []).length;
}

function render(file, prefix) {
  const r = spawnSync('pdftoppm', ['-png', '-r', '60', file, prefix], { encoding: 'utf8' });
  return !r.error && r.status === 0;
}

module.exports = async function reportChecks(T) {
  const { assert, check, context, lastRequest, native, settle, shotDir, url, waitReady, watch, zh } = T;
  const ZH = zh['zh-CN'];

  const page = await context.newPage();
  watch(page, 'report');
  await page.goto(url);
  await waitReady(page);

  for (const [scenario, label] of [[null, 'training'], ['serve_72b', 'serving']]) {
    await check('print report (' + label + '): A4 PDF of 1-3 pages with inputs, answer, reasons, alternatives, charts, assumptions and sourced prices', async () => {
      if (scenario) {
        await page.click('.scenario[data-scenario="' + scenario + '"]');
        await settle(page, (r) => r.task === 'inference' && r.inference && r.inference.target_users === 50);
      }
      const cli = native(await lastRequest(page));
      // The report is built before printing (beforeprint; the button does it too).
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      const s = await page.evaluate(() => {
        const root = document.getElementById('report');
        return {
          sections: Array.from(root.querySelectorAll('.rp-section h2')).map((n) => n.textContent),
          inputs: root.querySelectorAll('.rp-input').length,
          reasons: Array.from(root.querySelectorAll('ol.reasons li')).map((li) => li.dataset.code),
          charts: root.querySelectorAll('.rp-chart svg').length,
          prices: root.querySelectorAll('.rp-prices tbody tr').length,
          sources: Array.from(root.querySelectorAll('.rp-prices .rp-source')).filter((n) => n.textContent.trim().length > 3).length,
          headline: (root.querySelector('.rp-headline') || {}).textContent || '',
          link: (root.querySelector('.rp-link') || {}).textContent || '',
          fields: Array.from(root.querySelectorAll('[data-field]')).map((n) => ({ f: n.dataset.field, v: n.dataset.value, b: n.dataset.bytes })),
        };
      });
      for (const k of ['report.inputs', 'report.answer', 'report.charts', 'report.assumptions']) {
        assert(s.sections.includes(ZH[k]), 'no section ' + ZH[k] + ': ' + s.sections);
      }
      assert(s.inputs >= 8, s.inputs + ' inputs listed');
      assert(JSON.stringify(s.reasons) === JSON.stringify(cli.recommendation.best.reasons.map((r) => r.code)), 'reasons ' + s.reasons);
      assert(s.charts >= 1, 'no chart');
      if (cli.cost) {
        assert(s.prices === cli.cost.defaults_used.length, s.prices + ' prices, the CLI used ' + cli.cost.defaults_used.length);
        assert(s.sources === s.prices, (s.prices - s.sources) + ' prices without a source');
      }
      assert(s.headline.includes(cli.recommendation.best.gpus + '×'), 'headline "' + s.headline + '"');
      assert(s.link.includes('#req='), 'no link to the plan');
      // The report's figures are the CLI's, like the page's.
      const get = (o, p) => p.split('/').slice(1).reduce((x, k) => (x === undefined || x === null ? undefined : x[k]), o);
      for (const f of s.fields) {
        const want = get(cli, f.f);
        const got = f.b !== undefined ? Number(f.b) : f.v === 'null' ? null : f.v;
        assert(want !== undefined && (typeof want === 'number' ? Math.abs(Number(got) - want) <= 1e-9 * Math.max(1, Math.abs(want)) : String(want) === String(got)),
          'report figure ' + f.f + ' = ' + got + ', CLI ' + JSON.stringify(want));
      }
      const file = path.join(shotDir, 'report-' + label + '.pdf');
      await page.pdf({ path: file, format: 'A4', printBackground: true });
      const pages = pdfPages(file);
      assert(pages >= 1 && pages <= 3, 'the report is ' + pages + ' pages');
      if (!render(file, path.join(shotDir, 'report-' + label))) console.log('     (pdftoppm not found: apt-get install -y poppler-utils to render the report)');
    });
  }

  await check('print media shows the report only (no form, no buttons)', async () => {
    await page.emulateMedia({ media: 'print' });
    const s = await page.evaluate(() => {
      const seen = (n) => Boolean(n && n.getClientRects().length);
      return { report: seen(document.getElementById('report')), form: seen(document.getElementById('inputs')),
        topbar: seen(document.querySelector('.topbar')), panels: seen(document.getElementById('panels')) };
    });
    await page.emulateMedia({ media: 'screen' });
    assert(s.report && !s.form && !s.topbar && !s.panels, JSON.stringify(s));
  });

  await page.close();
};
