// SPDX-License-Identifier: MIT
// The answer first (issue 8 items 7-8): the answer card above the fold at 1366x768 and at 390 px,
// its reasons in the source's order from the core's codes, runners-up and levers, pinning the
// recommended plan reproduces it, the no-plan message names the nearest plan, the goal bar,
// the scenario presets, the scatter with its Pareto front, the side-by-side comparison, the
// section navigation and folding, and CSV of the plans and of the options.
'use strict';

const fs = require('fs');
const path = require('path');
const { loadWebModules } = require('../js/web_module.cjs');

const STEPS = ['memory', 'interconnect', 'compute', 'power', 'cost'];

/** The scenario presets the page is built with (web/js/scenarios.js). */
function readScenarios() {
  return loadWebModules(['js/scenarios.js']).SCENARIOS;
}

/** Parses CSV text (RFC 4180 quotes, CRLF) into rows. */
function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell.replace(/\r$/, '')); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function download(page, click) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 10000 }), click()]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

/** Where the answer card sits in the viewport. */
async function foldInfo(page) {
  return page.evaluate(() => {
    const card = document.getElementById('panel-answer');
    const head = document.getElementById('answer-headline');
    const reasons = card && card.querySelector('ol.reasons');
    const r = (n) => (n ? n.getBoundingClientRect() : null);
    return { vh: window.innerHeight, vw: window.innerWidth, card: r(card), head: r(head), reasons: r(reasons),
      scrollWidth: document.documentElement.scrollWidth, text: head ? head.textContent : '' };
  });
}

