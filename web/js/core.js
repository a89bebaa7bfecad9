// SPDX-License-Identifier: MIT
// The wasm core: loads the module (createGpuAdvisor() from gpu_advisor.js) and is the only code
// that calls it. callCore(request) -> {result} | {error}. It holds what the module said at load
// (the catalog, its default request, the API version) and the provider catalog the page uses.
import { nextTask } from './dom.js';
import { t } from './i18n.js';

const LOAD_TIMEOUT_MS = 20000;
const VALIDATION_ENTRY_POINTS = ['validationScripts', 'validationCheck', 'validationScriptsWithProvider',
  'validationCheckWithProvider', 'validationCheckServers', 'validationCheckServersWithProvider'];
let core = null;
// The site starts the answer part of the module (gpu_advisor_answer.js: no validation entry
// points) and loads the whole module beside it when the validation section asks for it.
let wholeCore = null;
let wholeLoading = null;

/** The built-in catalog (catalog() of the module), once loaded; null before. */
export let catalog = null;
/** The core's default request (catalog.default_request). */
export let defaults = null;
/** The module's API version text. */
export let apiVersion = '?';
// The accepted provider catalog's JSON text (js/provider.js), or null: every call prices with it.
let providerText = null;

/** Prices every later call with a provider catalog the core accepted (null: the neutral defaults). */
export function useProvider(text) {
  providerText = text === null || text === undefined ? null : String(text);
}

export function findModel(id) {
  const list = (catalog && catalog.models) || [];
  for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
  return null;
}

export function findGpu(id) {
  const list = (catalog && catalog.gpus) || [];
  for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
  return null;
}

/** A GPU's name from the catalog, else its id as given. */
export function gpuName(id) {
  const g = id ? findGpu(id) : null;
  return g ? g.name : String(id || '—');
}

/** An error whose message is for the load-error banner (no stack in the console). */
function loadError(message) {
  const e = new Error(String(message));
  e.expected = true;
  return e;
}

/**
 * Starts the module. Resolves to {catalog, apiVersion}; rejects with an Error whose message the
 * page shows (no gpu_advisor.js, a module that throws or never settles, an unreadable catalog).
 */
