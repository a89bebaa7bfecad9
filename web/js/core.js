// SPDX-License-Identifier: MIT
// The wasm core: loads the module (createGpuAdvisor() from gpu_advisor.js) and is the only code
// that calls it. callCore(request) -> {result} | {error}.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const { t } = UI;

  const LOAD_TIMEOUT_MS = 20000;
  let core = null;

  /** An error whose message is for the load-error banner (no stack in the console). */
  function loadError(message) {
    const e = new Error(String(message));
    e.expected = true;
    return e;
  }

  /** The bytes of a base64 gzip stream, inflated by the browser's own DecompressionStream. */
  function inflate(base64) {
    if (typeof DecompressionStream !== 'function') return Promise.reject(loadError(t('load.no_decompression')));
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer();
  }

  /**
   * Starts the module. Resolves to {catalog, apiVersion}; rejects with an Error whose message the
   * page shows (no gpu_advisor.js, a module that throws or never settles, an unreadable catalog).
   */
  function loadCore() {
    return new Promise(function (resolve, reject) {
      if (typeof window.createGpuAdvisor !== 'function') {
        reject(loadError(t('load.no_factory')));
        return;
      }
      const timer = setTimeout(function () { reject(loadError('timeout')); }, LOAD_TIMEOUT_MS);
      const start = function (options) {
        return window.createGpuAdvisor(options); // may throw or reject: both reach the banner
      };
      // make_dist stores the wasm gzipped (base64 of ~half the bytes) as a property of the
      // factory; without it (the raw build) the loader reads its own embedded module.
      const gz = window.createGpuAdvisor.wasmGz;
      const factory = (gz ? inflate(gz).then(function (bytes) { return start({ wasmBinary: bytes }); })
        : new Promise(function (ok) { ok(start({})); }));
      factory.then(function (module) {
        clearTimeout(timer);
        let catalog;
        try { catalog = JSON.parse(module.catalog()); } catch (e) { catalog = { error: { message: String(e) } }; }
        if (!catalog || catalog.error) {
          reject(loadError(t('load.catalog_failed') + ' ' + (catalog && catalog.error ? catalog.error.message : '')));
          return;
        }
        core = module;
        resolve({ catalog: catalog, apiVersion: module.apiVersion ? module.apiVersion() : '?' });
      }, function (e) {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  /** The core's answer to a request: {result} or {error: {code, message, path}}. */
  function callCore(request) {
    let answer;
    try {
      const provider = UI.state.provider; // js/provider.js: the accepted provider catalog
      answer = JSON.parse(provider ? core.adviseWithProvider(JSON.stringify(request), provider.text)
        : core.advise(JSON.stringify(request)));
    } catch (e) {
      return { error: { code: 'internal_error', message: String(e && e.message || e), path: '' } };
    }
    return answer && answer.error ? { error: answer.error } : { result: answer };
  }

  function coreReady() { return core !== null; }

  /** Whether the module has the validation functions (validationScripts, validationCheck). */
  function hasValidation() {
    return Boolean(core && ['validationScripts', 'validationCheck', 'validationScriptsWithProvider',
      'validationCheckWithProvider'].every(function (name) { return typeof core[name] === 'function'; }));
  }

  /** One JSON-text call into the module: {result} | {error}. */
  function callText(fn, args) {
    let answer;
    try {
      answer = JSON.parse(fn.apply(core, args));
    } catch (e) {
      return { error: { code: 'internal_error', message: String(e && e.message || e), path: '' } };
    }
    return answer && answer.error ? { error: answer.error } : { result: answer };
  }

  /**
   * The validation scripts for a request's plan: {result: {plan_id, ngc, files}} | {error}. Under
   * a provider's catalog the plan is the one its advice gave (the same document goes to the core),
   * never the built-in catalog's.
   */
  function callValidationScripts(request) {
    if (!hasValidation()) return { error: { code: 'unsupported', message: 'validationScripts', path: '' } };
    const provider = UI.state.provider;
    return provider ? callText(core.validationScriptsWithProvider, [JSON.stringify(request), provider.text])
      : callText(core.validationScripts, [JSON.stringify(request)]);
  }

  /** A validation-result.json or nvidia-smi CSV checked against a request's plan: {result: report} | {error}. */
  function callValidationCheck(request, fileText, fileName) {
    if (!hasValidation()) return { error: { code: 'unsupported', message: 'validationCheck', path: '' } };
    const provider = UI.state.provider;
    return provider
      ? callText(core.validationCheckWithProvider, [JSON.stringify(request), provider.text, String(fileText), String(fileName)])
      : callText(core.validationCheck, [JSON.stringify(request), String(fileText), String(fileName)]);
  }

  /** A provider catalog checked by the core: {result: {provider: summary}} | {error}. */
  function validateProvider(text) {
    if (!core || typeof core.validateProvider !== 'function') return { error: { code: 'unsupported', message: 'validateProvider', path: '' } };
    return callText(core.validateProvider, [String(text)]);
  }

  Object.assign(UI, { inflate, loadCore, callCore, validateProvider, callValidationCheck, callValidationScripts, coreReady, hasValidation });
})();
