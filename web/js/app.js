// SPDX-License-Identifier: MIT
// The page: start-up (the pre-rendered first view, the core, the form, a link in the address),
// the form's events, the language switch, the scenario chips, and window.gpuAdvisor's object
// (js/main.js publishes it). Runs are js/run.js's.
import { chartWidth } from './charts.js';
import { catalog, loadCore, moduleFetched } from './core.js';
import { clear, copyText, h, toast } from './dom.js';
import { renderEchoes } from './echo.js';
import { renderHelp } from './help.js';
import { renderError } from './errors.js';
import { warmFormatters } from './format.js';
import { applyRequest, dropChoicesOfOtherTask, FORMS, gpuSelect, input, presetSelect, startRequest, updateVisibility } from './form.js';
import { badHashText, cancelHash, flushHash, forgetOwnHash, hashPending, holdAddress, isOwnHash, readHash, shareHash, shareLink, showHashNote,
  writeHash } from './hash.js';
import { applyStaticStrings, hasLang, isLang, lang, loadLang, setLang, t } from './i18n.js';
import { applyDynamicPlaceholders, fillFieldsFromPreset, populateCatalogInputs, renderPresetFacts } from './inputs.js';
import { renderCard } from './card.js';
import { buildMonthInputs, labelMonths } from './months.js';
import { foldAll, panelsPending, panelsWidth, measurePanelsWidth, registerPanel, renderPanels, resetPanels } from './panel.js';
import { clearProvider, providerAwaited, renderProvider, setProvider } from './provider.js';
import { buildReport, printReport } from './report.js';
import { isReady, lastRun, leversPending, onResult, run, runScheduled, schedule, setReady, wholeRun } from './run.js';
import { SCENARIOS } from './scenarios.js';
import { loadSchema } from './schema.js';

let scenario = null; // the scenario preset last applied, until the user edits the form

/** Opens or folds the form's advanced groups (parallelism, accounting, cost, ...). */
function foldInputGroups(folded) {
  document.querySelectorAll('#inputs details.group-collapsible').forEach(function (d) { d.open = !folded; });
}

/**
 * window.gpuAdvisor (README "Page API"): the handle tests and embedders use. lastRequest is a
 * copy of the request last sent; lastResult the last result the core gave (none for a request it
 * rejected; its levers are put in after the frame that shows it); pending: a run is scheduled, or
 * what the last one changes is not all on the page yet (its levers and the sections off screen,
 * drawn after the frame; the address, written after it).
 */
export const api = {
  get ready() { return isReady(); },
  get pending() { return Boolean(runScheduled() || leversPending() || panelsPending() || hashPending()); },
  runs: 0,
  lastRequest: null,
  lastResult: null,
  lastError: null,
  registerPanel: registerPanel,
  recompute: function () { run(); },
  setLanguage: function (code) { return setLanguage(code); },
  // Every section, and the form's advanced groups (folded until opened, issue 29 item 4).
  expandAll: function () { foldAll(false); foldInputGroups(false); },
  collapseAll: function () { foldAll(true); foldInputGroups(true); },
  applyScenario: function (id) { applyScenario(id); },
  buildReport: function () { return buildReport(); },
  // js/provider.js: a provider's catalog (JSON text) prices every later answer; {provider} | {error}.
  setProvider: function (text) { return setProvider(text); },
  clearProvider: function () { clearProvider(); },
};

onResult(function (r) {
  api.lastRequest = JSON.parse(JSON.stringify(r.request));
  api.lastError = r.error;
  if (!r.error) api.lastResult = r.result;
  api.runs += 1;
});

