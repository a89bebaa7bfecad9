// SPDX-License-Identifier: MIT
// The one script in <head> (a classic script, not bundled): it runs before the body is parsed,
// so before anything is painted, and puts on <html> the classes the stylesheet needs for the
// first paint of a pre-rendered page (issue 29 item 1):
//   embed, embed-card       the page is embedded, as the whole advisor or as the compact card
//   show-brand, show-tools, show-notice   the parts of the chrome the host asked for (?chrome=)
//   provider-wait           a provider catalog is on its way (?provider=wait, ?catalog=): the
//                           pre-rendered answer, priced neutrally, stays hidden until the live one
// js/mode.js reads the same address for the page's scripts (keep the two in step).
// On the site its tag names the wasm module's file (data-module, set by make_dist), whose download
// it starts here rather than when the bundle asks for it; the loader's fetch() (same origin,
// credentials same-origin: crossorigin="anonymous") takes the preloaded response.
(function () {
  'use strict';
  var moduleFile = document.currentScript && document.currentScript.getAttribute('data-module');
  if (moduleFile && /^https?:$/.test(location.protocol)) {
    var preload = document.createElement('link');
    preload.rel = 'preload';
    preload.as = 'fetch';
    preload.type = 'application/wasm';
    preload.crossOrigin = 'anonymous';
    preload.href = moduleFile;
    document.head.appendChild(preload);
  }
  var q = new URLSearchParams(location.search);
  var embed = q.get('embed');
  var classes = document.documentElement.classList;
  var embedded = window.parent !== window || embed === '1' || embed === 'card';
  if (embedded) {
    classes.add('embed');
    if (embed === 'card') classes.add('embed-card');
    (q.get('chrome') || '').split(/[\s,+]+/).forEach(function (part) {
      if (part === 'brand' || part === 'tools' || part === 'notice') classes.add('show-' + part);
    });
  }
  if ((embedded && q.get('provider') === 'wait') || q.get('catalog')) classes.add('provider-wait');
})();
