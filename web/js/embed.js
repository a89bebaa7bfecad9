// SPDX-License-Identifier: MIT
// The page inside someone else's page (issue 10 item 1): the postMessage API for a host that
// puts the advisor in an <iframe> (the <gpu-advisor> widget, web/widget/gpu-advisor.js, does
// exactly that), the theme a host sets, and the content height the frame reports.
//
// Messages the page accepts, only from window.parent and only from the embedder's origin:
//   {type:'gpu-advisor:set-request', request}   the request (a partial one is laid over the defaults);
//                                               a burst is coalesced: the last one before a frame wins
//   {type:'gpu-advisor:get-result', id}         answered by a result or error message with the same id,
//                                               with the state after the latest set-request
//   {type:'gpu-advisor:set-provider', catalog}  the provider catalog as JSON text (or an object);
//                                               accepted before ready too; catalog null: none is
//                                               coming (the first answer stops waiting for it)
//   {type:'gpu-advisor:set-theme', theme}       {accent, font, bg, text, logo}: CSS values
//   {type:'gpu-advisor:set-lang', lang}         'zh-CN' | 'en'
// Messages the page posts to window.parent:
//   {type:'gpu-advisor:loading'}                the page listens (before the core has loaded): a
//                                               host may send its catalog now
//   {type:'gpu-advisor:ready', version, lang}   the core is loaded and the first result shown
//   {type:'gpu-advisor:result', request, result[, id]}
//   {type:'gpu-advisor:error', error:{code, message, path?}[, id]}
//   {type:'gpu-advisor:resize', height}         the content height in CSS pixels
// Origin policy: the embedder's origin is the `origin` query parameter of the page's URL
// (?embed=1&origin=https://shop.example, which the widget sets), or else the origin of the first
// message from window.parent. Messages from any other origin or window are ignored; results go
// to that origin only, never to '*'. Before an origin is known only `loading`, `ready` and `resize` (no
// user data) go out with '*'. A parent with an opaque origin ("null": a file:// page) is
// accepted only when this page is itself a local file.
// Modes and chrome (js/mode.js): ?embed=card shows the compact card (js/card.js); ?chrome=
// brand,tools,notice brings back parts of the application's chrome, hidden in every embed mode.
// ?provider=wait: a catalog is on its way (the widget says so when it has one); the first answer
// waits for it (js/provider.js), so no neutral price is painted first.
import { setLanguage, userEdited } from './app.js';
import { apiVersion } from './core.js';
import { afterFrame } from './dom.js';
import { applyRequest, SCHEMA_VERSION, startRequest } from './form.js';
import { setCardLogo } from './card.js';
import { parseUntrustedJson } from './hash.js';
import { renderPresetFacts } from './inputs.js';
import { CARD, CHROME_PARTS, EMBED, showsChrome } from './mode.js';
import { awaitProvider, releaseProvider, setProvider } from './provider.js';
import { expectRun, isReady, lastRun, leversPending, onLevers, onResult, run, runScheduled } from './run.js';

const PREFIX = 'gpu-advisor:';
const params = new URLSearchParams(location.search);
const framed = window.parent !== window;
// Theme keys a host may set, and the page's CSS custom property each one drives.
const THEME = { accent: '--accent', font: '--font', bg: '--bg', text: '--ink' };
const COLOUR_KEYS = ['accent', 'bg', 'text'];
// A logo is drawn from a data: URL (the frame loads nothing from the network); the widget turns
// a same-origin URL into one. Larger images are refused: a logo is a few KiB.
const LOGO_MAX_CHARS = 512 * 1024;
const LOGO_TYPES = /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i;

let origin = validOrigin(params.get('origin'));
let readySent = false;
let lastHeight = 0;
const waiting = []; // get-result ids asked while a run was pending
let queued = null;  // the latest set-request's request, applied after the next frame (issue 23 item 7)

/** An http(s) origin as URL.origin writes it, or null. */
function validOrigin(text) {
  if (!text) return null;
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === text.replace(/\/$/, '') ? u.origin : null;
  } catch (e) {
    return null;
  }
}

