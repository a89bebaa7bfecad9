// SPDX-License-Identifier: MIT
// A run: the form read into a request, the core's answer, and the one event the page publishes
// for it. Whatever shows a result subscribes with onResult(fn) (the sections, the error banner,
// the placeholders, the address, the provider banner, a host page) and keeps what it needs of it;
// nothing else is shared. schedule() runs after a short pause (typing), run() at once.
import { callCore, defaults } from './core.js';
import { afterFrame, timing } from './dom.js';
import { buildRequest, startRequest, updateVisibility } from './form.js';

const DEBOUNCE_MS = 30;

let ready = false;        // the core is loaded and the form filled (js/app.js start)
let scheduled = false;    // a run is coming
let timer = null;
let shown = null;         // the result on screen, if any (kept under an error)

/**
 * The last run, as published: {request (as sent; read only), result (on screen after this run:
 * the request's, else under an error the one shown before, or the default request's when there
 * was none; null only before any), error (null, or the core's {code, message, path}), changed
 * (this run computed `result`), isDefault (`result` is the default request's, shown dimmed
 * under the error of a link the core rejects)}.
 */
let latest = Object.freeze({ request: null, result: null, error: null, changed: false, isDefault: false });
const listeners = [];
const leverListeners = [];
let leversDue = null; // the run whose result still lacks its levers (they follow its frame)

/**
 * fn(run) after every run, with the object lastRun() returns. Its time counts under `mark` in
 * the timing marks (bench/page_bench.cjs; default 'other', null: fn marks its own parts).
 * Listeners marked 'form' (what a run writes into the form: placeholders, error marks) run
 * first, the others in the order they subscribed: the sections then read the layout once, after
 * every write to the form (a write after that read would cost the frame a second layout).
 */
export function onResult(fn, mark) {
  const listener = { fn: fn, mark: mark === undefined ? 'other' : mark };
  if (listener.mark === 'form') listeners.splice(listeners.filter(function (l) { return l.mark === 'form'; }).length, 0, listener);
  else listeners.push(listener);
}

export function lastRun() { return latest; }

/**
 * fn(run) when the levers of the run on screen are in its result (recommendation.levers, put
 * in place: the same objects lastRun() gave). A run shows its answer first and computes the
 * levers' what-if searches (a third to half of a call) in a task after the frame that shows it.
 */
export function onLevers(fn) { leverListeners.push(fn); }

/** Whether the result on screen still waits for its levers (gpuAdvisor.pending). */
export function leversPending() { return leversDue !== null; }

/**
 * The levers of the result on screen, now if they are still to come: what reads the whole
 * result at once (the report, an export, a host's get-result) calls this first.
 */
export function completeLevers() {
  const r = leversDue;
  if (!r) return;
  leversDue = null;
  const t0 = timing.now();
  const answer = callCore(r.request, 'levers');
  const rec = r.result.recommendation;
  rec.levers = answer.result ? answer.result.levers : [];
  delete rec.levers_later;
  if (answer.error && window.console) console.error('levers: ' + answer.error.message);
  timing.mark('levers', t0);
  leverListeners.forEach(function (fn) { fn(r); });
}

/** lastRun() with its levers in (computed now if they were still to come). */
export function wholeRun() {
  completeLevers();
  return latest;
}

function leversAfterFrame(r) {
  leversDue = r;
  afterFrame(function () { if (leversDue === r) completeLevers(); });
}

export function isReady() { return ready; }

/** The page is set up: runs may start (js/app.js, once the core has loaded). */
export function setReady() { ready = true; }

/** Whether a run is scheduled (gpuAdvisor.pending, a host's get-result waits for it). */
export function runScheduled() { return scheduled; }

/** A run is coming from elsewhere (a host's request queued for the next frame, js/embed.js). */
export function expectRun() { scheduled = true; }

export function schedule(delay) {
  clearTimeout(timer);
  scheduled = true;
  timer = setTimeout(run, delay === undefined ? DEBOUNCE_MS : delay);
}

export function run() {
  clearTimeout(timer);
  scheduled = false;
  if (!ready) return;
  let t0 = timing.now();
  updateVisibility();
  const request = buildRequest();
  t0 = timing.mark('form', t0);
  const answer = callCore(request, 'answer');
  t0 = timing.mark('core', t0);
  let next;
  if (answer.error) {
    // Never an empty page: with no earlier result (a shared link the core rejects), the default
    // request's result is shown under the error, dimmed, and the banner says so.
    const fallback = !shown && defaults ? callCore(startRequest()) : null;
    if (fallback && fallback.result) {
      next = { request: request, result: fallback.result, error: answer.error, changed: true, isDefault: true };
    } else {
      next = { request: request, result: shown ? shown.result : null, error: answer.error, changed: false, isDefault: Boolean(shown && shown.isDefault) };
    }
  } else {
    next = { request: request, result: answer.result, error: null, changed: true, isDefault: false };
  }
  latest = Object.freeze(next);
  if (next.result) shown = latest;
  if (next.changed) leversDue = null; // an earlier run's levers are no longer wanted
  if (next.changed && next.result.recommendation && next.result.recommendation.levers_later) leversAfterFrame(latest);
  listeners.forEach(function (l) {
    const t1 = timing.now();
    l.fn(latest);
    if (l.mark) timing.mark(l.mark, t1);
  });
  t0 = timing.now();
  const state = next.error ? 'error' : 'ready';
  if (document.body.getAttribute('data-state') !== state) document.body.setAttribute('data-state', state);
  timing.mark('other', t0);
}
