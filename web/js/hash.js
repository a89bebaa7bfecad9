// SPDX-License-Identifier: MIT
// The URL hash: #req=<base64url JSON of the request>, plus lang=en in English. Written after a
// run, read at start-up and when the user edits the address. A link that was opened (read or
// refused) stays in the address byte for byte until the user changes the request, so a reload
// gives the link back (issue 23 item 3).
//
// The hash is untrusted (anyone can craft a link), so it is read defensively: its length, the
// nesting depth (a bracket scan before JSON.parse), the number of values, the length of each
// string and every key are checked before anything is built from it. A key that could reach a
// prototype (__proto__, constructor, prototype) rejects the whole link. What comes back is a
// plain-data copy whose objects have no prototype at all, or a reason (hash.why.*) it was refused.
import { afterFrame, clear, h } from './dom.js';
import { SCHEMA_VERSION } from './form.js';
import { DEFAULT_LANG, isLang, lang, t } from './i18n.js';
import { lastRun, onResult } from './run.js';
import { EMBED } from './mode.js';

// The core takes requests up to 1 MiB nested 64 deep (core/types/limits.hpp); a link is
// refused before that, with room for base64 (4/3).
const LIMITS = {
  hashChars: 1400000,
  jsonBytes: 1 << 20,
  depth: 64,
  values: 20000,
  stringChars: 1 << 20,
  keyChars: 200,
};
export const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
const TOP_LEVEL_STRINGS = ['task', 'stack'];

export function encodeBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url -> text; throws {why} on characters outside the alphabet or bytes that are not UTF-8. */
function decodeBase64Url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw { why: 'encoding' };
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  let bin;
  try { bin = atob(b64 + '==='.slice((b64.length + 3) % 4)); } catch (e) { throw { why: 'encoding' }; }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { throw { why: 'encoding' }; }
}

/** The deepest nesting of [ and { outside strings, stopping as soon as it passes `limit`. */
function nestingDepth(text, limit) {
  let depth = 0, max = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;                 // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) { max = depth; if (max > limit) return max; }
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return max;
}

/**
 * A plain-data copy of parsed JSON: objects without a prototype, arrays, strings, finite
 * numbers, booleans, null. Throws {why} on a forbidden key, too many values, a huge string or
 * key (depth was bounded by the scan before parsing, so the recursion is bounded too).
 */
function plainCopy(value, budget) {
  if (--budget.values < 0) throw { why: 'too_big' };
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!isFinite(value)) throw { why: 'not_json' };
    return value;
  }
  if (typeof value === 'string') {
    if (value.length > LIMITS.stringChars) throw { why: 'too_big' };
    return value;
  }
  if (Array.isArray(value)) return value.map(function (v) { return plainCopy(v, budget); });
  if (typeof value !== 'object') throw { why: 'not_json' };
  const out = Object.create(null);
  Object.keys(value).forEach(function (k) {
    if (FORBIDDEN_KEYS.indexOf(k) >= 0) throw { why: 'forbidden_key', key: k };
    if (k.length > LIMITS.keyChars) throw { why: 'too_big' };
    out[k] = plainCopy(value[k], budget);
  });
  return out;
}

/**
 * Reads untrusted JSON text into plain data, bounded: {value} or {why, key?}. Used for the
 * URL hash (and any other text a stranger may have written).
 */
export function parseUntrustedJson(text) {
  if (typeof text !== 'string') return { why: 'not_json' };
  if (text.length > LIMITS.jsonBytes) return { why: 'too_big' };
  if (nestingDepth(text, LIMITS.depth) > LIMITS.depth) return { why: 'too_deep' };
  let parsed;
  try { parsed = JSON.parse(text); } catch (e) { return { why: 'not_json' }; }
  try {
    return { value: plainCopy(parsed, { values: LIMITS.values }) };
  } catch (e) {
    return { why: e && e.why ? e.why : 'not_json', key: e && e.key };
  }
}

function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

/**
 * The request's shape, as far as the page needs it to put the request into the form: an object
 * with a string task and object sections. Values inside the sections are left for the core to
 * judge (it locates each mistake at its input). Returns null when fine, else a reason.
 */
function shapeProblem(req) {
  if (!isObject(req)) return 'not_request';
  // Another version's request means other things: refused, never read as this one. (A link
  // without the key is read as this version, as the page has always written it.)
  if (req.schema !== undefined && req.schema !== SCHEMA_VERSION) return 'schema';
  // The top level's named strings (the task, the software stack); every other key but the
  // schema number is a section object.
  if (TOP_LEVEL_STRINGS.some(function (k) { return req[k] !== undefined && typeof req[k] !== 'string'; })) return 'not_request';
  const sections = Object.keys(req).filter(function (k) { return k !== 'schema' && TOP_LEVEL_STRINGS.indexOf(k) < 0; });
  for (let i = 0; i < sections.length; i++) {
    if (!isObject(req[sections[i]])) return 'not_request';
  }
  const model = req.model;
  if (model && model.preset !== undefined && typeof model.preset !== 'string') return 'not_request';
  if (model && model.hf_config !== undefined && typeof model.hf_config !== 'string' && !isObject(model.hf_config)) return 'not_request';
  const hw = req.hardware;
  if (hw && hw.gpu !== undefined && typeof hw.gpu !== 'string') return 'not_request';
  return null;
}

/**
 * {lang, request, bad, why, key}: what the hash holds. bad when a req= part cannot be used,
 * why = the reason (a hash.why.* string), key = the forbidden key when that was it.
 */