function post(message, anyone) {
  if (!framed) return;
  const target = origin === 'null' ? '*' : origin || (anyone ? '*' : null);
  if (!target) return;
  try { window.parent.postMessage(message, target); } catch (e) { /* the parent went away */ }
}

function errorOf(code, message, path) {
  const e = { code: code, message: String(message || code) };
  if (path) e.path = path;
  return e;
}

function postError(error, id) {
  const m = { type: PREFIX + 'error', error: error };
  if (id !== undefined) m.id = id;
  post(m);
}

function postState(id) {
  const r = lastRun();
  if (r.error) {
    const e = r.error;
    postError(errorOf(e.code || 'invalid_request', e.message, e.path), id);
    return;
  }
  const m = { type: PREFIX + 'result', request: r.request, result: r.result };
  if (id !== undefined) m.id = id;
  post(m);
}

/**
 * After every run, once its result is whole (the levers follow the frame that shows the answer:
 * a host gets them in the same message): the first one makes the page ready.
 */
function afterRun(r) {
  if (!r.error && leversPending()) return; // onLevers brings it back
  if (!readySent) {
    readySent = true;
    post({ type: PREFIX + 'ready', version: apiVersion || null, lang: document.documentElement.lang }, true);
  }
  postState();
  // A get-result waits for the set-request still queued (a run between, e.g. a provider's, is not its answer).
  while (waiting.length && queued === null) postState(waiting.shift());
  if (!window.ResizeObserver) reportHeight(); // else the observer reports, after the layout the browser does anyway
}

/**
 * A set-request: checked now (an unreadable one is answered at once and changes nothing), then
 * queued. 200 messages in a row used to cost 200 form fills and runs (18 s of a frozen frame);
 * now the last one before a frame is put into the form and run, once.
 */
function setRequest(request) {
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    postError(errorOf('not_request', 'set-request needs a request object', '/'));
    return;
  }
  // Through JSON and the page's untrusted-JSON reader: no prototype keys, bounded size and depth.
  let text;
  try { text = JSON.stringify(request); } catch (e) { text = null; }
  const parsed = parseUntrustedJson(text);
  if (parsed.why) {
    postError(errorOf(parsed.why, 'set-request: the request cannot be read (' + parsed.why + ')', parsed.key ? '/' + parsed.key : '/'));
    return;
  }
  if (parsed.value.schema !== undefined && parsed.value.schema !== SCHEMA_VERSION) {
    postError(errorOf('schema', 'set-request: this page reads requests of schema ' + SCHEMA_VERSION, '/schema'));
    return;
  }
  const first = queued === null;
  queued = parsed.value;
  expectRun(); // window.gpuAdvisor.pending, and get-result waits for the run
  if (first) afterFrame(applyQueued);
}

function applyQueued() {
  const request = queued;
  queued = null;
  if (request === null) return;
  userEdited();
  applyRequest(startRequest());
  try {
    applyRequest(request);
  } catch (e) {
    applyRequest(startRequest());
    postError(errorOf('not_request', 'set-request: the form cannot show this request'));
  }
  renderPresetFacts();
  run();
}

function applyProvider(catalog) {
  if (catalog === null) { releaseProvider(); return; } // the host has none after all
  const text = typeof catalog === 'string' ? catalog : JSON.stringify(catalog);
  // A located error from the core comes back as {error} (at once, or once the core has loaded);
  // results follow through afterRun.
  const answer = function (out) {
    if (out && out.error) postError(errorOf(out.error.code || 'invalid_catalog', out.error.message, out.error.path));
  };
  try {
    answer(setProvider(text, answer));
  } catch (e) {
    postError(errorOf('invalid_catalog', e && e.message || e));
  }
}

