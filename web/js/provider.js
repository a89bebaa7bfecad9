// SPDX-License-Identifier: MIT
// A provider catalog (issue 10 item 2; data/provider.schema.json): setProvider(text) checks it
// in the core (validateProvider) and, once accepted, every later call uses adviseWithProvider;
// clearProvider() goes back to the neutral defaults. A banner at the top of the results says
// whose prices the answer uses. ?catalog=<same-origin URL> loads one at start. Everything the
// provider wrote is shown with textContent (h(..., {text})), never as HTML.
import { coreReady, findGpu, gpuName, useProvider, validateProvider } from './core.js';
import { clear, h, toast } from './dom.js';
import { parseUntrustedJson } from './hash.js';
import { hasString, t } from './i18n.js';
import { setProviderGpus } from './inputs.js';
import { isReady, lastRun, onResult, run } from './run.js';

// How long ?catalog waits for the core to load before it gives up (core.js waits 20 s).
const READY_WAIT_MS = 30000;
const READY_POLL_MS = 50;

let provider = null; // {text, summary, gpus} of the accepted document

// A catalog on its way (a host's set-provider, ?catalog=): the page's first answer waits for it,
// so that no neutral price is ever shown in the provider's page (issue 29 item 1). Released when
// the catalog is accepted or refused, or after PROVIDER_WAIT_MS (then the neutral defaults).
const PROVIDER_WAIT_MS = 10000;
let awaited = null; // the release timer while waiting

/** The first answer waits for a provider catalog (js/embed.js, ?catalog=); call before the core loads. */
export function awaitProvider() {
  if (awaited !== null || provider) return;
  awaited = setTimeout(releaseProvider, PROVIDER_WAIT_MS);
  // The pre-rendered first view carries neutral prices: hidden until the live answer. js/early.js
  // has set this class already, before the first paint; style.css hides the pre-rendered panels.
  document.documentElement.classList.add('provider-wait');
}

function stopWaiting() {
  clearTimeout(awaited);
  awaited = null;
  document.documentElement.classList.remove('provider-wait');
}

/** A GPU's name: the provider's own part's (its document), else the built-in catalog's, else the id. */
export function providerGpuName(id) {
  const g = provider && provider.gpus[id];
  return g ? g.name : gpuName(id);
}

/** Whether the first answer still waits for a catalog (js/app.js holds its first run). */
export function providerAwaited() { return awaited !== null; }

/** Stops waiting (no catalog is coming, or it was refused): the page answers with what it has. */
export function releaseProvider() {
  if (awaited === null) return;
  stopWaiting();
  recompute();
}

/** The ids in `list` (a summary's or result's gpus_added / gpus_replaced); missing is empty (an older core). */
function ids(list) {
  return Array.isArray(list) ? list.filter(function (x) { return typeof x === 'string'; }) : [];
}

/** id -> {name, memory_gib} of the GPUs the provider's document describes (for the picker's labels). */
function describedGpus(text) {
  const parsed = parseUntrustedJson(text);
  const out = Object.create(null);
  const gpus = parsed.value && Array.isArray(parsed.value.gpus) ? parsed.value.gpus : [];
  gpus.forEach(function (g) {
    if (g && typeof g.id === 'string' && typeof g.name === 'string' && typeof g.memory_gib === 'number') {
      out[g.id] = { name: g.name, memory_gib: g.memory_gib };
    }
  });
  return out;
}

/**
 * The provider's own GPUs for the picker: gpus_added of its summary and of the last result's
 * provider block, labelled from its document ({id, name, memory_gib}; name null when it has none).
 */
function providerGpus() {
  const p = provider;
  if (!p) return [];
  const result = resultProvider();
  const all = ids(p.summary.gpus_added).concat(ids(result && result.gpus_added));
  return all.filter(function (id, i) { return all.indexOf(id) === i; }).map(function (id) {
    const g = p.gpus[id];
    return { id: id, name: g ? g.name : null, memory_gib: g ? g.memory_gib : null };
  });
}

/** The GPU picker lists the provider's own GPUs (js/inputs.js refills it when they change). */
function syncGpuList() {
  setProviderGpus(providerGpus(), provider ? provider.summary.name : '');
}

