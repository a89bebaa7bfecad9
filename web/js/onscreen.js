// SPDX-License-Identifier: MIT
// What is on screen, as the last layout left it (IntersectionObservers: asking in a render would
// force a layout). The sticky top bar and section navigation cover the top of the view: an edge
// under them is not on screen. Their height is read once, after the first frame (the navigation
// is shown by then); a resize across the mobile layout only moves what is drawn a frame later.
import { afterFrame } from './dom.js';

let coveredTopPx = 0;
let observer = null;
const watched = new Map(); // element -> fn(onScreen)

function stickyBarsPx() {
  let px = 0;
  ['.topbar', '#section-nav'].forEach(function (sel) {
    const n = document.querySelector(sel);
    if (n && getComputedStyle(n).position === 'sticky') px += n.offsetHeight;
  });
  return px;
}

/** The height the sticky bars cover at the top of the view (0 until the first frame). */
export function coveredTop() { return coveredTopPx; }

/** An IntersectionObserver's rootMargin for "on screen": the view less the sticky bars at its top. */
export function onScreenMargin() { return '-' + coveredTopPx + 'px 0px 0px 0px'; }

/** fn(onScreen) each time `node` comes on screen or leaves it, from the first frame on. */
export function watchOnScreen(node, fn) {
  watched.set(node, fn);
  if (observer) observer.observe(node);
  else if (window.IntersectionObserver && watched.size === 1) afterFrame(start);
}

function start() {
  coveredTopPx = stickyBarsPx();
  observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      const fn = watched.get(e.target);
      if (fn) fn(e.isIntersecting);
    });
  }, { rootMargin: onScreenMargin() });
  watched.forEach(function (fn, node) { observer.observe(node); });
}