/** Theme values are CSS text from another origin: each is checked and set through the CSSOM. */
function setTheme(theme) {
  if (!theme || typeof theme !== 'object') return;
  const root = document.documentElement.style;
  const bad = [];
  Object.keys(THEME).forEach(function (k) {
    if (!Object.prototype.hasOwnProperty.call(theme, k)) return;
    const v = theme[k] === null ? '' : String(theme[k]).trim();
    if (!v) { root.removeProperty(THEME[k]); return; }
    const property = COLOUR_KEYS.indexOf(k) >= 0 ? 'color' : 'font-family';
    if (v.length > 200 || !CSS.supports(property, v)) { bad.push(k); return; }
    root.setProperty(THEME[k], v);
  });
  if (Object.prototype.hasOwnProperty.call(theme, 'logo')) {
    const logo = theme.logo === null ? '' : String(theme.logo);
    if (!logo) {
      root.removeProperty('--logo');
      document.body.classList.remove('has-logo');
      setCardLogo('');
    } else if (logo.length > LOGO_MAX_CHARS || !LOGO_TYPES.test(logo) || /["\\\n\r]/.test(logo)) {
      bad.push('logo');
    } else {
      root.setProperty('--logo', 'url("' + logo + '")');
      document.body.classList.add('has-logo');
      setCardLogo(logo);
    }
  }
  if (bad.length) postError(errorOf('invalid_theme', 'set-theme: not a valid CSS value for ' + bad.join(', '), '/theme/' + bad[0]));
}

function onMessage(event) {
  if (event.source !== window.parent || !framed) return;
  const data = event.data;
  if (!data || typeof data !== 'object' || typeof data.type !== 'string' || data.type.indexOf(PREFIX) !== 0) return;
  if (!origin) {
    if (event.origin === 'null' && location.protocol !== 'file:') return;
    origin = event.origin;
  }
  if (event.origin !== origin) return;
  const kind = data.type.slice(PREFIX.length);
  // A catalog may come before the core (the first answer waits for it: no neutral prices first).
  if (kind === 'set-provider') { applyProvider(data.catalog); return; }
  if (!isReady()) {
    // Too early (the widget waits for ready; a hand-written host may not).
    postError(errorOf('not_ready', 'the page is still loading: wait for gpu-advisor:ready'), data.id);
    return;
  }
  if (kind === 'set-request') setRequest(data.request);
  else if (kind === 'get-result') {
    if (runScheduled() || queued !== null || leversPending()) waiting.push(data.id); // the answer comes with the run
    else postState(data.id);
  } else if (kind === 'set-theme') setTheme(data.theme);
  else if (kind === 'set-lang') {
    if (data.lang !== 'zh-CN' && data.lang !== 'en') postError(errorOf('invalid_lang', 'set-lang: zh-CN or en', '/lang'));
    else { setLanguage(data.lang); reportHeight(); }
  } else postError(errorOf('unknown_message', 'unknown message type ' + data.type.slice(0, 60), '/type'), data.id);
}

/** The frame's content height, so that the widget can size the iframe to it. */
function reportHeight() {
  if (!framed) return; // measuring forces a layout: only a frame has a host to tell
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height && height !== lastHeight) {
    lastHeight = height;
    post({ type: PREFIX + 'resize', height: height }, true);
  }
}

function loadFailed() {
  const detail = document.getElementById('load-error');
  postError(errorOf('load_failed', detail ? detail.textContent.trim() : 'the page could not load its core'));
}

/** Listens to the host when the page is embedded (js/main.js, before the page starts). */
export function startEmbed() {
  if (!EMBED) return;
  onResult(afterRun);
  onLevers(function (r) { if (lastRun() === r) afterRun(r); });
  const html = document.documentElement.classList;
  html.add('embed');
  if (CARD) html.add('embed-card');
  CHROME_PARTS.forEach(function (part) { if (showsChrome(part)) html.add('show-' + part); });
  if (params.get('provider') === 'wait') awaitProvider();
  // The widget sizes the frame to its content: nothing may then depend on the frame's height.
  if (params.get('fit') === 'content') document.documentElement.classList.add('embed-fit');
  window.addEventListener('message', onMessage);
  if (framed) {
    post({ type: PREFIX + 'loading' }, true); // nothing of the user's: to '*' while no origin is known
    if (window.ResizeObserver) new ResizeObserver(reportHeight).observe(document.documentElement);
    // A load error has no run: say it once the page shows its banner.
    new MutationObserver(function () {
      if (document.body.getAttribute('data-state') === 'load-error') loadFailed();
    }).observe(document.body || document.documentElement, { attributes: true, attributeFilter: ['data-state'] });
  }
}

