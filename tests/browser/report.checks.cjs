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

/** The report's text, node by node (not the link to the plan): what a reader sees, for scanning. */
async function reportTexts(page) {
  return page.evaluate(() => {
    const root = document.getElementById('report');
    const out = [];
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.parentElement.closest('.rp-link')) continue;
      const text = n.textContent.trim();
      if (text) out.push(text);
    }
    // Sentences are built from several nodes: their elements' text too ("1 replicas" across a figure).
    root.querySelectorAll('p, li, td, dd, h2').forEach((el) => { if (!el.closest('.rp-link')) out.push(el.textContent.replace(/\s+/g, ' ').trim()); });
    return out;
  });
}

/** Numbers as the page writes them: no raw large integer, no "1 replicas", no "6,000.0 万". */
function humanReport(texts, label) {
  for (const text of texts) {
    const raw = /(?<![\d.,\-\/#=])\d{5,}(?![\d,])/.exec(text);
    if (raw) throw new Error(label + ': a raw number ' + raw[0] + ' in "' + text.slice(0, 120) + '"');
    const plural = /(?<![\d.,])1 (replicas|servers|GPUs|users|runs|years|racks|epochs)\b/.exec(text);
    if (plural) throw new Error(label + ': "' + plural[0] + '" in "' + text.slice(0, 120) + '"');
    const zeros = /\d\.0+ (万|亿|万亿|M|B|T)\b/.exec(text);
    if (zeros) throw new Error(label + ': trailing zeros "' + zeros[0] + '" in "' + text.slice(0, 120) + '"');
  }
}

module.exports = async function reportChecks(T) {
  const { assert, check, context, lastRequest, native, settle, shot, shotDir, url, waitReady, watch, zh } = T;
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
      humanReport(await reportTexts(page), 'report (' + label + ')');
      const file = path.join(shotDir, 'report-' + label + '.pdf');
      await page.pdf({ path: file, format: 'A4', printBackground: true });
      const pages = pdfPages(file);
      assert(pages >= 1 && pages <= 3, 'the report is ' + pages + ' pages');
      if (!render(file, path.join(shotDir, 'report-' + label))) console.log('     (pdftoppm not found: apt-get install -y poppler-utils to render the report)');
    });
  }

  await check('report, cost panel and options table in English: figures as the page writes them, proper plurals; screenshots in both languages', async () => {
    await page.evaluate(() => window.gpuAdvisor.expandAll());
    await settle(page, (r) => r.task === 'inference');
    // One verdict per options cell: never a bought way as the cheapest beside "buying never pays".
    const cells = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-options tbody tr')).map((tr) => {
      const c = tr.querySelector('.cost-cell [data-field$="/cost/cheapest"]');
      return { gpu: tr.dataset.gpu, cheapest: c ? c.dataset.value : null, verdict: ((tr.querySelector('.cost-cell .cost-verdict') || {}).textContent || '').trim() };
    }));
    assert(cells.length > 10, cells.length + ' option rows');
    for (const c of cells) assert(!(c.cheapest === 'buy' && c.verdict === ZH['options.never']), c.gpu + ': cheapest to buy, and "' + c.verdict + '"');
    await shot(page, 'cost-panel-zh.png', '#panel-cost');
    await shot(page, 'options-panel-zh.png', '#panel-options');
    await page.click('.lang-btn[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    const texts = await reportTexts(page);
    humanReport(texts, 'report (serving, English)');
    assert(texts.some((x) => x.includes(zh.en['report.answer'])), 'the report is not in English');
    // The cost panel leads with this job's cost, the options table says what its totals are.
    const s = await page.evaluate(() => ({
      lead: (document.querySelector('#panel-cost .cost-job .section-title') || {}).textContent,
      life: (document.querySelector('#panel-options .cost-cell .cost-life') || {}).textContent || '',
      plan: Array.from(document.querySelectorAll('#panel-options .cost-cell .cost-plan')).map((n) => n.textContent).join(' | '),
    }));
    assert(s.lead === zh.en['cost.job_title'], 'the cost panel does not lead with this job\'s cost: ' + s.lead);
    assert(/\d+-year total/.test(s.life), 'an options cell does not say its total is over years: ' + s.life);
    assert(s.plan.includes(zh.en['answer.role.best']), 'the options table does not mark the recommended plan: ' + s.plan);
    await shot(page, 'cost-panel-en.png', '#panel-cost');
    await shot(page, 'options-panel-en.png', '#panel-options');
    const file = path.join(shotDir, 'report-serving-en.pdf');
    await page.pdf({ path: file, format: 'A4', printBackground: true });
    render(file, path.join(shotDir, 'report-serving-en'));
    await page.click('.lang-btn[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  });

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