export function loadCore() {
  return new Promise(function (resolve, reject) {
    // The site's answer part first (its loader falls back to the whole module itself), else the
    // whole module (the single file, the widget, the raw build).
    const create = siteAnswerFactory() || window.createGpuAdvisor;
    if (typeof create !== 'function') {
      reject(loadError(t('load.no_factory')));
      return;
    }
    const timer = setTimeout(function () { reject(loadError(t('load.timeout'))); }, LOAD_TIMEOUT_MS);
    // make_dist's packed loader inflates its stored module itself; the raw build reads its own
    // embedded one. The factory may throw or reject: both reach the banner.
    const factory = new Promise(function (ok) { ok(create()); });
    factory.then(function (module) {
      clearTimeout(timer);
      // The start-up in slices (issue 30 item 2): the catalog in a task of its own, the takeover
      // (js/app.js) in the next, so that input is handled between them: the longest task of a
      // load 244-307 -> 158-218 ms, the core ready the same within noise (bench/RESULTS.md).
      nextTask(function () {
        let loaded;
        try { loaded = JSON.parse(module.catalog()); } catch (e) { loaded = { error: { message: String(e) } }; }
        if (!loaded || loaded.error) {
          reject(loadError(t('load.catalog_failed') + ' ' + (loaded && loaded.error ? loaded.error.message : '')));
          return;
        }
        nextTask(function () {
          core = module;
          catalog = loaded;
          defaults = loaded.default_request;
          apiVersion = module.apiVersion ? module.apiVersion() : '?';
          resolve({ catalog: loaded, apiVersion: apiVersion });
        });
      });
    }, function (e) {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * The core's answer to a request: {result} or {error: {code, message, path}}. part (optional):
 * 'answer', the result without its levers (recommendation.levers_later), or 'levers', {levers}
 * alone: the two make the whole result (core/api.hpp PlanPart), the answer on screen a frame
 * sooner (js/run.js).
 */
export function callCore(request, part) {
  const text = JSON.stringify(request);
  if (part) return callText(part === 'levers' ? core.adviseLevers : core.adviseAnswer, [text, providerText === null ? '' : providerText]);
  return providerText !== null ? callText(core.adviseWithProvider, [text, providerText]) : callText(core.advise, [text]);
}

export function coreReady() { return core !== null; }

/** The site's answer-part loader (gpu_advisor_answer.js), or null (the single file, the widget). */
function siteAnswerFactory() {
  return typeof window.createGpuAdvisorAnswer === 'function' ? window.createGpuAdvisorAnswer : null;
}

/**
 * Whether the module is fetched beside the page (the site: its answer part, else the whole one)
 * rather than decoded from the page itself (the single file, the widget).
 */
export function moduleFetched() { return siteAnswerFactory() !== null; }

/** The loaded module itself (tests wrap its functions through gpuAdvisor.internals), or null. */
export function coreModule() { return core; }

function hasEntryPoints(module) {
  return Boolean(module) && VALIDATION_ENTRY_POINTS.every(function (name) { return typeof module[name] === 'function'; });
}

/** The module that answers validation calls: the loaded one if it has them, else the whole one once loaded. */
function validationModule() {
  return hasEntryPoints(core) ? core : hasEntryPoints(wholeCore) ? wholeCore : null;
}

/** Whether the validation functions (validationScripts, validationCheck, …) can be called now. */
export function hasValidation() {
  return validationModule() !== null;
}

/** Whether they can be loaded: the site's answer part, with the whole module beside it. */
export function canLoadValidation() {
  const answer = siteAnswerFactory();
  return core !== null && !hasValidation() && answer !== null && typeof answer.whole === 'function';
}

/**
 * Loads the whole module for the validation functions (once; again after a failure). Resolves
 * when hasValidation(); rejects with an Error whose message says why.
 */
export function loadValidation() {
  if (hasValidation()) return Promise.resolve();
  if (!canLoadValidation()) return Promise.reject(loadError(t('validation.unsupported')));
  if (!wholeLoading) {
    wholeLoading = new Promise(function (resolve, reject) {
      const timer = setTimeout(function () { reject(loadError(t('load.timeout'))); }, LOAD_TIMEOUT_MS);
      siteAnswerFactory().whole().then(function (create) { return create(); }).then(function (module) {
        clearTimeout(timer);
        if (!hasEntryPoints(module)) throw loadError(t('validation.unsupported'));
        wholeCore = module;
        resolve();
      }).catch(function (e) { clearTimeout(timer); reject(e); });
    });
    wholeLoading.catch(function () { wholeLoading = null; });
  }
  return wholeLoading;
}

/** One JSON-text call into the module: {result} | {error}. */
function callText(fn, args) {
  let answer;
  try {
    answer = JSON.parse(fn.apply(null, args));
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
export function callValidationScripts(request) {
  const v = validationModule();
  if (!v) return { error: { code: 'unsupported', message: 'validationScripts', path: '' } };
  return providerText !== null ? callText(v.validationScriptsWithProvider, [JSON.stringify(request), providerText])
    : callText(v.validationScripts, [JSON.stringify(request)]);
}

/** A validation-result.json or nvidia-smi CSV checked against a request's plan: {result: report} | {error}. */
export function callValidationCheck(request, fileText, fileName) {
  const v = validationModule();
  if (!v) return { error: { code: 'unsupported', message: 'validationCheck', path: '' } };
  return providerText !== null
    ? callText(v.validationCheckWithProvider, [JSON.stringify(request), providerText, String(fileText), String(fileName)])
    : callText(v.validationCheck, [JSON.stringify(request), String(fileText), String(fileName)]);
}

/**
 * A cluster's result files, one per server ([{name, text}]), checked together against the plan:
 * {result: cluster report (each server's report and one verdict)} | {error}.
 */
export function callValidationCheckServers(request, files) {
  const v = validationModule();
  if (!v) return { error: { code: 'unsupported', message: 'validationCheckServers', path: '' } };
  const names = files.map(function (f) { return String(f.name); });
  const texts = files.map(function (f) { return String(f.text); });
  return providerText !== null
    ? callText(v.validationCheckServersWithProvider, [JSON.stringify(request), providerText, names, texts])
    : callText(v.validationCheckServers, [JSON.stringify(request), names, texts]);
}

/** A provider catalog checked by the core: {result: {provider: summary}} | {error}. */
export function validateProvider(text) {
  if (!core || typeof core.validateProvider !== 'function') return { error: { code: 'unsupported', message: 'validateProvider', path: '' } };
  return callText(core.validateProvider, [String(text)]);
}
