// SPDX-License-Identifier: MIT
// The parts of the form that come from the catalog and the last result: the task switch, the
// preset and GPU lists, each select's choices, the placeholders of blank boxes (the core's
// default, or the value it used: result.resolved_inputs and the price table's defaults_used), the
// preset's facts, and "fill the custom fields from the preset".
import { apiVersion, catalog, findGpu, findModel } from './core.js';
import { clear, h, pointerGet } from './dom.js';
import { fields, gpuSelect, kindOf, presetSelect, setUpFields, writeField } from './form.js';
import { editable, integer, isNum, tokensText } from './format.js';
import { t } from './i18n.js';
import { onResult } from './run.js';
import { buildTaskChoices, choiceLabel, defaultFor, keepChoice, schemaFor } from './schema.js';

let dynamicPlaceholders = {}; // request path -> value the core used, as shown in a blank box's placeholder
let resolvedInputs = {};      // result.resolved_inputs of the last result
// The accepted provider's own GPUs for the picker ({id, name, memory_gib}) and the provider's name.
let providerGpus = [];
let providerName = '';

/** Everything in the form that the catalog decides; again on a language switch (labels). */
export function populateCatalogInputs() {
  buildTaskChoices(document.getElementById('task-group'));
  setUpFields();

  const preset = presetSelect();
  const presetValue = preset.options.length ? preset.value : null; // none before the first fill
  clear(preset);
  catalog.models.forEach(function (m) {
    const p = m.params_total_b !== m.params_active_b
      ? t('model.params_moe_b', { total: m.params_total_b, active: m.params_active_b })
      : t('model.params_b', { total: m.params_total_b });
    preset.appendChild(h('option', { value: m.id, text: t('model.preset_option', { name: m.name, params: p }) }));
  });
  if (presetValue !== null) keepChoice(preset, presetValue);
  fillGpuList();

  document.getElementById('catalog-dates').textContent = t('footer.catalog', { gpus: catalog.gpus_as_of, models: catalog.models_as_of });
  document.getElementById('api-version').textContent = t('footer.api', { v: apiVersion });
  applyDynamicPlaceholders();
  renderPresetFacts();
}

/**
 * The accepted provider's own GPUs ({id, name, memory_gib}; js/provider.js) and its name: the
 * picker lists them in a group of their own (refilled when they change).
 */
export function setProviderGpus(gpus, name) {
  const changed = JSON.stringify(gpus.map(function (g) { return g.id; })) !== JSON.stringify(providerGpus.map(function (g) { return g.id; }));
  providerGpus = gpus;
  providerName = String(name || '');
  if (changed && catalog) fillGpuList();
}

/**
 * The GPU picker: the catalog's GPUs by vendor, then the accepted provider's own GPUs,
 * keeping the selected value (an id neither lists stays as itself).
 */
function fillGpuList() {
  const gpu = gpuSelect();
  const gpuValue = gpu.value;
  clear(gpu);
  gpu.appendChild(h('option', { value: '', text: t('hardware.none') }));
  const vendors = [];
  catalog.gpus.forEach(function (g) { if (vendors.indexOf(g.vendor) < 0) vendors.push(g.vendor); });
  vendors.forEach(function (v) {
    const group = h('optgroup', { label: v });
    catalog.gpus.forEach(function (g) {
      if (g.vendor !== v) return;
      group.appendChild(h('option', { value: g.id, text: t('hardware.option', { name: g.name, mem: g.memory_gib }) }));
    });
    gpu.appendChild(group);
  });
  const own = providerGpus.filter(function (g) { return !findGpu(g.id); });
  if (own.length) {
    const group = h('optgroup', { label: t('hardware.provider_group', { name: providerName }) });
    own.forEach(function (g) {
      group.appendChild(h('option', { value: g.id, dataset: { provider: '' },
        text: g.name ? t('hardware.option', { name: g.name, mem: g.memory_gib }) : g.id }));
    });
    gpu.appendChild(group);
  }
  keepChoice(gpu, gpuValue);
}