/** The provider block of the result on screen (none under the neutral defaults). */
function resultProvider() {
  const r = lastRun().result;
  return r && r.provider;
}

/** Built-in GPUs whose specs the provider's own entries replace, by name (gpus_replaced). */
function replacedNames() {
  const result = resultProvider();
  const all = ids(provider.summary.gpus_replaced).concat(ids(result && result.gpus_replaced));
  return all.filter(function (id, i) { return all.indexOf(id) === i; }).map(function (id) {
    const g = findGpu(id);
    return g && g.name ? String(g.name) : id;
  });
}

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
  if (isReady()) run();
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
export function renderProvider() {
  const node = banner();
  if (!node) return;
  clear(node);
  const p = provider;
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
  const result = resultProvider();
  if (result && result.recommended_offer !== null && result.recommended_offer !== undefined) {
    const used = (result.offers_used || []).filter(function (o) { return o.offer === result.recommended_offer; })[0];
    if (used) {
      facts.push(t('provider.offer_used', { offer: used.offer + 1, gpu: used.gpu,
        availability: t('provider.availability.' + used.availability),
        days: used.lead_time_days === null ? '—' : used.lead_time_days }) + (used.region ? ' · ' + used.region : ''));
    }
  }
  node.appendChild(h('p', { class: 'provider-facts', text: facts.join(' ') }));
  // A provider entry with a built-in id replaces that part's specs: said, never silent (issue 23 item 6).
  const replaced = replacedNames();
  if (replaced.length) {
    node.appendChild(h('p', { class: 'provider-replaced', text: t('provider.replaced', { gpus: replaced.join(t('provider.list_sep')) }) }));
  }
  if (s.url) node.appendChild(h('p', { class: 'provider-url muted', text: s.url }));
  node.hidden = false;
}

/** Runs `fn` once the page has its core and first answer (gives up after READY_WAIT_MS). */
function whenReady(fn) {
  const started = Date.now();
  (function wait() {
    if (isReady() && coreReady()) fn();
    else if (Date.now() - started < READY_WAIT_MS) setTimeout(wait, READY_POLL_MS);
  })();
}

/**
 * Checks `text` in the core; on success the provider prices every later answer.
 * Returns {provider: summary}, {error: {code, message, path}} (the banner shows the error), or
 * {pending: true} before the core has loaded (then later(outcome) is called once it is applied).
 */
export function setProvider(text, later) {
  if (!coreReady()) {
    // Before the core has loaded (a host that sends its catalog at once): applied when it has;
    // later(outcome), if given, hears how it went ({provider} or {error}).
    whenReady(function () {
      const out = setProvider(text);
      if (later) later(out);
    });
    return { pending: true };
  }
  const answer = validateProvider(String(text));
  if (answer.error) {
    releaseProvider(); // the answer, with the neutral prices; then the banner says why
    showError(answer.error);
    return { error: answer.error };
  }
  provider = { text: String(text), summary: answer.result.provider, gpus: describedGpus(String(text)) };
  useProvider(provider.text);
  syncGpuList();
  renderProvider();
  if (awaited !== null) stopWaiting();
  recompute();
  return { provider: answer.result.provider };
}

export function clearProvider() {
  if (!provider) return;
  provider = null;
  useProvider(null);
  syncGpuList();
  renderProvider();
  recompute();
  toast(t('provider.cleared'));
}

/** ?catalog=<URL>: fetched only from this page's own origin. */
export function loadFromQuery() {
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
    document.documentElement.classList.remove('provider-wait'); // js/early.js: no catalog is coming
    whenReady(function () {
      releaseProvider();
      showError({ code: 'cross_origin', message: '', path: '' }, t('provider.cross_origin', { url: param }));
    });
    return;
  }
  awaitProvider();
  fetch(url.href, { mode: 'same-origin', credentials: 'same-origin', redirect: 'error' })
    .then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.text();
    })
    .then(function (text) {
      whenReady(function () { setProvider(text); });
    }, function (e) {
      whenReady(function () {
        releaseProvider();
        showError({ code: 'fetch_failed', message: String(e && e.message || e), path: '' },
          t('provider.fetch_failed', { url: url.href }));
      });
    });
}

// After every run: the picker and the banner follow the result's provider block.
onResult(function () {
  syncGpuList();
  renderProvider();
});


