// SPDX-License-Identifier: MIT
// The form <-> the request. The inputs are found in the markup: every [data-key] control inside a
// .field[data-path] is read into the request at that path, unless it has code of its own here
// (data-custom: preset, pasted config, GPU, count, LoRA targets). What a field holds (a number, a
// choice, a boolean, text), which tasks it applies to and its choices come from the core's form
// schema (schema.js); the markup only says which widget shows it.
import { catalog, defaults } from './core.js';
import { clear, h, pointerGet, pointerSet } from './dom.js';
import { readTyped } from './format.js';
import { t } from './i18n.js';
import { readMonths, writeMonths } from './months.js';
import { advisorDecides, appliesTo, defaultFor, fillSelect, keepChoice, keepTask, mayOmit, rangeText, schemaFor, setSelect, taskIds, typedOptions } from './schema.js';

// The request version this page writes and reads (docs/api.md "schema"); a link of another is
// refused (hash.js) rather than sent as this one.
export const SCHEMA_VERSION = 1;

const CUSTOM_TARGETS = 'custom'; // the LoRA-targets entry that shows the per-module boxes
const LORA_TARGETS = '/training/lora_targets';
const MONTHS = '/cost/monthly_demand_gpu_hours';

// The forms whose .field[data-path] inputs make the request: the inputs column and the goal bar
// above the answer.
export const FORMS = ['#inputs', '#goal-form'];

// Request path -> value typed into the price table for a path with no form input (applyRequest
// rebuilds them from a request; buildRequest lays them over the form's values).
let overrides = Object.create(null);

/** Sets the value the request carries at `path` (a price-table edit); undefined removes it. */
export function setOverride(path, value) {
  if (value === undefined) delete overrides[path];
  else overrides[path] = value;
}

// The inputs with code of their own (data-custom), looked up when used (the pre-rendered body is
// swapped for the written one at start-up).
export function presetSelect() { return document.getElementById('in-preset'); }
export function gpuSelect() { return document.getElementById('in-gpu'); }
function hfBox() { return document.getElementById('in-hf'); }
function loraChecks() { return document.getElementById('lora-target-checks'); }

let FIELDS = null;

/** The generic inputs: [{key, path, node, widget: 'checkbox'|'select'|'box', mode, budget}]. */
export function fields() {
  if (FIELDS) return FIELDS;
  FIELDS = [];
  document.querySelectorAll(FORMS.map(function (f) { return f + ' .field[data-path] [data-key]'; }).join(', ')).forEach(function (node) {
    if (node.hasAttribute('data-custom')) return;
    const pane = node.closest('.mode-pane');
    const budget = node.closest('[data-budget]');
    FIELDS.push({
      key: node.getAttribute('data-key'),
      path: node.closest('.field[data-path]').getAttribute('data-path'),
      node: node,
      widget: node.type === 'checkbox' ? 'checkbox' : node.tagName === 'SELECT' ? 'select' : 'box',
      mode: pane ? pane.getAttribute('data-mode') : null,
      budget: budget ? budget.getAttribute('data-budget') : null,
    });
  });
  return FIELDS;
}

export function fieldFor(path) {
  return fields().filter(function (f) { return f.path === path; })[0] || null;
}

/** integer | number | choice | boolean | text: the schema's, else what the widget and default say. */
export function kindOf(f) {
  const e = schemaFor(f.path);
  if (e && e.kind) return e.kind;
  if (f.widget === 'checkbox') return 'boolean';
  const d = defaultFor(f.path);
  if (typeof d === 'number') return 'number';
  if (typeof d === 'boolean') return 'boolean';
  if (f.widget === 'select') return 'choice';
  return f.node.tagName === 'INPUT' && f.node.hasAttribute('inputmode') ? 'number' : 'text';
}

function isNumberKind(kind) { return kind === 'integer' || kind === 'number'; }

export function input(key) { return document.querySelector('[data-key="' + key + '"]'); }

function checkedValue(name) {
  const r = document.querySelector('input[name="' + name + '"]:checked');
  return r ? r.value : null;
}

function setChecked(name, value) {
  document.querySelectorAll('input[name="' + name + '"]').forEach(function (r) { r.checked = r.value === value; });
}