function exportJson() {
  const r = wholeRun();
  const payload = { request: r.request, result: r.result, error: r.error };
  const blob = new Blob([JSON.stringify(payload, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: 'gpu-advisor-plan.json' });
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  toast(t('toast.exported'));
}

let wantedLang = null; // the language last asked for (its words may still be on their way)

/** Says that a language's words could not be had; the page stays in the one it shows. */
function langUnavailable(e) {
  toast(t('lang.unavailable', { why: String(e && e.message || e) }));
}

/**
 * Switches the language; the address follows unless it is the visitor's (a link typed into it).
 * Resolves once the page is in it: on the site the other language's words are fetched first
 * (i18n.js loadLang), and only the language asked for last is applied.
 */
export function setLanguage(code, fromAddress) {
  if (!isLang(code)) return Promise.resolve();
  wantedLang = code;
  if (!hasLang(code)) {
    return loadLang(code).then(function () {
      if (wantedLang === code) setLanguage(code, fromAddress);
    }, function (e) {
      if (wantedLang === code) langUnavailable(e);
    });
  }
  if (code === lang) return Promise.resolve();
  setLang(code);
  applyStaticStrings();
  if (catalog) populateCatalogInputs();
  labelMonths();
  applyDynamicPlaceholders();
  renderScenarios();
  renderError();
  renderEchoes();
  renderHelp(); // controls a language switch rebuilt (the task radios, the LoRA boxes) are described again
  renderPanels();
  renderProvider();
  renderCard();
  const request = lastRun().request;
  if (request && !fromAddress) { cancelHash(); writeHash(request); }
  return Promise.resolve();
}

/** The scenario chips: one click puts the scenario's request into the form. */
function renderScenarios() {
  const list = document.getElementById('scenario-list');
  if (!list) return;
  clear(list);
  SCENARIOS.forEach(function (sc) {
    list.appendChild(h('button', { type: 'button', class: 'scenario' + (sc.source ? ' source' : '') + (scenario === sc.id ? ' active' : ''),
      'aria-pressed': String(scenario === sc.id), dataset: { scenario: sc.id }, title: t('scenario.' + sc.id + '.sub'),
      onclick: function () { applyScenario(sc.id); } }, t('scenario.' + sc.id)));
  });
}

function applyScenario(id) {
  const sc = SCENARIOS.filter(function (x) { return x.id === id; })[0];
  if (!sc || !isReady()) return;
  resetPanels();
  applyRequest(startRequest());
  applyRequest(JSON.parse(JSON.stringify(sc.request)));
  scenario = id;
  renderPresetFacts();
  renderScenarios();
  document.getElementById('hash-note').hidden = true;
  run();
  toast(t('scenario.applied', { name: t('scenario.' + id) }));
}

/** The form no longer shows the scenario last applied (an edit, a link, a host's request). */
export function userEdited() {
  if (scenario) { scenario = null; renderScenarios(); }
}

function setDrawer(open) {
  document.body.classList.toggle('inputs-open', open);
  document.getElementById('btn-inputs').setAttribute('aria-expanded', String(open));
  document.getElementById('drawer-backdrop').hidden = !open;
  if (open) document.getElementById('inputs').querySelector('input, select, textarea').focus({ preventScroll: true });
}

// What the browser says when a Content-Security-Policy forbids compiling WebAssembly (Chromium:
// "Refused to compile or instantiate WebAssembly module because 'wasm-eval' is not allowed...",
// Firefox: "call to WebAssembly.instantiate() blocked by CSP").
const CSP_REFUSED = /Content Security Policy|CSP|unsafe-eval|wasm-eval|Refused to compile/i;

/**
 * The core did not load: a sentence in the page's language says why and, when the host's
 * policy is the cause, what it must allow; the browser's own words go in a technical-detail
 * fold. The form is disabled (there is nothing to compute with); a pre-rendered answer stays.
 */
function showLoadError(detail) {
  const raw = String(detail || '');
  const banner = document.getElementById('load-error');
  banner.hidden = false;
  document.getElementById('load-error-detail').textContent =
    (CSP_REFUSED.test(raw) ? t('load.csp_blocked') : raw) + ' ' + t(document.getElementById('panel-answer') ? 'load.kept_answer' : 'load.inputs_off');
  const old = banner.querySelector('.tech-detail');
  if (old) old.remove();
  if (CSP_REFUSED.test(raw)) banner.appendChild(h('details', { class: 'tech-detail' }, h('summary', { text: t('help.tech_detail') }), h('code', { lang: 'en', text: raw })));
  document.getElementById('loading').hidden = true;
  // Every control is off, the buttons of the answer and the top bar too (none has a listener
  // without the core); the "?" of each field still opens its help.
  document.querySelectorAll(FORMS.map(function (f) { return f + ' input, ' + f + ' select, ' + f + ' textarea'; }).join(', ') + ', button:not(.help-toggle)')
    .forEach(function (n) { n.disabled = true; });
  document.body.setAttribute('data-state', 'load-error');
}

function wireEvents() {
  FORMS.forEach(function (sel) {
    const form = document.querySelector(sel);
    if (!form) return;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    form.addEventListener('input', function (e) {
      if (e.target.name === 'model_mode') return;
      userEdited();
      schedule();
    });
    form.addEventListener('change', function (e) {
      if (e.target.name === 'model_mode' && e.target.value === 'fields' && !input('m.layers').value) {
        fillFieldsFromPreset();
      }
      if (e.target === presetSelect()) renderPresetFacts();
      const gpu = gpuSelect();
      if (e.target === gpu && !gpu.value) input('hw.count').value = ''; // no GPU: no count (as unpinning)
      if (e.target === gpu) input('hw.power_limit_w').value = ''; // a limit is in one part's watts
      if (e.target.name === 'task') dropChoicesOfOtherTask();
      userEdited();
      updateVisibility();
      schedule();
    });
  });
  document.getElementById('btn-inputs').addEventListener('click', function () { setDrawer(!document.body.classList.contains('inputs-open')); });
  document.getElementById('btn-inputs-close').addEventListener('click', function () { setDrawer(false); });
  document.getElementById('drawer-backdrop').addEventListener('click', function () { setDrawer(false); });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && document.body.classList.contains('inputs-open')) setDrawer(false); });
  document.getElementById('btn-print').addEventListener('click', printReport);
  // The skip link takes focus to the answer card (the results column while there is none) without
  // a fragment in the address, which holds the request.
  document.querySelector('.skip-link').addEventListener('click', function (e) {
    e.preventDefault();
    (document.getElementById('panel-answer') || document.getElementById('results')).focus();
  });
  document.getElementById('btn-fill-from-preset').addEventListener('click', function () {
    fillFieldsFromPreset();
    schedule(0);
  });
  document.querySelectorAll('.lang-btn').forEach(function (b) {
    b.addEventListener('click', function () { setLanguage(b.getAttribute('data-lang')); });
  });
  document.getElementById('btn-share').addEventListener('click', function () {
    shareHash();
    // From file:// the path means nothing to a colleague: copy the fragment, to paste after
    // their own copy of the page or the site's address.
    if (location.protocol === 'file:') copyText(location.hash, t('toast.copied_fragment'), t('toast.copy_failed_fragment'));
    else copyText(shareLink()); // embedded: the standalone page's link
  });
  document.getElementById('btn-export').addEventListener('click', exportJson);
  document.getElementById('btn-reset').addEventListener('click', function () {
    resetPanels();
    scenario = null;
    renderScenarios();
    document.getElementById('hash-note').hidden = true;
    applyRequest(startRequest());
    renderPresetFacts();
    run();
  });
  let resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      const w = Math.max(320, Math.min(1100, panelsWidth() - 36));
      if (Math.abs(w - chartWidth) > 40) renderPanels();
    }, 150);
  });
  window.addEventListener('pagehide', flushHash);
  window.addEventListener('hashchange', function () {
    if (isOwnHash()) return;
    cancelHash(); // the visitor's address wins over the one still to be written
    const fromHash = readHash();
    if (fromHash.lang) setLanguage(fromHash.lang, true);
    if (fromHash.bad) {
      // The page keeps what it shows; the refused link stays in the address (reason shown) until an edit.
      showHashNote(badHashText(fromHash, true), true);
      forgetOwnHash();
      holdAddress(true, lastRun().request);
      return;
    }
    if (fromHash.request) {
      holdAddress(false);
      userEdited();
      applyRequest(fromHash.request);
      renderPresetFacts();
      run();
    }
  });
}

