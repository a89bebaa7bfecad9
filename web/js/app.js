// SPDX-License-Identifier: MIT
// The page: state, schedule/run, the language switch, start-up. window.gpuAdvisor is the handle
// tests and embedders use.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { applyDynamicPlaceholders, applyRequest, applyStaticStrings, buildMonthInputs, buildRequest,
    callCore, copyText, DEFAULT_LANG, fillFieldsFromPreset, h, input, labelMonths, loadCore, loadSchema,
    populateCatalogInputs, readHash, registerPanel, renderError, renderPanels, renderPresetFacts,
    startRequest, STRINGS, t, toast, updatePlaceholders, updateVisibility, writeHash } = UI;

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
    overrides: {},          // request path -> value typed into the price table (paths with no form input)
    costTab: 'buy',         // which option's line items the cost panel shows
    onlyConfirm: false,     // price table: only the entries that need confirmation
    dynamicPlaceholders: {}, // request path -> value the core used, as shown in a blank box's placeholder
    resolvedInputs: {},     // result.resolved_inputs of the last result
  });

  // The handle tests and embedders use. lastRequest is a copy of the request last sent.
  const api = {
    ready: false,
    pending: false,
    runs: 0,
    lastRequest: null,
    lastResult: null,
    lastError: null,
    registerPanel: registerPanel,
    recompute: function () { run(); },
    setLanguage: function (lang) { setLanguage(lang); },
  };
  window.gpuAdvisor = api;

  function schedule(delay) {
    clearTimeout(state.timer);
    api.pending = true;
    state.timer = setTimeout(run, delay === undefined ? DEBOUNCE_MS : delay);
  }

  function run() {
    clearTimeout(state.timer);
    api.pending = false;
    if (!api.ready) return;
    updateVisibility();
    const request = buildRequest();
    const answer = callCore(request);
    state.lastRequest = request;
    api.lastRequest = JSON.parse(JSON.stringify(request));
    if (answer.error) {
      state.lastError = answer.error;
      api.lastError = answer.error;
      renderError();
    } else {
      const result = answer.result;
      state.lastError = null;
      api.lastError = null;
      state.lastResult = result;
      api.lastResult = result;
      updatePlaceholders(result);
      renderError();
      renderPanels();
    }
    writeHash(request);
    api.runs += 1;
    document.body.setAttribute('data-state', state.lastError ? 'error' : 'ready');
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

  function setLanguage(lang) {
    if (!STRINGS[lang] || lang === state.lang) return;
    state.lang = lang;
    applyStaticStrings();
    if (state.catalog) populateCatalogInputs();
    labelMonths();
    applyDynamicPlaceholders();
    renderError();
    renderPanels();
    if (state.lastRequest) writeHash(state.lastRequest);
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

  function wireEvents() {
    el.form.addEventListener('submit', function (e) { e.preventDefault(); });
    el.form.addEventListener('input', function (e) {
      if (e.target.name === 'model_mode') return;
      schedule();
    });
    el.form.addEventListener('change', function (e) {
      if (e.target.name === 'model_mode' && e.target.value === 'fields' && !input('m.layers').value) {
        fillFieldsFromPreset();
      }
      if (e.target === el.preset) renderPresetFacts();
      updateVisibility();
      schedule();
    });
    document.getElementById('btn-fill-from-preset').addEventListener('click', function () {
      fillFieldsFromPreset();
      schedule(0);
    });
    document.querySelectorAll('.lang-btn').forEach(function (b) {
      b.addEventListener('click', function () { setLanguage(b.getAttribute('data-lang')); });
    });
    document.getElementById('btn-share').addEventListener('click', function () {
      writeHash(state.lastRequest);
      copyText(location.href);
    });
    document.getElementById('btn-export').addEventListener('click', exportJson);
    document.getElementById('btn-reset').addEventListener('click', function () {
      state.sort = { key: null, dir: 1 };
      el.hashNote.hidden = true;
      applyRequest(startRequest());
      renderPresetFacts();
      run();
    });
    let resizeTimer = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        const w = Math.max(560, Math.min(1100, (el.panels.clientWidth || 800) - 36));
        if (Math.abs(w - (state.chartWidth || 0)) > 40) renderPanels();
      }, 150);
    });
    window.addEventListener('hashchange', function () {
      if (location.hash === state.ownHash) return;
      const fromHash = readHash();
      if (fromHash.lang) setLanguage(fromHash.lang);
      if (fromHash.request) { applyRequest(fromHash.request); renderPresetFacts(); run(); }
    });
  }

  function start() {
    collectElements();
    buildMonthInputs();
    const fromHash = readHash();
    if (fromHash.lang) state.lang = fromHash.lang;
    applyStaticStrings();
    updateVisibility();
    loadCore().then(function (loaded) {
      state.catalog = loaded.catalog;
      state.defaults = loaded.catalog.default_request;
      state.apiVersion = loaded.apiVersion;
      loadSchema(loaded.catalog);
      populateCatalogInputs();
      applyRequest(startRequest());
      if (fromHash.request) {
        applyRequest(fromHash.request);
        el.hashNote.textContent = t('hash.restored');
        el.hashNote.hidden = false;
        setTimeout(function () { el.hashNote.hidden = true; }, 4000);
      } else if (fromHash.bad) {
        el.hashNote.textContent = t('hash.invalid');
        el.hashNote.hidden = false;
      }
      renderPresetFacts();
      wireEvents();
      api.ready = true;
      run();
    }).catch(function (e) {
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