/** What the user typed into a number box: a number, omitted, or the text for the core to reject. */
// "60%", "3000亿", "7万", full-width digits and thousands separators are read (format.js
// parseNumberInput); text still unreadable goes to the core, which names the field and why.
export function readInt(node, fraction) {
  let opts = { fraction: Boolean(fraction), money: false };
  if (fraction === undefined && node.closest) {
    const holder = node.closest('.field[data-path]');
    if (holder) opts = typedOptions(holder.getAttribute('data-path'));
  }
  return readTyped(node.value, opts);
}

/** A field's value for the request; undefined leaves the key out (the core's default applies). */
function readField(f) {
  const node = f.node, kind = kindOf(f);
  if (f.widget === 'checkbox') return node.checked;
  if (f.widget === 'select') {
    if (node.value === '') return undefined;
    if (kind === 'boolean') return node.value === 'true';
    return isNumberKind(kind) ? Number(node.value) : node.value;
  }
  if (isNumberKind(kind)) return readInt(node);
  return node.value.trim() === '' ? undefined : node.value;
}

/** Whether the field may leave its key out (a select marked data-always always sends its value). */
export function mayOmitField(f) {
  return mayOmit(f.path) && !f.node.hasAttribute('data-always');
}

/** Shows a value; a select or checkbox the request leaves out shows the core's default for the task (or Auto). */
export function writeField(f, value, task) {
  let v = value;
  // A checkbox is always sent, so it always shows the core's default when the request leaves it out.
  if ((v === undefined || v === null) && (f.widget === 'checkbox' || (f.widget !== 'box' && !mayOmitField(f)))) v = defaultFor(f.path, task);
  if (f.widget === 'checkbox') f.node.checked = Boolean(v);
  else if (f.widget === 'select') setSelect(f.node, v);
  else f.node.value = v === undefined || v === null ? '' : String(v);
}

/** Puts the schema's choices into every select, and its ranges on number boxes (after load and on a language switch). */
export function setUpFields() {
  shownFor = null; // the schema may be another: every field shown again by the next run
  fields().forEach(function (f) {
    if (f.widget === 'select') fillSelect(f.node, f.path, currentTask());
    else if (f.widget === 'box') f.node.title = rangeText(f.path);
  });
  // LoRA targets (kind "modules"): a box per module the core knows, for the custom choice.
  const e = schemaFor(LORA_TARGETS);
  if (e && Array.isArray(e.choices)) {
    const boxes = loraChecks();
    const checked = {};
    boxes.querySelectorAll('input:checked').forEach(function (b) { checked[b.value] = true; });
    clear(boxes);
    e.choices.forEach(function (m) {
      boxes.appendChild(h('label', null, h('input', { type: 'checkbox', value: String(m), checked: Boolean(checked[m]) }), String(m)));
    });
  }
  countPlaceholder();
}

/** The GPU-count box says what an empty box means for the task: 1, or the advisor's choice (pretraining). */
function countPlaceholder() {
  const count = input('hw.count');
  if (!count) return;
  const d = defaultFor('/hardware/count', currentTask());
  const text = typeof d === 'number' ? t('common.default_placeholder', { value: d }) : t('common.auto_placeholder');
  if (count.placeholder !== text) count.placeholder = text;
}

function currentTask() {
  const checked = checkedValue('task');
  return checked !== null ? checked : (defaults && defaults.task) || '';
}

function modelMode() { return checkedValue('model_mode') || 'preset'; }

// An encoder-decoder's decoder tokens: an input for T5-style models only (the core refuses it
// for a decoder-only model).
const TARGET_LENGTH = '/training/target_length';

/** Whether the model in the form is an encoder-decoder (a preset's, typed or pasted fields). */
function encoderDecoder() {
  const mode = modelMode();
  if (mode === 'preset') {
    const m = ((catalog && catalog.models) || []).filter(function (x) { return x.id === presetSelect().value; })[0];
    return Boolean(m && m.encoder_layers > 0);
  }
  if (mode === 'hf_config') return /"model_type"\s*:\s*"u?m?t5"/.test(hfBox().value);
  const layers = input('m.encoder_layers');
  return Boolean(layers && Number(layers.value) > 0);
}