/**
 * The pre-rendered first view (scripts/prerender.cjs): the body shows the default request's
 * answer as the build rendered it; the page as written waits in <template id="pristine-body">.
 * takeOver() puts it back, in the same task that renders the live answer, so nothing flashes.
 * What the visitor typed into the pre-rendered form meanwhile is kept (by element id).
 */
function prerendered() {
  const template = document.getElementById('pristine-body');
  if (!template) return null;
  const typed = Object.create(null);
  const remember = function (e) {
    const t = e.target;
    if (t && t.id && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) typed[t.id] = t.type === 'checkbox' ? { checked: t.checked } : { value: t.value };
  };
  document.addEventListener('input', remember, true);
  document.addEventListener('change', remember, true);
  return {
    takeOver: function () {
      document.removeEventListener('input', remember, true);
      document.removeEventListener('change', remember, true);
      measurePanelsWidth();
      const body = document.body;
      for (const a of Array.from(body.attributes)) body.removeAttribute(a.name);
      const holder = document.createElement('div');
      holder.innerHTML = '<div ' + (template.getAttribute('data-body-attrs') || '') + '></div>';
      for (const a of Array.from(holder.firstChild.attributes)) body.setAttribute(a.name, a.value);
      while (body.firstChild !== template) body.removeChild(body.firstChild);
      body.replaceChild(template.content, template);
      const style = document.getElementById('prerendered-style'); // the snapshot's own rules
      if (style) style.remove();
    },
    reapply: function () {
      let any = false;
      for (const id of Object.keys(typed)) {
        const node = document.getElementById(id);
        if (!node) continue;
        if ('checked' in typed[id]) node.checked = typed[id].checked; else node.value = typed[id].value;
        any = true;
      }
      if (any) { userEdited(); updateVisibility(); }
    },
  };
}

