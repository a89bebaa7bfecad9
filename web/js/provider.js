// SPDX-License-Identifier: MIT
// A provider catalog (issue 10 item 2; data/provider.schema.json): UI.setProvider(text) checks it
// in the core (validateProvider) and, once accepted, every later call uses adviseWithProvider;
// UI.clearProvider() goes back to the neutral defaults. A banner at the top of the results says
// whose prices the answer uses. ?catalog=<same-origin URL> loads one at start. Everything the
// provider wrote is shown with textContent (h(..., {text})), never as HTML.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const { clear, h, hasString, t } = UI;
  // How long ?catalog waits for the core to load before it gives up (core.js waits 20 s).
  const READY_WAIT_MS = 30000;
  const READY_POLL_MS = 50;

  state.provider = null; // {text, summary} of the accepted document

  function banner() {
    let node = document.getElementById('provider-banner');
    if (!node) {
      const results = document.getElementById('results');
      if (!results) return null;
      node = h('div', { id: 'provider-banner', class: 'banner banner-provider', hidden: true });
      results.insertBefore(node, results.firstChild);
    }
    return node;
  }

  function recompute() {
    const api = window.gpuAdvisor;
    if (api && api.ready) api.recompute();
  }

  /** A located error from the core (or the loader), as text: what, where, the core's sentence. */
  function showError(err, title) {
    const node = banner();
    if (!node) return;
    clear(node);
    node.className = 'banner banner-error banner-provider';
    node.setAttribute('role', 'alert');
    node.appendChild(h('div', { class: 'banner-head' },
      h('strong', { text: title || t('provider.invalid') }),
      err.code ? h('span', { class: 'code', text: String(err.code) }) : null));
    if (err.code && hasString('error.' + err.code)) node.appendChild(h('p', { text: t('error.' + err.code) }));
    if (err.path) node.appendChild(h('p', null, h('code', { class: 'error-path', text: String(err.path) })));
    if (err.message) node.appendChild(h('p', { class: 'provider-error-message', lang: 'en', text: String(err.message) }));
    node.appendChild(h('button', { type: 'button', class: 'link-btn small', text: t('hash.dismiss'),
      onclick: function () { renderProvider(); } }));
    node.hidden = false;
  }

  /** The banner for the accepted provider, with the offer behind the answer when there is one. */
  function renderProvider() {
    const node = banner();
    if (!node) return;
    clear(node);
    const p = state.provider;
    if (!p) {
      node.hidden = true;
      return;
    }
    const s = p.summary;
    node.className = 'banner banner-provider';
    node.setAttribute('role', 'status');
    node.appendChild(h('div', { class: 'banner-head' },
      h('strong', { class: 'provider-title', text: t('provider.banner', { name: s.name, date: s.as_of }) }),
      h('button', { type: 'button', class: 'btn btn-small provider-clear', text: t('provider.use_neutral'),
        onclick: function () { clearProvider(); } })));
    const facts = [t('provider.rentals_only')];
    const result = state.lastResult && state.lastResult.provider;
    if (result && result.recommended_offer !== null && result.recommended_offer !== undefined) {
      const used = (result.offers_used || []).filter(function (o) { return o.offer === result.recommended_offer; })[0];
      if (used) {
        facts.push(t('provider.offer_used', { offer: used.offer + 1, gpu: used.gpu,
          availability: t('provider.availability.' + used.availability),
          days: used.lead_time_days === null ? '—' : used.lead_time_days }) + (used.region ? ' · ' + used.region : ''));
      }
    }
    node.appendChild(h('p', { class: 'provider-facts', text: facts.join(' ') }));
    if (s.url) node.appendChild(h('p', { class: 'provider-url muted', text: s.url }));
    node.hidden = false;
  }

  /** Runs `fn` once the page has its core and first answer (gives up after READY_WAIT_MS). */
  function whenReady(fn) {
    const started = Date.now();
    (function wait() {
      const api = window.gpuAdvisor;
      if (api && api.ready && UI.coreReady && UI.coreReady()) fn();
      else if (Date.now() - started < READY_WAIT_MS) setTimeout(wait, READY_POLL_MS);
    })();
  }

  /**
   * Checks `text` in the core; on success the provider prices every later answer.
   * Returns {provider: summary}, {error: {code, message, path}} (the banner shows the error), or
   * {pending: true} before the core has loaded.
   */
  function setProvider(text) {
    if (!UI.coreReady || !UI.coreReady()) {
      // Before the core has loaded (a host that sends its catalog at once): applied when it has.
      whenReady(function () { setProvider(text); });
      return { pending: true };
    }
    const answer = UI.validateProvider(String(text));
    if (answer.error) {
      showError(answer.error);
      return { error: answer.error };
    }
    state.provider = { text: String(text), summary: answer.result.provider };
    renderProvider();
    recompute();
    return { provider: answer.result.provider };
  }

  function clearProvider() {
    if (!state.provider) return;
    state.provider = null;
    renderProvider();
    recompute();
    if (UI.toast) UI.toast(t('provider.cleared'));
  }

  /** ?catalog=<URL>: fetched only from this page's own origin. */
  function loadFromQuery() {
    const param = new URLSearchParams(location.search).get('catalog');
    if (!param) return;
    let url;
    try {
      url = new URL(param, location.href);
    } catch (e) {
      url = null;
    }
    if (!url || url.origin !== location.origin || location.origin === 'null' ||
        !/^https?:$/.test(url.protocol)) {
      whenReady(function () {
        showError({ code: 'cross_origin', message: '', path: '' }, t('provider.cross_origin', { url: param }));
      });
      return;
    }
    fetch(url.href, { mode: 'same-origin', credentials: 'same-origin', redirect: 'error' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.text();
      })
      .then(function (text) {
        whenReady(function () { setProvider(text); });
      }, function (e) {
        whenReady(function () {
          showError({ code: 'fetch_failed', message: String(e && e.message || e), path: '' },
            t('provider.fetch_failed', { url: url.href }));
        });
      });
  }

  Object.assign(UI, { setProvider, clearProvider, renderProvider, providerAfterRun: renderProvider });
  loadFromQuery();
})();