export function buildRequest() {
  const task = currentTask();
  const mode = modelMode();
  const req = { schema: SCHEMA_VERSION, task: task };
  if (mode === 'preset') req.model = { preset: presetSelect().value };
  else if (mode === 'hf_config') req.model = { hf_config: hfBox().value };
  else req.model = {};
  const budget = input('t.budget_mode').value;
  fields().forEach(function (f) {
    if (f.mode && f.mode !== mode) return;
    if (!appliesTo(f.path, task)) return;
    if (f.budget && f.budget !== budget) return;
    if (f.path === TARGET_LENGTH && !encoderDecoder()) return;
    const v = readField(f);
    if (v !== undefined) pointerSet(req, f.path, v);
  });
  if (appliesTo(LORA_TARGETS, task)) {
    const targets = input('t.lora_targets_mode').value;
    pointerSet(req, LORA_TARGETS, targets !== CUSTOM_TARGETS ? targets
      : Array.prototype.map.call(loraChecks().querySelectorAll('input:checked'), function (b) { return b.value; }));
  }
  // A count without a GPU (only a link leaves one: choosing "none" empties the box) is sent as
  // it is, and the core asks for the GPU at its input.
  const gpu = gpuSelect().value;
  const count = readInt(input('hw.count'));
  // Deployment and place (fields above) are pinned with a GPU only; a power limit without one
  // is sent, like a count, for the core to ask for the GPU.
  const limit = req.hardware && req.hardware.power_limit_w;
  if (gpu || count !== undefined || limit !== undefined) {
    req.hardware = req.hardware || {};
    if (gpu) req.hardware.gpu = gpu;
    if (count !== undefined) req.hardware.count = count;
  } else {
    delete req.hardware;
  }
  const months = readMonths();
  if (months) pointerSet(req, MONTHS, months);
  Object.keys(overrides).forEach(function (path) { pointerSet(req, path, overrides[path]); });
  return req;
}

/** Puts a request (the core's default, or one restored from a link) into the form. */
export function applyRequest(req) {
  // A task, preset or GPU this page does not list stays as itself (keepTask, keepChoice).
  keepTask(req.task !== undefined ? req.task : currentTask());
  const model = req.model || {};
  let mode = 'fields';
  if (Object.prototype.hasOwnProperty.call(model, 'preset')) mode = 'preset';
  else if (Object.prototype.hasOwnProperty.call(model, 'hf_config')) mode = 'hf_config';
  setChecked('model_mode', mode);
  if (mode === 'preset') keepChoice(presetSelect(), String(model.preset));
  if (mode === 'hf_config') {
    hfBox().value = typeof model.hf_config === 'string' ? model.hf_config : JSON.stringify(model.hf_config, null, 2);
  }
  const task = currentTask();
  const knownTask = taskIds().indexOf(task) >= 0;
  fields().forEach(function (f) {
    if (f.mode && f.mode !== mode) return;
    // An input the request's task has no use for shows its own default (the page never sends
    // it); under a task the page does not know, the link's values wait for the task the user picks.
    const given = pointerGet(req, f.path);
    writeField(f, appliesTo(f.path, task) || (!knownTask && given !== undefined) ? given : defaultFor(f.path, task), task);
  });
  const targets = pointerGet(req, LORA_TARGETS);
  const targetSelect = input('t.lora_targets_mode');
  if (Array.isArray(targets)) {
    targetSelect.value = CUSTOM_TARGETS;
    loraChecks().querySelectorAll('input').forEach(function (b) { b.checked = targets.indexOf(b.value) >= 0; });
  } else {
    setSelect(targetSelect, typeof targets === 'string' ? targets : defaultFor(LORA_TARGETS) || targetSelect.options[0].value);
  }
  const hw = req.hardware;
  keepChoice(gpuSelect(), hw && hw.gpu ? String(hw.gpu) : '');
  input('hw.count').value = hw && hw.count !== undefined ? String(hw.count) : '';
  const budgetBoxes = fields().filter(function (f) { return f.budget; });
  const given = budgetBoxes.filter(function (f) { const v = pointerGet(req, f.path); return v !== undefined && v !== null; })[0];
  const budgetMode = input('t.budget_mode');
  budgetMode.value = given ? given.budget : budgetMode.options[0].value;
  writeMonths(pointerGet(req, MONTHS));
  // What the form has no input for (price-table edits, a job list given as JSON) is kept as an override.
  overrides = Object.create(null);
  const covered = Object.create(null);
  fields().forEach(function (f) { covered[f.path] = true; });
  const own = ['/schema', '/task', '/model', '/hardware', LORA_TARGETS, MONTHS];
  collectLeaves(req, '', function (path, value) {
    if (covered[path] || own.some(function (p) { return path === p || path.indexOf(p + '/') === 0; })) return;
    if (JSON.stringify(value) === JSON.stringify(pointerGet(defaults, path))) return; // the core's own default
    overrides[path] = value;
  });
  updateVisibility();
}