module.exports = async function answerChecks(T) {
  const { assert, check, close, browser, compareWithCli, context, lastRequest, native, settle, shot, siteDir, url, waitReady, watch, zh, shotDir } = T;
  const ZH = zh['zh-CN'];

  // ---------------------------------------------------------------- above the fold
  for (const [w, hgt, mobile, file] of [[1366, 768, false, 'answer-1366x768.png'], [390, 844, true, 'answer-390x844.png']]) {
    await check('answer card above the fold at ' + w + 'x' + hgt + ' (headline and reasons), no sideways scroll', async () => {
      const ctx = await browser.newContext({ viewport: { width: w, height: hgt }, deviceScaleFactor: 1, isMobile: mobile, hasTouch: mobile });
      const page = await ctx.newPage();
      watch(page, 'fold ' + w);
      await page.goto(url);
      await waitReady(page, { folded: true });
      const f = await foldInfo(page);
      assert(f.head && f.head.top >= 0 && f.head.bottom <= f.vh, 'the headline is not above the fold: ' + JSON.stringify(f.head));
      assert(f.reasons && f.reasons.bottom <= f.vh + (mobile ? 200 : 0), 'the reasons are far below the fold: ' + JSON.stringify(f.reasons));
      assert(f.scrollWidth <= f.vw + 1, 'page is ' + f.scrollWidth + ' px wide at ' + f.vw);
      const cli = native(await lastRequest(page));
      const best = cli.recommendation.best;
      assert(f.text.includes(best.gpus + '×') && f.text.includes(ZH['basis.per_run.suffix']), 'headline "' + f.text + '" lacks the count or the cost basis');
      await page.screenshot({ path: path.join(shotDir, file) });
      if (mobile) {
        // The inputs live in a drawer on a phone.
        await page.click('#btn-inputs');
        await page.waitForFunction(() => document.body.classList.contains('inputs-open'));
        await page.waitForTimeout(300);
        const box = await page.evaluate(() => document.getElementById('inputs').getBoundingClientRect().left);
        assert(box >= -1, 'the input drawer did not open');
        await page.screenshot({ path: path.join(shotDir, 'answer-390-drawer.png') });
        await page.click('#btn-inputs-close');
      }
      await ctx.close();
    });
  }

  // ---------------------------------------------------------------- the card's content
  const page = await context.newPage();
  watch(page, 'answer');
  await page.goto(url);
  await waitReady(page);

  await check('answer card: headline, reasons in the source\'s order from reason codes, runners-up, levers equal the CLI\'s', async () => {
    await compareWithCli(page, 'answer default');
    const cli = native(await lastRequest(page));
    const rec = cli.recommendation;
    const s = await page.evaluate(() => ({
      reasons: Array.from(document.querySelectorAll('#panel-answer .answer-best > ol.reasons li')).map((li) => ({ code: li.dataset.code, step: li.dataset.step, en: li.querySelectorAll('[lang=en]').length, text: li.textContent })),
      runners: Array.from(document.querySelectorAll('#panel-answer .runners li.alt')).map((li) => li.dataset.winsOn),
      levers: Array.from(document.querySelectorAll('#panel-answer .levers li.alt')).map((li) => li.dataset.lever),
      fields: Array.from(document.querySelectorAll('#panel-answer [data-field]')).map((n) => n.dataset.field),
    }));
    assert(JSON.stringify(s.reasons.map((x) => x.code)) === JSON.stringify(rec.best.reasons.map((x) => x.code)), 'reason codes ' + s.reasons.map((x) => x.code));
    const order = s.reasons.map((x) => STEPS.indexOf(x.step));
    assert(order.every((v, i) => v >= 0 && (i === 0 || order[i - 1] <= v)), 'reasons not in memory→cost order: ' + s.reasons.map((x) => x.step));
    assert(s.reasons.every((x) => x.en === 0), 'a reason fell back to the core\'s English: ' + s.reasons.filter((x) => x.en).map((x) => x.code));
    assert(JSON.stringify(s.runners) === JSON.stringify(rec.runners_up.map((u) => u.wins_on)), 'runners-up ' + s.runners);
    assert(JSON.stringify(s.levers) === JSON.stringify(rec.levers.map((l) => l.lever)), 'levers ' + s.levers);
    for (const f of ['/recommendation/best/gpus', '/recommendation/best/cost/cny', '/recommendation/best/hours', '/recommendation/best/deployment', '/recommendation/best/servers']) {
      assert(s.fields.includes(f), 'no figure for ' + f);
    }
    // Every cost says what it is.
    const costs = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-answer .plan-cost')).map((n) => n.textContent));
    assert(costs.length && costs.every((c) => /\/次|\/月/.test(c)), 'a cost without its basis: ' + costs);
    await shot(page, 'answer-panel.png', '#panel-answer');
  });

  await check('every reason code of core/plan/recommend_reasons.cpp has words in both languages', async () => {
    const src = fs.readFileSync(path.join(__dirname, '..', '..', 'core', 'plan', 'recommend_reasons.cpp'), 'utf8');
    const codes = new Set([...src.matchAll(/\{"(?:memory|interconnect|compute|power|cost)",\s*"([a-z_]+)"/g)].map((m) => m[1]));
    for (const m of src.matchAll(/r\.code = (?:wins_on == "office" \? )?"([a-z_]+)"(?: : "([a-z_]+)")?/g)) { codes.add(m[1]); if (m[2]) codes.add(m[2]); }
    for (const d of ['buy', 'rent', 'rent_reserved']) for (const b of ['per_run', 'per_month']) codes.add(d + '_' + b);
    codes.add('office'); codes.add('idc_rack');
    const missing = [...codes].filter((c) => !(('reason.' + c) in zh['zh-CN']) || !(('reason.' + c) in zh.en));
    assert(codes.size >= 20, 'only ' + codes.size + ' codes found in recommend_reasons.cpp');
    assert(!missing.length, 'no words for ' + missing);
  });

  await check('pinning the recommended plan reproduces it (same GPU, count, fit, time; the cost panel on its deployment)', async () => {
    const before = native(await lastRequest(page)).recommendation.best;
    await page.click('#panel-answer .answer-top .pin-btn');
    await settle(page, (r, b) => r.hardware && r.hardware.gpu === b.gpu && r.hardware.count === b.gpus, { gpu: before.gpu, gpus: before.gpus });
    await compareWithCli(page, 'pinned best');
    const cli = native(await lastRequest(page));
    assert(cli.memory.layout.gpu === before.gpu && cli.memory.layout.count === before.gpus, 'pinned layout ' + JSON.stringify(cli.memory.layout));
    assert(cli.memory.fits === true, 'the pinned recommended plan does not fit');
    if (before.hours !== null) assert(close(cli.training.hours, before.hours), 'pinned hours ' + cli.training.hours + ' vs recommended ' + before.hours);
    const after = cli.recommendation.best;
    assert(after.gpu === before.gpu && after.gpus === before.gpus && after.deployment === before.deployment, 'the recommendation moved once pinned: ' + JSON.stringify([after.gpu, after.gpus, after.deployment]));
    // The deployment (and an owned plan's place) is pinned too, shown in the hardware group.
    const hw = (await lastRequest(page)).hardware;
    assert(hw.deployment === before.deployment, 'pinned deployment ' + hw.deployment + ' vs ' + before.deployment);
    if (before.deployment === 'buy') assert(hw.facility === before.facility, 'pinned place ' + hw.facility);
    assert(close(after.cost.cny, before.cost.cny), 'pinned cost ' + after.cost.cny + ' vs recommended ' + before.cost.cny);
    const shown = await page.evaluate(() => document.getElementById('in-deployment').value);
    assert(shown === before.deployment, 'the deployment select shows ' + shown);
    const s = await page.evaluate(() => ({ pinned: Boolean(document.querySelector('#panel-answer .answer-top .tag-pinned')),
      tab: (document.querySelector('#panel-cost .tab[aria-selected="true"]') || {}).dataset }));
    assert(s.pinned, 'the card does not say the plan is pinned');
    if (['buy', 'rent', 'rent_reserved'].includes(before.deployment) && s.tab) assert(s.tab.option === before.deployment, 'cost panel shows ' + s.tab.option);
    await page.click('#panel-answer .answer-top .unpin');
    await settle(page, (r) => !r.hardware);
    assert(await page.evaluate(() => document.getElementById('in-deployment').value) === '', 'unpinning leaves the deployment');
  });

  await check('a lever is an explicit alternative: "use this" sets its input and pins its plan', async () => {
    const rec = native(await lastRequest(page)).recommendation;
    if (!rec.levers.length) return;
    const lever = rec.levers[0];
    await page.click('#panel-answer .levers li.alt:first-child .lever-btn');
    await settle(page, (r, l) => r.hardware && r.hardware.gpu === l.gpu && r.hardware.count === l.gpus, { gpu: lever.plan.gpu, gpus: lever.plan.gpus });
    const req = await lastRequest(page);
    const got = lever.path.split('/').slice(1).reduce((o, k) => (o ? o[k] : undefined), req);
    assert(got === lever.value, lever.path + ' is ' + got + ', the lever sets ' + lever.value);
    const cli = native(req);
    assert(cli.memory.fits === true, 'the lever\'s plan does not fit when pinned');
    await page.click('#btn-reset');
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware);
  });

  await check('serving: the card says per month and per million tokens; pinning the recommended fleet reproduces it', async () => {
    await page.click('.scenario[data-scenario="serve_72b"]');
    await settle(page, (r) => r.task === 'inference' && r.inference && r.inference.target_users === 50);
    await compareWithCli(page, 'serving answer');
    const before = native(await lastRequest(page)).recommendation.best;
    const text = await page.evaluate(() => document.getElementById('answer-headline').textContent);
    assert(text.includes(ZH['basis.per_month.suffix']) && text.includes(ZH['basis.per_million_tokens.suffix']), 'serving headline "' + text + '"');
    await page.click('#panel-answer .answer-top .pin-btn');
    await settle(page, (r, b) => r.hardware && r.hardware.gpu === b.gpu && r.hardware.count === b.gpus, { gpu: before.gpu, gpus: before.gpus });
    const cli = native(await lastRequest(page));
    assert(cli.memory.fits === true, 'pinned serving plan does not fit');
    assert(cli.recommendation.best.gpu === before.gpu && cli.recommendation.best.gpus === before.gpus, 'serving recommendation moved once pinned');
    if (cli.inference.gpus_needed !== undefined && cli.inference.gpus_needed !== null) {
      assert(cli.inference.gpus_needed === before.gpus, 'pinned fleet needs ' + cli.inference.gpus_needed + ', recommended ' + before.gpus);
    }
    await shot(page, 'answer-serving.png', '#panel-answer');
  });

  await check('risks: a badge with its reason per risk of the parts on the card and on runners-up; the data-centre alternative beside a risky serving answer', async () => {
    // The 72B service at a small load (4 users at 10 tokens/s): RTX 3090s win on cost.
    await page.click('.scenario[data-scenario="serve_72b"]');
    await settle(page, (r) => r.task === 'inference' && !r.hardware);
    await page.fill('#in-target-users', '4');
    await page.fill('#in-target-tps', '10');
    await settle(page, (r) => r.inference && r.inference.target_users === 4 && r.inference.target_tokens_per_second_per_user === 10);
    const rec = native(await lastRequest(page)).recommendation;
    const s = await page.evaluate(() => {
      const badges = (sel) => Array.from(document.querySelectorAll(sel)).map((li) => ({
        code: li.dataset.code, badge: (li.querySelector('.risk-badge') || {}).textContent || '', text: li.textContent }));
      return {
        best: badges('#panel-answer .answer-best > .plan-risks .plan-risk'),
        runners: Array.from(document.querySelectorAll('#panel-answer .alt-list.runners > li')).map((li) => li.querySelectorAll('.plan-risk').length),
        alt: (document.querySelector('#panel-answer .answer-alternative') || {}).textContent || null,
        flag: Boolean(document.querySelector('#panel-answer .answer-best > .plan-warnings [data-code="risky_parts_customer_facing"]')),
      };
    });
    const risky = [rec.best].concat(rec.runners_up.map((u) => u.plan)).some((p) => p.risks.length);
    assert(risky, 'no shown plan of the 72B serving answer carries a risk: pick a request that does');
    assert(s.best.length === rec.best.risks.length, 'the card shows ' + s.best.length + ' risk badges, the core ' + rec.best.risks.length);
    rec.best.risks.forEach((x, i) => {
      assert(s.best[i].code === x.code && s.best[i].badge === ZH['risk.' + x.code], 'badge ' + i + ' reads "' + s.best[i].badge + '" for ' + x.code);
      assert(s.best[i].text.length > s.best[i].badge.length + 4 && /[\u4e00-\u9fff]/.test(s.best[i].text), 'badge ' + x.code + ' has no reason in Chinese');
    });
    rec.runners_up.forEach((u, i) => assert(s.runners[i] === u.plan.risks.length, 'runner-up ' + i + ' shows ' + s.runners[i] + ' badges, the core ' + u.plan.risks.length));
    if (rec.datacenter_alternative) {
      assert(s.alt && s.alt.includes(rec.datacenter_alternative.gpus + '×'), 'the data-centre alternative is not beside the answer: ' + s.alt);
      assert(s.flag, 'the risky serving answer is not flagged');
    } else {
      assert(s.alt === null, 'an alternative is shown the core did not name');
    }
    await shot(page, 'answer-risks.png', '#panel-answer');
  });

  await check('no plan meets the goal: a clear message naming the nearest plan, never an empty card', async () => {
    await page.click('.scenario[data-scenario="pretrain_13b"]');
    await settle(page, (r) => r.task === 'pretrain');
    await page.fill('#in-deadline', '1');
    await settle(page, (r) => r.goal && r.goal.deadline_hours === 1);
    await compareWithCli(page, 'no plan');
    const cli = native(await lastRequest(page));
    assert(cli.recommendation.best === null && cli.recommendation.nearest, 'the CLI found a plan within 1 h');
    const s = await page.evaluate(() => ({
      kicker: (document.querySelector('#panel-answer .answer-none .answer-kicker') || {}).textContent,
      nearest: (document.querySelector('#panel-answer .answer-nearest') || {}).textContent || '',
      pin: Boolean(document.querySelector('#panel-answer .answer-nearest .pin-btn')),
      drop: Array.from(document.querySelectorAll('#panel-answer .relax-btn')).map((b) => b.textContent),
    }));
    assert(s.kicker === ZH['answer.no_plan'], 'no "no plan" message');
    assert(s.nearest.includes(cli.recommendation.nearest.gpus + '×'), 'the nearest plan is not named: ' + s.nearest);
    assert(s.pin, 'the nearest plan cannot be pinned');
    assert(s.drop.includes(ZH['answer.drop_deadline']), 'no button to drop the deadline');
    await shot(page, 'answer-no-plan.png', '#panel-answer');
    await page.click('#panel-answer .relax-btn[data-goal="deadline_hours"]');
    await settle(page, (r) => !(r.goal && r.goal.deadline_hours));
  });

  await check('goal bar: objective and the buying policy reach the request and change the answer as the CLI does', async () => {
    await page.selectOption('#in-objective', 'fastest');
    await settle(page, (r) => r.goal && r.goal.objective === 'fastest');
    await compareWithCli(page, 'fastest');
    const cli = native(await lastRequest(page));
    assert(cli.recommendation.objective === 'fastest', 'objective ' + cli.recommendation.objective);
    await page.selectOption('#in-buying-policy', 'new_only');
    await settle(page, (r) => r.goal && r.goal.buying_policy === 'new_only');
    await compareWithCli(page, 'buying policy');
    await page.selectOption('#in-objective', 'fastest_within_budget');
    await T.expectError(page, '/goal/budget_cny', 'missing_field', 'budget needed');
    await page.fill('#in-budget', '500000');
    await settle(page, (r) => r.goal && r.goal.budget_cny === 500000);
    await compareWithCli(page, 'within budget');
    await page.click('#btn-reset');
    await settle(page, (r) => r.task === 'full_finetune' && !r.hardware && r.goal && r.goal.objective === 'auto');
  });

  await check('budget: 5万 / ¥50,000 / 50k are read as money and echoed, the card says what the budget was compared with', async () => {
    // Issue 25 item 3: the LoRA preset with a budget people type.
    await page.click('.scenario[data-scenario="lora_7b"]');
    await settle(page, (r) => r.task === 'lora');
    const echo = () => page.evaluate(() => (document.querySelector('.field[data-path="/goal/budget_cny"] .field-echo') || {}).textContent || '');
    await page.fill('#in-budget', '5万');
    await settle(page, (r) => r.goal && r.goal.budget_cny === 50000);
    assert((await echo()) === '= 50,000 元', '5万 echoed as ' + JSON.stringify(await echo()));
    await compareWithCli(page, 'budget 5万');
    for (const [typed, want] of [['¥80,000', 80000], ['50k', 50000], ['￥2万元', 20000], ['50', 50]]) {
      await page.fill('#in-budget', typed);
      await settle(page, (r, w) => r.goal && r.goal.budget_cny === w, want);
    }
    const cli = native(await lastRequest(page));
    const best = cli.recommendation.best;
    assert(best && best.outlay_cny <= 50 && best.deployment !== 'buy', 'a CNY 50 budget: ' + JSON.stringify(best && [best.gpus, best.gpu, best.deployment, best.outlay_cny]));
    const s = await page.evaluate(() => ({
      basis: (document.querySelector('#panel-answer .answer-goal .budget-basis') || {}).textContent || '',
      within: (document.querySelector('#panel-answer .answer-best .reason-item[data-code="within_budget"]') || {}).textContent || '',
    }));
    const word = ZH['outlay_basis.' + best.outlay_basis];
    assert(word && s.basis.includes(word), 'the goal line does not say the basis: ' + JSON.stringify(s.basis));
    assert(s.within.includes(word), 'the plan\'s reasons do not say the budget\'s basis: ' + JSON.stringify(s.within));
    await shot(page, 'answer-budget.png', '#panel-answer');
    // Another currency is refused at the field, with a word on why.
    await page.fill('#in-budget', '$500');
    const info = await T.expectError(page, '/goal/budget_cny', 'wrong_type', 'budget in dollars');
    assert(info.fieldMessage.includes(ZH['error.money_not_cny']), 'no word on the currency: ' + info.fieldMessage);
    await page.fill('#in-budget', '');
    await settle(page, (r) => !(r.goal && r.goal.budget_cny));
  });

  await check('scenario presets: the source\'s three and at least six more, one click each, every one answered by the CLI', async () => {
    const scenarios = readScenarios();
    assert(scenarios.length >= 9 && scenarios.filter((s) => s.source).length === 3, scenarios.length + ' scenarios');
    const tasks = new Set(scenarios.filter((s) => s.source).map((s) => s.request.task));
    assert(tasks.has('pretrain') && tasks.has('inference') && (tasks.has('lora') || tasks.has('full_finetune')), 'the source\'s three: ' + [...tasks]);
    const chips = await page.evaluate(() => Array.from(document.querySelectorAll('#scenario-list .scenario')).map((b) => b.dataset.scenario));
    assert(JSON.stringify(chips) === JSON.stringify(scenarios.map((s) => s.id)), 'chips ' + chips);
    for (const sc of scenarios) {
      await page.click('.scenario[data-scenario="' + sc.id + '"]');
      await settle(page, (r, want) => JSON.stringify(r.model) === JSON.stringify(want.model) && r.task === want.task, sc.request);
      const req = await lastRequest(page);
      for (const section of Object.keys(sc.request)) {
        if (typeof sc.request[section] !== 'object') { assert(req[section] === sc.request[section], sc.id + ': ' + section); continue; }
        for (const k of Object.keys(sc.request[section])) {
          assert(JSON.stringify(req[section][k]) === JSON.stringify(sc.request[section][k]), sc.id + ': /' + section + '/' + k + ' is ' + JSON.stringify(req[section][k]));
        }
      }
      const cli = native(req);
      assert(!cli.error, sc.id + ': the CLI says ' + JSON.stringify(cli.error));
      assert(cli.recommendation && cli.recommendation.best, sc.id + ': no recommended plan');
      const pressed = await page.evaluate((id) => document.querySelector('.scenario[data-scenario="' + id + '"]').getAttribute('aria-pressed'), sc.id);
      assert(pressed === 'true', sc.id + ': chip not marked');
    }
    await compareWithCli(page, 'last scenario');
  });

  await check('scatter: every named plan and the Pareto front as points carrying their figures; side by side compares 2-3 plans', async () => {
    await page.click('.scenario[data-scenario="full_ft_14b"]');
    await settle(page, (r) => r.model.preset === 'qwen2.5-14b' && r.task === 'full_finetune');
    const cli = native(await lastRequest(page));
    const rec = cli.recommendation;
    const named = 1 + rec.runners_up.length + rec.levers.length;
    const s = await page.evaluate(() => ({
      points: Array.from(document.querySelectorAll('#panel-compare svg circle')).map((c) => c.dataset.field),
      front: document.querySelectorAll('#panel-compare svg path.series').length,
      cols: document.querySelectorAll('#panel-compare table.side-by-side thead th').length,
      rows: document.querySelectorAll('#panel-compare table.candidates tbody tr').length,
    }));
    assert(s.points.length === rec.pareto.length + named, s.points.length + ' points, expected ' + (rec.pareto.length + named));
    assert(s.points.every((f) => /^\/recommendation\//.test(f)), 'a point without its figure');
    assert(s.front === 1, 'no Pareto line');
    assert(s.rows === named, s.rows + ' candidate rows');
    assert(s.cols === 1 + Math.min(3, named), s.cols + ' comparison columns');
    await compareWithCli(page, 'compare');
    // A fourth pick drops the oldest.
    if (named >= 4) {
      const keys = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-compare table.candidates tbody tr')).map((tr) => tr.dataset.key));
      await page.click('#panel-compare table.candidates tbody tr:nth-child(4) .compare-box');
      const cols = await page.evaluate(() => Array.from(document.querySelectorAll('#panel-compare table.side-by-side thead th')).slice(1).map((th) => th.dataset.key));
      assert(cols.length === 3 && cols.includes(keys[3]) && !cols.includes(keys[0]), 'comparison after a 4th pick: ' + cols);
    }
    await shot(page, 'compare-panel.png', '#panel-compare');
  });

  await check('CSV for people: the recommended plan first (the card\'s GPU and count), then runners-up; units in the headers, figures rounded, codes in words; the options CSV too; spreadsheet-safe', async () => {
    const cli = native(await lastRequest(page));
    const rec = cli.recommendation;
    const card = await page.evaluate(() => {
      const head = document.getElementById('answer-headline');
      const n = head && head.querySelector('[data-field="/recommendation/best/gpus"]');
      return { name: head ? (head.querySelector('.plan-name') || {}).textContent : null, gpus: n ? n.dataset.value : null };
    });
    const plans = await download(page, () => page.click('#btn-plans-csv'));
    assert(/\.csv$/.test(plans.name) && plans.text.charCodeAt(0) === 0xfeff, 'not a CSV with a BOM: ' + plans.name);
    const rows = parseCsv(plans.text.slice(1));
    const named = 1 + rec.runners_up.length + rec.levers.length + (rec.nearest ? 1 : 0);
    assert(rows.length >= named + 1 && rows.length <= named + 1 + rec.pareto.length, rows.length + ' rows for ' + named + ' named plans and ' + rec.pareto.length + ' on the front');
    const header = rows[0];
    const col = (k) => header.indexOf(ZH['csv.' + k]);
    // Units in the headers.
    const costKey = rec.best.cost.basis === 'per_month' ? 'cost_per_month' : 'cost_per_run';
    assert(col(costKey) >= 0 && /元\/(次|月)/.test(header[col(costKey)]), 'no cost column with its unit: ' + header);
    if (rec.best.hours !== null) assert(col('hours') >= 0 && /小时/.test(header[col('hours')]), 'no hours column with its unit: ' + header);
    assert(col('per_gpu_gib') >= 0 && /GiB/.test(header[col('per_gpu_gib')]), 'no memory column in GiB: ' + header);
    // The first row is the card's plan.
    const first = rows[1];
    assert(first[col('plan')] === ZH['answer.role.best'], 'the first row is ' + first[col('plan')]);
    assert(first[col('gpu')] === card.name && first[col('gpus')] === card.gpus, 'first row ' + first[col('gpu')] + ' × ' + first[col('gpus')] + ', the card ' + card.name + ' × ' + card.gpus);
    assert(Math.abs(Number(first[col(costKey)]) - rec.best.cost.cny) <= (rec.best.cost.cny >= 100 ? 0.5 : 0.005), 'first row cost ' + first[col(costKey)] + ', CLI ' + rec.best.cost.cny);
    assert(first[col('deployment')] === ZH['deploy.' + rec.best.deployment], 'first row deployment ' + first[col('deployment')]);
    rec.runners_up.forEach((u, i) => {
      const row = rows[2 + i];
      assert(row[col('plan')] === ZH['wins_on.' + u.wins_on] && row[col('gpus')] === String(u.plan.gpus), 'runner-up row ' + row);
    });
    // Figures for people: no long decimals, no byte counts, no codes.
    const codes = new Set();
    for (const p of [rec.best].concat(rec.runners_up.map((u) => u.plan), rec.levers.map((l) => l.plan))) {
      for (const k of ['gpu', 'deployment', 'facility', 'outlay_basis']) if (p[k]) codes.add(String(p[k]));
      for (const x of (p.risks || []).concat(p.warnings || [])) codes.add(String(x.code));
    }
    for (const o of cli.options) {
      codes.add(o.gpu); codes.add(o.verdict);
      if (o.china_availability) codes.add(o.china_availability.status);
      if (o.cost && o.cost.cheapest) codes.add(o.cost.cheapest);
    }
    const human = (list, what) => list.slice(1).forEach((row, r) => row.forEach((cell, c) => {
      const where = what + ' row ' + (r + 1) + ' "' + list[0][c] + '" = ' + cell;
      if (/^-?\d+(\.\d+)?$/.test(cell)) {
        assert(!/\.\d{5,}$/.test(cell), 'too many decimals: ' + where);
        assert(Math.abs(Number(cell)) < 1e9, 'a raw large integer (bytes?): ' + where);
      } else {
        assert(!codes.has(cell) && !/^[a-z0-9]+(_[a-z0-9]+)+$/.test(cell) && !/^[a-z]+(-[a-z]+){2,}$/.test(cell), 'a code, not words: ' + where);
      }
    }));
    human(rows, 'plans');
    const options = await download(page, () => page.click('#btn-options-csv'));
    assert(options.text.charCodeAt(0) === 0xfeff, 'options CSV without a BOM');
    const orows = parseCsv(options.text.slice(1));
    assert(orows.length === cli.options.length + 1, orows.length + ' option rows');
    const oc = (k) => orows[0].indexOf(ZH['csv.' + k]);
    assert(/GiB/.test(orows[0][oc('memory_gib')]), 'options memory header ' + orows[0][oc('memory_gib')]);
    assert(orows[0].some((x) => /年总成本/.test(x) && /利用率|元/.test(x)), 'no lifetime column saying its years: ' + orows[0]);
    const bestOption = cli.options.find((o) => o.gpu === rec.best.gpu);
    assert(orows[1][oc('gpu')] === String(bestOption.name) && orows[1][oc('plan')] === ZH['answer.role.best'], 'the options CSV does not start with the recommended GPU: ' + orows[1]);
    for (const o of cli.options) {
      const row = orows.find((x) => x[oc('gpu')] === String(o.name));
      assert(row && String(row[oc('min_count')]) === String(o.min_count === null ? '' : o.min_count), 'option row for ' + o.gpu + ': ' + row);
    }
    human(orows, 'options');
    const defused = await page.evaluate(() => [window.gpuAdvisor.internals.csvCell('=HYPERLINK("x")'), window.gpuAdvisor.internals.csvCell('-1+2'), window.gpuAdvisor.internals.csvCell(-3)]);
    assert(defused[0] === '"\'=HYPERLINK(""x"")"' && defused[1] === "'-1+2" && defused[2] === '-3', 'formula cells not defused: ' + defused);
    fs.writeFileSync(path.join(shotDir, 'plans.csv'), plans.text);
    fs.writeFileSync(path.join(shotDir, 'options.csv'), options.text);
  });

  await check('sections: deep dives start folded, the navigation opens one and folding keeps the figures out of sight', async () => {
    const fresh = await context.newPage();
    watch(fresh, 'folding');
    await fresh.goto(url);
    await waitReady(fresh, { folded: true });
    const s = await fresh.evaluate(() => ({
      folded: Array.from(document.querySelectorAll('#panels .panel.collapsed')).map((p) => p.id),
      nav: Array.from(document.querySelectorAll('#section-nav .nav-item')).map((b) => b.dataset.panel),
      shown: Array.from(document.querySelectorAll('#panels .panel:not([hidden])')).map((p) => p.id.replace('panel-', '')),
    }));
    for (const id of ['panel-breakdown', 'panel-prices', 'panel-request']) assert(s.folded.includes(id), id + ' not folded by default');
    assert(!s.folded.includes('panel-answer'), 'the answer is folded');
    assert(JSON.stringify(s.nav) === JSON.stringify(s.shown), 'nav ' + s.nav + ' vs panels ' + s.shown);
    await fresh.click('#section-nav .nav-item[data-panel="prices"]');
    const open = await fresh.evaluate(() => ({ folded: document.getElementById('panel-prices').classList.contains('collapsed'),
      top: document.getElementById('panel-prices').getBoundingClientRect().top, rows: Array.from(document.querySelectorAll('#panel-prices tbody tr')).filter((r) => r.getClientRects().length).length }));
    assert(!open.folded && open.rows > 5 && open.top < 300, 'the nav did not open the prices: ' + JSON.stringify(open));
    await fresh.click('#panel-prices .panel-toggle');
    const hidden = await fresh.evaluate(() => Array.from(document.querySelectorAll('#panel-prices [data-field]')).filter((n) => n.getClientRects().length).length);
    assert(hidden === 0, hidden + ' figures of a folded panel still visible');
    await fresh.close();
  });

  await check('English: the answer card and its reasons switch language, figures unchanged', async () => {
    await page.click('.lang-btn[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    const s = await page.evaluate(() => ({ title: document.querySelector('#panel-answer .panel-title').textContent,
      kicker: (document.querySelector('#panel-answer .answer-kicker') || {}).textContent,
      step: (document.querySelector('#panel-answer .step-label') || {}).textContent }));
    assert(s.title === zh.en['panel.answer'] && s.step === zh.en['step.memory'], 'not in English: ' + JSON.stringify(s));
    await compareWithCli(page, 'answer english');
    await shot(page, 'answer-en.png', '#panel-answer');
    const csv = await download(page, () => page.click('#btn-plans-csv'));
    const head = parseCsv(csv.text.slice(1))[0];
    assert(head[0] === zh.en['csv.plan'] && head.some((x) => /CNY per (run|month)/.test(x)), 'English CSV header ' + head);
    fs.writeFileSync(path.join(shotDir, 'plans-en.csv'), csv.text);
    await page.click('.lang-btn[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  });

  await page.close();
};
