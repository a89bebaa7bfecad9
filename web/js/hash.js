// SPDX-License-Identifier: MIT
// The URL hash: #req=<base64url JSON of the request>, plus lang=en in English. Written after each
// run, read at start-up and when the user edits the address.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const { DEFAULT_LANG, STRINGS } = UI;

  function encodeBase64Url(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = '';
    for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function decodeBase64Url(s) {
    const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  }

  /** {lang, request, bad}: what the hash holds; bad when a req= part cannot be read. */
  function readHash() {
    const out = { lang: null, request: null, bad: false };
    const raw = location.hash.replace(/^#/, '');
    if (!raw) return out;
    raw.split('&').forEach(function (pair) {
      const eq = pair.indexOf('=');
      const k = eq < 0 ? pair : pair.slice(0, eq);
      const v = eq < 0 ? '' : pair.slice(eq + 1);
      if (k === 'lang' && STRINGS[v]) out.lang = v;
      if (k === 'req') {
        try {
          const req = JSON.parse(decodeBase64Url(v));
          if (req && typeof req === 'object' && !Array.isArray(req)) out.request = req;
          else out.bad = true;
        } catch (e) { out.bad = true; }
      }
    });
    return out;
  }

  function writeHash(request) {
    let hash = '#';
    if (state.lang !== DEFAULT_LANG) hash += 'lang=' + state.lang + '&';
    hash += 'req=' + encodeBase64Url(JSON.stringify(request || state.lastRequest));
    if (hash === location.hash) return;
    state.ownHash = hash;
    try {
      history.replaceState(null, '', hash);
    } catch (e) {
      location.replace(hash);
    }
  }

  Object.assign(UI, { readHash, writeHash });
})();