/** Calls fn(path, value) for each leaf (non-object value; arrays are leaves) under obj. */
function collectLeaves(obj, base, fn) {
  if (obj === undefined) return;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) { fn(base, obj); return; }
  Object.keys(obj).forEach(function (k) { collectLeaves(obj[k], base + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), fn); });
}

/** The form's starting request: the core's default request, less the keys the advisor decides (Auto). */
export function startRequest() {
  const req = JSON.parse(JSON.stringify(defaults));
  collectLeaves(req, '', function (path) {
    if (advisorDecides(path)) {
      const cut = path.lastIndexOf('/');
      const parent = pointerGet(req, path.slice(0, cut));
      if (parent && typeof parent === 'object') delete parent[path.slice(cut + 1)];
    }
  });
  return req;
}

/**
 * After the user switches the task: a select whose choices depend on it (the stack) goes back to
 * Auto when its value is not one of the new task's (a training stack has no meaning for serving).
 */
export function dropChoicesOfOtherTask() {
  const task = currentTask();
  fields().forEach(function (f) {
    const e = f.widget === 'select' ? schemaFor(f.path) : null;
    const offered = e && e.choices_by_task && e.choices_by_task[task];
    if (Array.isArray(offered) && f.node.value !== '' && offered.indexOf(f.node.value) < 0) f.node.value = '';
  });
}

/** node.hidden = hidden, written only when it changes (each write costs a style invalidation). */
function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

// The task, model mode, budget mode and model kind the inputs were last shown for: walking every
// field and group again (~1 ms of each input change) only when one of them changed.
let shownFor = null;

/** Shows the inputs of the current task, model mode and budget mode; a group with none left is hidden. */
export function updateVisibility() {
  const task = currentTask();
  const mode = modelMode();
  const budget = input('t.budget_mode').value;
  const seq2seq = encoderDecoder();
  const key = [task, mode, budget, seq2seq].join('|');
  if (key !== shownFor) {
    shownFor = key;
    showFieldsFor(task, mode, budget, seq2seq);
  }
  setHidden(loraChecks(), input('t.lora_targets_mode').value !== CUSTOM_TARGETS);
  // Selects whose choices depend on the task (the stack) offer the current task's.
  if (document.body.getAttribute('data-task') !== task) {
    fields().forEach(function (f) {
      const e = f.widget === 'select' ? schemaFor(f.path) : null;
      if (e && e.choices_by_task) fillSelect(f.node, f.path, task);
    });
  }
  // The count needs a GPU; a count a link gave without one stays editable (the core's error is there).
  const count = input('hw.count');
  const off = !gpuSelect().value && count.value === '';
  if (count.disabled !== off) count.disabled = off;
  countPlaceholder();
  if (document.body.getAttribute('data-task') !== task) document.body.setAttribute('data-task', task);
}

/** The fields, their groups and the model-mode panes shown for a task, model mode, budget mode and model kind. */
function showFieldsFor(task, mode, budget, seq2seq) {
  document.querySelectorAll(FORMS.map(function (f) { return f + ' .field[data-path]'; }).join(', ')).forEach(function (node) {
    const b = node.getAttribute('data-budget');
    const path = node.getAttribute('data-path');
    setHidden(node, !appliesTo(path, task) || Boolean(b && b !== budget) || (path === TARGET_LENGTH && !seq2seq));
  });
  document.querySelectorAll('#inputs .group').forEach(function (group) {
    // An input shown for every task (the task radios, not a .field) keeps its group, even
    // under a task the page does not know.
    if (group.querySelector('[data-path]:not(.field)')) { setHidden(group, false); return; }
    const known = Array.prototype.filter.call(group.querySelectorAll('.field[data-path]'), function (n) {
      return schemaFor(n.getAttribute('data-path'));
    });
    setHidden(group, known.length > 0 && known.every(function (n) { return n.hidden; }));
  });
  document.querySelectorAll('.mode-pane').forEach(function (node) {
    setHidden(node, node.getAttribute('data-mode') !== mode);
  });
}
