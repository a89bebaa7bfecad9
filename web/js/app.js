// SPDX-License-Identifier: MIT
// The page: state, schedule/run, the language switch, start-up. window.gpuAdvisor is the handle
// tests and embedders use.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { applyDynamicPlaceholders, applyRequest, applyStaticStrings, buildMonthInputs, buildRequest,
    callCore, clear, copyText, DEFAULT_LANG, fillFieldsFromPreset, foldAll, FORMS, h, input, labelMonths, loadCore, loadSchema,
    populateCatalogInputs, readHash, registerPanel, renderError, renderPanels, renderPresetFacts, SCENARIOS,
    startRequest, STRINGS, t, toast, updatePlaceholders, updateVisibility, writeHash } = UI;
  const { badHashText, cancelHash, flushHash, hashPending, holdAddress, shareHash, showHashNote, writeHashSoon } = UI;

  const DEBOUNCE_MS = 30;

  Object.assign(state, {
    lang: DEFAULT_LANG,
    catalog: null,
    defaults: null,
    lastRequest: null,
    lastResult: null,
    lastError: null,
    timer: null,
    ownHash: '',
    sort: { key: null, dir: 1 },
    overrides: Object.create(null), // request path -> value typed into the price table (paths with no form input)
    scenario: null,         // the scenario preset last applied, until the user edits the form
    compare: null,          // keys of the plans in the side-by-side comparison (null: the first three)
    costTab: 'buy',         // which option's line items the cost panel shows
    onlyConfirm: false,     // price table: only the entries that need confirmation
    dynamicPlaceholders: {}, // request path -> value the core used, as shown in a blank box's placeholder
    resolvedInputs: {},     // result.resolved_inputs of the last result
  });

  // The handle tests and embedders use. lastRequest is a copy of the request last sent.
  const api = {
    ready: false,
    runs: 0,
    lastRequest: null,
    lastResult: null,
    lastError: null,
    registerPanel: registerPanel,
    recompute: function () { run(); },
    setLanguage: function (lang) { setLanguage(lang); },
    expandAll: function () { foldAll(false); },
    collapseAll: function () { foldAll(true); },
    applyScenario: function (id) { applyScenario(id); },
    buildReport: function () { return UI.buildReport(true); },
    // js/provider.js: a provider's catalog (JSON text) prices every later answer; {provider} | {error}.
    setProvider: function (text) { return UI.setProvider(text); },
    clearProvider: function () { UI.clearProvider(); },
  };
  // pending: a run is scheduled, or what the last one changes is not all on the page yet (the
  // sections off screen, drawn after the frame; the address, written after it).
  Object.defineProperty(api, 'pending', { enumerable: true, get: function () {
    return Boolean(state.runScheduled || UI.panelsPending() || hashPending());
  } });
  window.gpuAdvisor = api;

  function schedule(delay) {
    clearTimeout(state.timer);
    state.runScheduled = true;
    state.timer = setTimeout(run, delay === undefined ? DEBOUNCE_MS : delay);
  }

  function run() {
    clearTimeout(state.timer);
    state.runScheduled = false;
    if (!api.ready) return;
    const timing = UI.timing;
    let t0 = timing.now();
    updateVisibility();
    const request = buildRequest();
    t0 = timing.mark('form', t0);
    const answer = callCore(request);
    t0 = timing.mark('core', t0);
    state.lastRequest = request;
    api.lastRequest = JSON.parse(JSON.stringify(request));
    if (answer.error) {
      state.lastError = answer.error;
      api.lastError = answer.error;
      // Never an empty page: with no earlier result (a shared link the core rejects), the default
      // request's result is shown under the error, dimmed, and the banner says so.
      if (!state.lastResult && state.defaults) {
        const fallback = callCore(startRequest());
        if (fallback.result) {
          state.lastResult = fallback.result;
          state.resultIsDefault = true;
          renderPanels();
        }
      }
      renderError();
    } else {
      state.resultIsDefault = false;
      const result = answer.result;
      state.lastError = null;
      api.lastError = null;
      state.lastResult = result;
      api.lastResult = result;
      updatePlaceholders(result);
      renderError();
      t0 = timing.mark('form', t0);
      renderPanels({ defer: true });
    }
    t0 = timing.now();
    writeHashSoon();
    api.runs += 1;
    const dataState = state.lastError ? 'error' : 'ready';
    if (document.body.getAttribute('data-state') !== dataState) document.body.setAttribute('data-state', dataState);
    if (UI.providerAfterRun) UI.providerAfterRun(); // js/provider.js: the provider banner
    if (UI.embedAfterRun) UI.embedAfterRun(); // js/embed.js: ready, result and error messages to a host
    timing.mark('other', t0);
  }

  function exportJson() {
    const payload = { request: state.lastRequest, result: state.lastResult, error: state.lastError };
    const blob = new Blob([JSON.stringify(payload, null, 2)], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: 'gpu-advisor-plan.json' });
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    toast(t('toast.exported'));
  }

  /** Switches the language; the address follows unless it is the visitor's (a link typed into it). */
  function setLanguage(lang, fromAddress) {
    if (!Object.prototype.hasOwnProperty.call(STRINGS, lang) || lang === state.lang) return;
    state.lang = lang;
    applyStaticStrings();
    if (state.catalog) populateCatalogInputs();
    labelMonths();
    applyDynamicPlaceholders();
    renderScenarios();
    renderError();
    renderPanels();
    if (UI.renderProvider) UI.renderProvider();
    if (state.lastRequest && !fromAddress) { cancelHash(); writeHash(state.lastRequest); }
  }

  /** The scenario chips: one click puts the scenario's request into the form. */
  function renderScenarios() {
    const list = document.getElementById('scenario-list');
    if (!list) return;
    clear(list);
    SCENARIOS.forEach(function (sc) {
      list.appendChild(h('button', { type: 'button', class: 'scenario' + (sc.source ? ' source' : '') + (state.scenario === sc.id ? ' active' : ''),
        'aria-pressed': String(state.scenario === sc.id), dataset: { scenario: sc.id }, title: t('scenario.' + sc.id + '.sub'),
        onclick: function () { applyScenario(sc.id); } }, t('scenario.' + sc.id)));
    });
  }

  function applyScenario(id) {
    const sc = SCENARIOS.filter(function (x) { return x.id === id; })[0];
    if (!sc || !api.ready) return;
    state.sort = { key: null, dir: 1 };
    state.compare = null;
    applyRequest(startRequest());
    applyRequest(JSON.parse(JSON.stringify(sc.request)));
    state.scenario = id;
    renderPresetFacts();
    renderScenarios();
    el.hashNote.hidden = true;
    run();
    toast(t('scenario.applied', { name: t('scenario.' + id) }));
  }

  function setDrawer(open) {
    document.body.classList.toggle('inputs-open', open);
    document.getElementById('btn-inputs').setAttribute('aria-expanded', String(open));
    document.getElementById('drawer-backdrop').hidden = !open;
    if (open) el.form.querySelector('input, select, textarea').focus({ preventScroll: true });
  }

  function showLoadError(detail) {
    el.loadError.hidden = false;
    el.loadErrorDetail.textContent = String(detail || '');
    el.loading.hidden = true;
    document.body.setAttribute('data-state', 'load-error');
  }

  function collectElements() {
    el.form = document.getElementById('inputs');
    el.preset = document.getElementById('in-preset');
    el.presetFacts = document.getElementById('preset-facts');
    el.hf = document.getElementById('in-hf');
    el.gpu = document.getElementById('in-gpu');
    el.loraChecks = document.getElementById('lora-target-checks');
    el.moeDetails = document.getElementById('moe-details');
    el.panels = document.getElementById('panels');
    el.errorBanner = document.getElementById('error-banner');
    el.hashNote = document.getElementById('hash-note');
    el.loading = document.getElementById('loading');
    el.loadError = document.getElementById('load-error');
    el.loadErrorDetail = document.getElementById('load-error-detail');
    el.catalogDates = document.getElementById('catalog-dates');
    el.apiVersion = document.getElementById('api-version');
    el.toast = document.getElementById('toast');
    el.months = document.getElementById('monthly-demand');
  }

  function userEdited() {
    if (state.scenario) { state.scenario = null; renderScenarios(); }
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
        if (e.target === el.preset) renderPresetFacts();
        if (e.target === el.gpu && !el.gpu.value) input('hw.count').value = ''; // no GPU: no count (as unpinning)
        if (e.target.name === 'task') UI.dropChoicesOfOtherTask();
        userEdited();
        updateVisibility();
        schedule();
      });
    });
    document.getElementById('btn-inputs').addEventListener('click', function () { setDrawer(!document.body.classList.contains('inputs-open')); });
    document.getElementById('btn-inputs-close').addEventListener('click', function () { setDrawer(false); });
    document.getElementById('drawer-backdrop').addEventListener('click', function () { setDrawer(false); });
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && document.body.classList.contains('inputs-open')) setDrawer(false); });
    document.getElementById('btn-print').addEventListener('click', function () { UI.printReport(); });
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
      else copyText(UI.shareLink ? UI.shareLink() : location.href); // embedded: the standalone page's link (js/embed.js)
    });
    document.getElementById('btn-export').addEventListener('click', exportJson);
    document.getElementById('btn-reset').addEventListener('click', function () {
      state.sort = { key: null, dir: 1 };
      state.compare = null;
      state.scenario = null;
      renderScenarios();
      el.hashNote.hidden = true;
      applyRequest(startRequest());
      renderPresetFacts();
      run();
    });
    let resizeTimer = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        const w = Math.max(320, Math.min(1100, UI.panelsWidth() - 36));
        if (Math.abs(w - (state.chartWidth || 0)) > 40) renderPanels();
      }, 150);
    });
    window.addEventListener('pagehide', flushHash);
    window.addEventListener('hashchange', function () {
      if (location.hash === state.ownHash) return;
      cancelHash(); // the visitor's address wins over the one still to be written
      const fromHash = readHash();
      if (fromHash.lang) setLanguage(fromHash.lang, true);
      if (fromHash.bad) {
        // The page keeps what it shows; the refused link stays in the address (reason shown) until an edit.
        showHashNote(badHashText(fromHash, true), true);
        state.ownHash = '';
        holdAddress(true, state.lastRequest);
        return;
      }
      if (fromHash.request) {
        holdAddress(false);
        state.scenario = null;
        renderScenarios();
        applyRequest(fromHash.request);
        renderPresetFacts();
        run();
      }
    });
    document.querySelector('.skip-link').addEventListener('click', function (e) {
      e.preventDefault();
      document.getElementById('results').focus();
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

  function start() {
    const snapshot = prerendered();
    let fromHash = null;
    const prepare = function () {
      collectElements();
      buildMonthInputs();
      fromHash = readHash();
      if (fromHash.lang) state.lang = fromHash.lang;
      applyStaticStrings();
      updateVisibility();
    };
    if (!snapshot) prepare();
    loadCore().then(function (loaded) {
      if (snapshot) { snapshot.takeOver(); prepare(); }
      state.catalog = loaded.catalog;
      state.defaults = loaded.catalog.default_request;
      state.apiVersion = loaded.apiVersion;
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
      api.ready = true;
      run();
      // The live page's first result (bench/page_bench.cjs reads it beside the pre-rendered one).
      if (window.performance && performance.mark) performance.mark('gpu-advisor:core-ready');
    }).catch(function (e) {
      if (snapshot && !el.loadError) { snapshot.takeOver(); prepare(); }
      showLoadError(e && e.message || e);
      if (window.console && !(e && e.expected)) console.error(e);
    });
  }

  function safeStart() {
    try {
      start();
    } catch (e) {
      if (!el.loadError) collectElements();
      showLoadError(e && e.message || e);
      if (window.console) console.error(e);
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', safeStart);
  else safeStart();

  Object.assign(UI, { schedule, run });
})();
