// SPDX-License-Identifier: MIT
// The page's entry (scripts/bundle.cjs bundles it, with every module it imports, into one
// script): the result sections in display order, the host side of an embedding, a provider
// catalog named in the address, window.gpuAdvisor, and the start.
import { api, startPage } from './app.js';
import { hideDefaultAnswerForLink } from './boot.js';
import { catalog, coreModule, findGpu, hasValidation } from './core.js';
import { pointerGet, pointerSet, setTimingHook, showCopyBox } from './dom.js';
import { startEmbed } from './embed.js';
import { csvCell } from './export.js';
import { parseUntrustedJson, shareLink } from './hash.js';
import { redrawPanels, registerPanel } from './panel.js';
import { pinPlan } from './plans.js';
import { loadFromQuery } from './provider.js';
import { SCENARIOS } from './scenarios.js';
import answer from './panels/answer.js';
import breakdown from './panels/breakdown.js';
import capacity from './panels/capacity.js';
import compare from './panels/compare.js';
import cost from './panels/cost.js';
import options from './panels/options.js';
import power from './panels/power.js';
import prices from './panels/prices.js';
import request from './panels/request.js';
import serving from './panels/serving.js';
import sites from './panels/sites.js';
import summary from './panels/summary.js';
import training from './panels/training.js';
import validation from './panels/validation.js';
import warnings from './panels/warnings.js';

hideDefaultAnswerForLink();

[answer, compare, summary, breakdown, training, serving, options, power, cost, sites, prices, capacity, warnings, validation, request]
  .forEach(registerPanel);

// What the tests and benchmarks reach into (tests/browser/*.cjs, bench/page_bench.cjs): not an API.
api.internals = Object.freeze({
  get catalog() { return catalog; },
  scenarios: SCENARIOS.map(function (s) { return s.id; }),
  coreModule: coreModule,
  csvCell: csvCell,
  findGpu: findGpu,
  hasValidation: hasValidation,
  onTiming: setTimingHook,
  parseUntrustedJson: parseUntrustedJson,
  pinPlan: pinPlan,
  pointerGet: pointerGet,
  pointerSet: pointerSet,
  redrawPanels: redrawPanels,
  shareLink: shareLink,
  showCopyBox: showCopyBox,
});
window.gpuAdvisor = api;

startEmbed();
loadFromQuery();
startPage();