let prepared = false; // the written page is in the body and its form set up

function start() {
  const snapshot = prerendered();
  let fromHash = null;
  const prepare = function () {
    prepared = true;
    buildMonthInputs();
    renderHelp();
    fromHash = readHash();
    if (fromHash.lang) setLang(fromHash.lang);
    applyStaticStrings();
    updateVisibility();
  };
  if (!snapshot) prepare();
  // A link in a language whose words the bundle left out (the site): they load beside the core.
  const linkLang = (fromHash || readHash()).lang;
  const words = linkLang && !hasLang(linkLang) ? loadLang(linkLang).then(function () { return null; }, function (e) { return e; }) : null;
  if (window.requestIdleCallback && moduleFetched()) requestIdleCallback(warmWhileWaiting);
  Promise.all([loadCore(), words]).then(function (ready) {
    const loaded = ready[0];
    const wordsFailed = ready[1];
    if (snapshot) { snapshot.takeOver(); prepare(); }
    if (!snapshot && linkLang && hasLang(linkLang) && lang !== linkLang) { setLang(linkLang); applyStaticStrings(); }
    loadSchema(loaded.catalog);
    populateCatalogInputs();
    applyRequest(startRequest());
    let refused = fromHash.bad;
    if (fromHash.request) {
      try {
        applyRequest(fromHash.request);
        showHashNote(t('hash.restored'), false);
      } catch (e) {
        // A request the form cannot show (the core would reject it anyway): the default page.
        applyRequest(startRequest());
        showHashNote(badHashText({ why: 'not_request' }, false), true);
        refused = true;
      }
    } else if (fromHash.bad) {
      showHashNote(badHashText(fromHash, false), true);
    }
    // An opened link stays in the address, byte for byte, until the user changes something.
    if (location.hash.length > 1) holdAddress(refused);
    if (snapshot) snapshot.reapply();
    renderPresetFacts();
    renderScenarios();
    wireEvents();
    setReady();
    if (wordsFailed) langUnavailable(wordsFailed);
    // A provider catalog on its way (a host's, ?catalog=) prices the first answer: it runs then.
    if (!providerAwaited()) run();
    // The live page's first result (bench/page_bench.cjs reads it beside the pre-rendered one).
    if (window.performance && performance.mark) performance.mark('gpu-advisor:core-ready');
  }).catch(function (e) {
    // The pre-rendered answer (the default request's) stays on screen, with the banner over it;
    // a shared link's page shows the form without it (its answer is not the link's).
    if (snapshot && !prepared && document.body.classList.contains('link-pending')) { snapshot.takeOver(); prepare(); }
    showLoadError(e && e.message || e);
    if (window.console && !(e && e.expected)) console.error(e);
  });
}

/**
 * The number formatters' start-up (js/format.js warmFormatters) in an idle moment while the site
 * fetches its module; the single file and the widget decode their own copy, with no time to spare.
 */
function warmWhileWaiting() {
  if (!isReady()) warmFormatters(); // else the first render has built them
}

/** Starts the page once the document is parsed (js/main.js). */
export function startPage() {
  const safeStart = function () {
    try {
      start();
    } catch (e) {
      showLoadError(e && e.message || e);
      if (window.console) console.error(e);
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', safeStart);
  else safeStart();
}