export function readHash() {
  const out = { lang: null, request: null, bad: false, why: null, key: null };
  const raw = location.hash.replace(/^#/, '');
  if (!raw) return out;
  if (raw.length > LIMITS.hashChars) {
    out.bad = true;
    out.why = 'too_big';
    return out;
  }
  raw.split('&').forEach(function (pair) {
    const eq = pair.indexOf('=');
    const k = eq < 0 ? pair : pair.slice(0, eq);
    const v = eq < 0 ? '' : pair.slice(eq + 1);
    if (k === 'lang' && isLang(v)) out.lang = v;
    if (k !== 'req' || out.request || out.bad) return;
    let text;
    try { text = decodeBase64Url(v); } catch (e) { out.bad = true; out.why = e.why || 'encoding'; return; }
    const parsed = parseUntrustedJson(text);
    if (parsed.why) { out.bad = true; out.why = parsed.why; out.key = parsed.key || null; return; }
    const problem = shapeProblem(parsed.value);
    if (problem) { out.bad = true; out.why = problem; return; }
    out.request = parsed.value;
  });
  return out;
}

// The link the address holds while the user has not changed anything since it was opened:
// {request: the JSON of the request the page made of it (null until its first run), refused}.
let held = null;
// The address the page last wrote (a hashchange to it is the page's own, not the visitor's).
let ownHash = '';

/** Whether the address is the one the page wrote last. */
export function isOwnHash() { return location.hash === ownHash; }

/** The address is the visitor's again (a refused link typed into it stays until an edit). */
export function forgetOwnHash() { ownHash = ''; }

/**
 * Keeps the address as it is (a link was opened or typed into the address bar) until the
 * request differs from `request` (the page's current one), or from the next run's when omitted.
 */
export function holdAddress(refused, request) {
  cancelHash();
  held = { request: request ? JSON.stringify(request) : null, refused: Boolean(refused) };
}

/** Whether the address still holds the opened link: the request is the one made of it. */
function stillHeld() {
  if (!held) return false;
  const now = JSON.stringify(lastRun().request);
  if (held.request === null) held.request = now;
  if (now === held.request) return true;
  held = null;
  return false;
}

/** The address fragment for a request, in the page's language: "#[lang=en&]req=...". */
export function hashFor(request) {
  let hash = '#';
  if (lang !== DEFAULT_LANG) hash += 'lang=' + lang + '&';
  return hash + 'req=' + encodeBase64Url(JSON.stringify(request || lastRun().request));
}

export function writeHash(request) {
  held = null;
  const hash = hashFor(request);
  if (hash === location.hash) return;
  ownHash = hash;
  try {
    history.replaceState(null, '', hash);
  } catch (e) {
    location.replace(hash);
  }
}

// The address (#req=...) follows the request after the frame that shows its answer, at most
// every HASH_MS: history.replaceState costs milliseconds (and browsers throttle it), so it is
// kept out of the run. The share button and a language switch write it at once.
const HASH_MS = 200;
let hashDue = false;
let hashTimer = null;
let hashWritten = -Infinity;
export function writeHashSoon() {
  if (hashDue || stillHeld()) return;
  hashDue = true;
  hashTimer = setTimeout(function () { afterFrame(flushHash); }, Math.max(0, hashWritten + HASH_MS - performance.now()));
}

export function flushHash() {
  if (!hashDue) return;
  cancelHash();
  hashWritten = performance.now();
  const request = lastRun().request;
  if (request) writeHash(request);
}

export function cancelHash() {
  clearTimeout(hashTimer);
  hashDue = false;
}

/**
 * The share button: the address as a link to what the page shows. An opened link the page
 * read stays as it was written; a refused one gives way to the page's request.
 */
export function shareHash() {
  cancelHash();
  if (held && !held.refused && stillHeld()) return;
  const request = lastRun().request;
  if (request) writeHash(request);
}

/** True while an address is still to be written (window.gpuAdvisor.pending counts it). */
export function hashPending() { return hashDue; }

// After each run the address follows the request (unless it still holds an opened link).
onResult(function () { writeHashSoon(); });

// The page inside someone else's (an iframe, js/embed.js; ?embed=1 or ?embed=card; js/mode.js).
export { EMBED };

/** The link the share button copies: the standalone page with the plan, never the embed URL. */
export function shareLink() {
  if (!EMBED) return location.href;
  return location.origin + location.pathname + location.hash;
}

/**
 * The standalone page showing `request` (the card's "open the full advisor"): this page's own
 * address without its query (embed, origin, fit, chrome) and with the request's fragment. Built
 * from the URL, not from location.origin, so that a file:// page links to itself.
 */
export function fullLink(request) {
  const u = new URL(location.href);
  u.search = '';
  u.hash = hashFor(request);
  return u.href;
}

const NOTE_MS = 4000; // how long a passing note (a restored link) stays
let noteTimer = null;

/** A note above the results (a link that could not be read, a restored link). */
export function showHashNote(text, persistent) {
  const note = document.getElementById('hash-note');
  clear(note);
  note.appendChild(h('span', { text: text }));
  note.appendChild(h('button', { type: 'button', class: 'link-btn small note-close', text: t('hash.dismiss'),
    onclick: function () { note.hidden = true; } }));
  note.setAttribute('role', persistent ? 'alert' : 'status');
  note.className = 'banner ' + (persistent ? 'banner-warn' : 'banner-muted');
  note.hidden = false;
  clearTimeout(noteTimer);
  if (!persistent) noteTimer = setTimeout(function () { note.hidden = true; }, NOTE_MS);
}

/** Why a link could not be read, in words. */
export function badHashText(fromHash, kept) {
  const why = t('hash.why.' + (fromHash.why || 'not_json'), { key: fromHash.key || '' });
  return t(kept ? 'hash.invalid_kept' : 'hash.invalid', { why: why });
}