/** A value for a placeholder: token counts in 亿 / B (schema unit "tokens"), large counts grouped, no float noise. */
function display(path, v) {
  const e = schemaFor(path);
  if (!isNum(v)) return String(v);
  if (e && e.unit === 'tokens') return tokensText(v);
  return Math.abs(v) >= 1e5 && Number.isInteger(v) ? integer(v) : editable(v);
}

/** The number boxes: the generic fields whose kind is a number. */
function numberBoxes() {
  return fields().filter(function (f) {
    const kind = kindOf(f);
    return f.widget === 'box' && (kind === 'integer' || kind === 'number');
  });
}

/**
 * After a run: the value the core used for each blank box. result.resolved_inputs (request path
 * -> value) says it for the inputs it resolved; the price table's entries (override_path) for
 * prices and planning figures. A range when several entries share a path (3–4 kW).
 */
function updatePlaceholders(result) {
  const found = {};
  const entries = ((result.cost && result.cost.defaults_used) || []).concat((result.capacity && result.capacity.defaults_used) || []);
  entries.forEach(function (e) {
    if (!e.override_path || e.overridden || !isNum(e.value) || /^x\s/.test(String(e.unit))) return;
    const v = editable(e.value);
    found[e.override_path] = found[e.override_path] && found[e.override_path] !== v ? found[e.override_path] + '–' + v : v;
  });
  const resolved = result.resolved_inputs || {};
  Object.keys(resolved).forEach(function (path) {
    // Kept as the number: shown in the current language (a language switch reformats it).
    if (resolved[path] !== null && resolved[path] !== undefined) found[path] = { value: resolved[path] };
  });
  dynamicPlaceholders = found;
  resolvedInputs = resolved;
  applyDynamicPlaceholders();
}

onResult(function (r) { if (!r.error) updatePlaceholders(r.result); }, 'form');

/**
 * Each number box's placeholder: its own words (data-i18n-placeholder: "auto", "input + output"),
 * else "default x" from the core; after a run, the value the core used ("auto (now x)").
 */
export function applyDynamicPlaceholders() {
  const used = dynamicPlaceholders;
  numberBoxes().forEach(function (f) {
    const node = f.node;
    const own = node.getAttribute('data-i18n-placeholder');
    const d = defaultFor(f.path);
    let text = own ? t(own) : d === undefined || d === null ? '' : t('common.default_placeholder', { value: display(f.path, d) });
    if (Object.prototype.hasOwnProperty.call(used, f.path)) {
      const u = used[f.path];
      text = t(own ? 'common.auto_current' : 'common.default_placeholder', { value: u && typeof u === 'object' ? display(f.path, u.value) : u });
    }
    if (node.placeholder !== text) node.placeholder = text;
  });
  // A select on its "Auto" entry names the value the core chose ("Auto (now full)").
  const resolved = resolvedInputs;
  fields().forEach(function (f) {
    const auto = f.widget === 'select' ? f.node.querySelector('option[value=""]') : null;
    if (!auto) return;
    const v = resolved[f.path];
    const text = v === undefined || v === null || f.node.value !== '' ? auto.getAttribute('data-base')
      : t('common.auto_current', { value: choiceLabel(f.node, v) });
    if (auto.textContent !== text) auto.textContent = text;
  });
}

export function renderPresetFacts() {
  const m = findModel(presetSelect().value);
  const facts = document.getElementById('preset-facts');
  facts.textContent = m ? t('model.facts', {
    layers: m.layers, hidden: m.hidden, heads: m.heads, kv_heads: m.kv_heads,
    vocab: integer(m.vocab), ctx: integer(m.max_position_embeddings), as_of: m.as_of,
  }) : '';
  facts.title = m && m.source ? String(m.source) : '';
}

/** The custom-structure fields from the selected preset (a preset has the request's model keys). */
export function fillFieldsFromPreset() {
  const m = findModel(presetSelect().value);
  if (!m) return;
  fields().forEach(function (f) {
    if (f.mode !== 'fields') return;
    const v = f.path === '/model/name' ? t('model.custom_name', { name: m.name }) : pointerGet(m, f.path.replace(/^\/model/, ''));
    writeField(f, v);
  });
  document.getElementById('moe-details').open = Boolean(m.moe);
}
