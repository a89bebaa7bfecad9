// SPDX-License-Identifier: MIT
// <gpu-advisor>: the advisor in a provider's page (issue 10 item 1). One script, one element:
//
//   <script src="https://advisor.example/widget/gpu-advisor.js"></script>
//   <gpu-advisor lang="zh-CN" catalog="provider.json"></gpu-advisor>
//
// The element holds, in its shadow root, an <iframe> of the advisor page (gpu-advisor.html next
// to this script, or the element's src attribute): the host's CSS cannot reach into it, and
// nothing of the advisor's reaches the host. It defines no global but the element name.
//
// Attributes
//   lang      zh-CN (default) | en
//   catalog   the provider catalog: a same-origin URL (fetched by this script, in the host page),
//             or the JSON text itself; a <script type="application/json"> child works too
//   height    the frame's height: a number (px) or a CSS length ("80vh"); absent: the frame's
//             content height, which the page reports
//   src       the advisor page, if not gpu-advisor.html next to this script
//   mode      full (default): the whole advisor | card: the compact card — the answer and its
//             reasons, the inputs a buyer changes (task, model, size of the job or users,
//             deadline, budget), the provider's offers and a link to the full advisor with the
//             same request; sized to its content (read when the element is connected)
//   chrome    parts of the advisor's own chrome to show, hidden by default in every mode
//             (space-separated): brand (the "GPU Advisor" bar), tools (Export JSON / Reset),
//             notice (the "confirm prices with the provider" notice)
// With a catalog, the advisor's first answer waits for it: no neutral price is shown first.
// Theme (CSS custom properties on the element or any ancestor, read with getComputedStyle):
//   --gpu-advisor-accent, --gpu-advisor-bg, --gpu-advisor-text (colours), --gpu-advisor-font
//   (a font-family list), --gpu-advisor-logo (url(...): a data: URL, or a same-origin image this
//   script reads and passes on as one). Call el.refreshTheme() after changing them.
// JS API
//   el.setRequest(request)   a request (schema: the page's Export JSON); a partial one is laid
//                            over the defaults
//   el.getResult()           Promise of {request, result}; rejects with the located error
//   el.setCatalog(textOrObj) the provider catalog, as the catalog attribute
//   events: ready {version, lang}, result {request, result}, error {code, message, path?}
//   (CustomEvent, detail as shown; they do not bubble)
// The messages between this script and the frame are the page's postMessage API (web/js/embed.js),
// which a host can also use directly with its own <iframe>.
(function () {
  'use strict';

  const NAME = 'gpu-advisor';
  if (!window.customElements || window.customElements.get(NAME)) return;

  const PREFIX = 'gpu-advisor:';
  const FRAME_PAGE = 'gpu-advisor.html';
  const LANGS = ['zh-CN', 'en'];
  const MODES = ['full', 'card'];
  const CHROME_PARTS = ['brand', 'tools', 'notice'];
  // Before the page first reports its content height; also the smallest height the page is
  // laid out for (the answer card and its first reasons fit in 600 px, issue 10 item 4).
  const INITIAL_HEIGHT_PX = 600;
  // A logo is an image of a few KiB; a bigger file is refused rather than sent into the frame.
  const LOGO_MAX_BYTES = 256 * 1024;
  const THEME_VARS = { accent: '--gpu-advisor-accent', bg: '--gpu-advisor-bg', text: '--gpu-advisor-text',
    font: '--gpu-advisor-font', logo: '--gpu-advisor-logo' };
  const HOST_CSS = ':host{display:block;position:relative;min-width:0;max-width:100%}:host([hidden]){display:none}';

  const script = document.currentScript;
  const BASE = script && script.src ? script.src : document.baseURI;
  const internals = new WeakMap(); // element -> its private state (no properties on the element)

  /** An error event; before the frame is ready (a host may not listen yet), right after ready. */
  function fail(el, code, message, path) {
    const detail = { code: code, message: message };
    if (path) detail.path = path;
    const s = internals.get(el);
    if (!s.ready) s.early.push(detail);
    else el.dispatchEvent(new CustomEvent('error', { detail: detail }));
  }

  /** The catalog the element has (attribute or JSON child): 'json', 'url' (same origin), or null. */
  function catalogKind(el) {
    const attr = (el.getAttribute('catalog') || '').trim();
    if (!attr) return el.querySelector('script[type="application/json"]') ? 'json' : null;
    if (attr.charAt(0) === '{') return 'json';
    let url;
    try { url = new URL(attr, document.baseURI); } catch (e) { url = null; }
    return url && url.origin === location.origin ? 'url' : null;
  }

  function frameUrl(el) {
    const url = new URL(el.getAttribute('src') || FRAME_PAGE, BASE);
    url.searchParams.set('embed', el.getAttribute('mode') === 'card' ? 'card' : '1');
    const chrome = (el.getAttribute('chrome') || '').split(/\s+/).filter(function (p) { return CHROME_PARTS.indexOf(p) >= 0; });
    if (chrome.length) url.searchParams.set('chrome', chrome.join(','));
    // The first answer waits for the catalog (sent as soon as the page says it is listening).
    if (catalogKind(el)) url.searchParams.set('provider', 'wait');
    if (/^https?:$/.test(location.protocol)) url.searchParams.set('origin', location.origin);
    if (!internals.get(el).fixedHeight) url.searchParams.set('fit', 'content');
    const lang = el.getAttribute('lang');
    url.hash = lang === 'en' ? 'lang=en' : '';
    return url;
  }

  /** "600" -> "600px"; a CSS length as it is; absent or "auto" -> null (the content height). */
  function heightOf(value) {
    if (!value || value === 'auto') return null;
    if (/^\d+(\.\d+)?$/.test(value)) return value + 'px';
    return CSS.supports('height', value) ? value : null;
  }

  function readAsDataUrl(blob) {
    return new Promise(function (resolve, reject) {
      const reader = new FileReader();
      reader.onload = function () { resolve(reader.result); };
      reader.onerror = function () { reject(reader.error); };
      reader.readAsDataURL(blob);
    });
  }

  /** url("x.png") -> the URL it names, resolved against the page; null if there is none. */
  function cssUrl(value) {
    const m = /^url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)$/.exec(value.trim());
    if (!m) return null;
    try { return new URL(m[1] || m[2] || m[3], document.baseURI); } catch (e) { return null; }
  }

  class GpuAdvisorElement extends HTMLElement {
    static get observedAttributes() { return ['lang', 'catalog', 'height']; }

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      if ('adoptedStyleSheets' in root && window.CSSStyleSheet && 'replaceSync' in CSSStyleSheet.prototype) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(HOST_CSS);
        root.adoptedStyleSheets = [sheet];
      } else {
        this.style.setProperty('display', 'block');
      }
      const frame = document.createElement('iframe');
      frame.setAttribute('title', 'GPU Advisor');
      frame.setAttribute('allow', 'clipboard-write');
      frame.setAttribute('referrerpolicy', 'no-referrer');
      // Set through the CSSOM (a host's style-src may forbid inline style), so no host rule
      // reaches it: the frame is in the shadow tree.
      [['display', 'block'], ['width', '100%'], ['max-width', '100%'], ['border', '0'], ['margin', '0'],
        ['padding', '0'], ['height', INITIAL_HEIGHT_PX + 'px'], ['color-scheme', 'normal']]
        .forEach(function (p) { frame.style.setProperty(p[0], p[1]); });
      root.appendChild(frame);
      internals.set(this, { frame: frame, ready: false, queue: [], waiting: new Map(), nextId: 1,
        origin: null, fixedHeight: null, early: [], onMessage: this._onMessage.bind(this), started: false, listening: false });
    }

    connectedCallback() {
      const s = internals.get(this);
      window.addEventListener('message', s.onMessage);
      if (s.started) return;
      s.started = true;
      s.fixedHeight = heightOf(this.getAttribute('height'));
      if (s.fixedHeight) s.frame.style.setProperty('height', s.fixedHeight);
      const url = frameUrl(this);
      s.origin = url.protocol === 'file:' ? 'null' : url.origin;
      s.frame.src = url.href;
      const mode = this.getAttribute('mode');
      if (mode && MODES.indexOf(mode) < 0) fail(this, 'invalid_mode', 'mode="' + mode.slice(0, 20) + '": full or card', 'mode');
      const lang = this.getAttribute('lang');
      if (lang && LANGS.indexOf(lang) < 0) fail(this, 'invalid_lang', 'lang="' + lang.slice(0, 20) + '": zh-CN or en', 'lang');
      this._loadCatalog();
    }

    disconnectedCallback() {
      window.removeEventListener('message', internals.get(this).onMessage);
    }

    attributeChangedCallback(name, before, after) {
      const s = internals.get(this);
      if (!s || !s.started || before === after) return;
      if (name === 'lang') {
        if (LANGS.indexOf(after) < 0) fail(this, 'invalid_lang', 'lang="' + String(after).slice(0, 20) + '": zh-CN or en', 'lang');
        else this._send({ type: PREFIX + 'set-lang', lang: after });
      } else if (name === 'catalog') {
        this._loadCatalog();
      } else if (name === 'height') {
        s.fixedHeight = heightOf(after);
        if (s.fixedHeight) s.frame.style.setProperty('height', s.fixedHeight);
      }
    }

    /** The request the advisor computes; a partial request is laid over the defaults. */
    setRequest(request) {
      this._send({ type: PREFIX + 'set-request', request: request });
    }

    /** Promise of {request, result} once the current request is computed; rejects with its error. */
    getResult() {
      const s = internals.get(this);
      const id = s.nextId++;
      const self = this;
      return new Promise(function (resolve, reject) {
        s.waiting.set(id, { resolve: resolve, reject: reject });
        self._send({ type: PREFIX + 'get-result', id: id });
      });
    }

    /** The provider catalog: JSON text or an object (the catalog attribute does the same). */
    setCatalog(catalog) {
      this._send({ type: PREFIX + 'set-provider', catalog: typeof catalog === 'string' ? catalog : JSON.stringify(catalog) });
    }

    /** Reads the --gpu-advisor-* custom properties again and passes them to the frame. */
    refreshTheme() {
      const css = getComputedStyle(this);
      const theme = {};
      const self = this;
      Object.keys(THEME_VARS).forEach(function (k) {
        if (k !== 'logo') theme[k] = css.getPropertyValue(THEME_VARS[k]).trim();
      });
      const logo = css.getPropertyValue(THEME_VARS.logo).trim();
      const url = logo && logo !== 'none' ? cssUrl(logo) : null;
      if (logo && logo !== 'none' && !url) fail(this, 'invalid_theme', THEME_VARS.logo + ' is not a url(...)', THEME_VARS.logo);
      if (!url) {
        theme.logo = '';
        this._send({ type: PREFIX + 'set-theme', theme: theme });
        return Promise.resolve();
      }
      if (url.protocol === 'data:') {
        theme.logo = url.href;
        this._send({ type: PREFIX + 'set-theme', theme: theme });
        return Promise.resolve();
      }
      // The frame loads nothing from the network: the image travels as a data: URL.
      return fetch(url.href, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.blob();
      }).then(function (blob) {
        if (blob.size > LOGO_MAX_BYTES) throw new Error(blob.size + ' bytes (at most ' + LOGO_MAX_BYTES + ')');
        return readAsDataUrl(blob);
      }).then(function (dataUrl) {
        theme.logo = dataUrl;
        self._send({ type: PREFIX + 'set-theme', theme: theme });
      }).catch(function (e) {
        fail(self, 'logo_unreadable', THEME_VARS.logo + ': ' + (e && e.message || e), THEME_VARS.logo);
        self._send({ type: PREFIX + 'set-theme', theme: theme });
      });
    }

    _loadCatalog() {
      const inline = this.querySelector('script[type="application/json"]');
      const attr = (this.getAttribute('catalog') || '').trim();
      if (!attr && !inline) return;
      if (!attr || attr.charAt(0) === '{') {
        this.setCatalog(attr || inline.textContent);
        return;
      }
      let url;
      try { url = new URL(attr, document.baseURI); } catch (e) { url = null; }
      if (!url || url.origin !== location.origin) {
        fail(this, 'catalog_not_same_origin', 'catalog="' + attr.slice(0, 200) + '": a URL on this page\'s own origin, or the JSON itself', 'catalog');
        return;
      }
      const self = this;
      fetch(url.href, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.text();
      }).then(function (text) { self.setCatalog(text); }, function (e) {
        fail(self, 'catalog_unreadable', 'catalog="' + attr.slice(0, 200) + '": ' + (e && e.message || e), 'catalog');
        self._send({ type: PREFIX + 'set-provider', catalog: null }); // none is coming: the frame stops waiting
      });
    }

    _send(message) {
      const s = internals.get(this);
      // A catalog goes as soon as the page listens (its first answer waits for it); the rest after ready.
      const early = s.listening && message.type === PREFIX + 'set-provider';
      if (!s.ready && !early) { s.queue.push(message); return; }
      s.frame.contentWindow.postMessage(message, s.origin === 'null' ? '*' : s.origin);
    }

    _onMessage(event) {
      const s = internals.get(this);
      if (event.source !== s.frame.contentWindow || event.origin !== s.origin) return;
      const data = event.data;
      if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
      const kind = data.type.slice(PREFIX.length);
      if (data.type.indexOf(PREFIX) !== 0) return;
      if (kind === 'resize') {
        if (!s.fixedHeight && data.height > 0 && isFinite(data.height)) s.frame.style.setProperty('height', Math.ceil(data.height) + 'px');
        return;
      }
      if (kind === 'loading') {
        if (s.listening || s.ready) return;
        s.listening = true;
        const self = this;
        s.queue = s.queue.filter(function (m) {
          if (m.type !== PREFIX + 'set-provider') return true;
          self._send(m);
          return false;
        });
        return;
      }
      if (kind === 'ready') {
        if (s.ready) return;
        s.ready = true;
        const queued = s.queue.splice(0);
        this.refreshTheme();
        queued.forEach(this._send, this);
        this.dispatchEvent(new CustomEvent('ready', { detail: { version: data.version, lang: data.lang } }));
        s.early.splice(0).forEach(function (detail) { this.dispatchEvent(new CustomEvent('error', { detail: detail })); }, this);
        return;
      }
      const waiter = data.id !== undefined ? s.waiting.get(data.id) : null;
      if (waiter) s.waiting.delete(data.id);
      if (kind === 'result') {
        const detail = { request: data.request, result: data.result };
        if (waiter) waiter.resolve(detail);
        else this.dispatchEvent(new CustomEvent('result', { detail: detail }));
      } else if (kind === 'error') {
        const error = data.error || { code: 'unknown', message: 'unknown error' };
        if (waiter) {
          const e = new Error(error.message);
          e.code = error.code;
          e.path = error.path;
          waiter.reject(e);
        } else {
          this.dispatchEvent(new CustomEvent('error', { detail: error }));
        }
      }
    }
  }

  window.customElements.define(NAME, GpuAdvisorElement);
})();
