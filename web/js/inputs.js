// SPDX-License-Identifier: MIT
// The catalog-driven parts of the form: preset and GPU lists, placeholders, preset facts.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { FIELDS, clear, editable, fieldFor, findModel, h, input, integer, isNum, params, pointerGet, t, tokensText } = UI;

  function populateCatalogInputs() {
    const presetValue = el.preset.value;
    clear(el.preset);
    state.catalog.models.forEach(function (m) {
      const p = m.params_total_b !== m.params_active_b
        ? t('model.params_moe_b', { total: m.params_total_b, active: m.params_active_b })
        : t('model.params_b', { total: m.params_total_b });
      el.preset.appendChild(h('option', { value: m.id, text: t('model.preset_option', { name: m.name, params: p }) }));
    });
    if (presetValue) el.preset.value = presetValue;

    const gpuValue = el.gpu.value;
    clear(el.gpu);
    el.gpu.appendChild(h('option', { value: '', text: t('hardware.none') }));
    const vendors = [];
    state.catalog.gpus.forEach(function (g) { if (vendors.indexOf(g.vendor) < 0) vendors.push(g.vendor); });
    vendors.forEach(function (v) {
      const group = h('optgroup', { label: v });
      state.catalog.gpus.forEach(function (g) {
        if (g.vendor !== v) return;
        group.appendChild(h('option', { value: g.id, text: t('hardware.option', { name: g.name, mem: g.memory_gib }) }));
      });
      el.gpu.appendChild(group);
    });
    el.gpu.value = gpuValue;

    // Blank boxes mean "the core's default": say which.
    FIELDS.forEach(function (f) {
      if (f.kind !== 'int') return;
      const node = input(f.key);
      const d = pointerGet(state.defaults, f.path);
      if (node && typeof d === 'number') node.placeholder = t('common.default_placeholder', { value: d });
    });
    el.catalogDates.textContent = t('footer.catalog', { gpus: state.catalog.gpus_as_of, models: state.catalog.models_as_of });
    el.apiVersion.textContent = t('footer.api', { v: state.apiVersion });
    renderPresetFacts();
  }

  // Blank boxes whose default the core only reports in its result (prices, planning figures, the
  // token budget it assumed): the placeholder shows the value the core used.
  const RESULT_PLACEHOLDERS = [
    { path: '/training/tokens', from: '/training/tokens', format: function (v) { return tokensText(v); } },
    { path: '/training/global_batch_size', from: '/training/global_batch_size' },
    { path: '/inference/max_model_len', from: '/inference/kv_cache/max_model_len' },
    { path: '/power/rack_kw', from: '/power/rack_kw' },
  ];

  function updatePlaceholders(result) {
    const found = {};
    const entries = ((result.cost && result.cost.defaults_used) || []).concat((result.capacity && result.capacity.defaults_used) || []);
    entries.forEach(function (e) {
      if (!e.override_path || e.overridden || !isNum(e.value) || /^x\s/.test(String(e.unit))) return;
      const v = editable(e.value);
      found[e.override_path] = found[e.override_path] && found[e.override_path] !== v ? found[e.override_path] + '–' + v : v;
    });
    RESULT_PLACEHOLDERS.forEach(function (p) {
      const v = pointerGet(result, p.from);
      if (isNum(v)) found[p.path] = p.format ? p.format(v) : editable(v);
      else delete state.dynamicPlaceholders[p.path];
    });
    Object.keys(found).forEach(function (path) { state.dynamicPlaceholders[path] = found[path]; });
    applyDynamicPlaceholders();
  }

  /** The placeholder a number box has without a result: its i18n text, the core's default, or the HTML's. */
  function resetPlaceholders() {
    FIELDS.forEach(function (f) {
      const node = f.kind === 'int' ? input(f.key) : null;
      if (!node) return;
      if (node.dataset.htmlPlaceholder === undefined) node.dataset.htmlPlaceholder = node.getAttribute('placeholder') || '';
      const d = state.defaults ? pointerGet(state.defaults, f.path) : undefined;
      if (node.hasAttribute('data-i18n-placeholder')) node.placeholder = t(node.getAttribute('data-i18n-placeholder'));
      else if (typeof d === 'number') node.placeholder = t('common.default_placeholder', { value: d });
      else node.placeholder = node.dataset.htmlPlaceholder;
    });
  }

  function applyDynamicPlaceholders() {
    resetPlaceholders();
    Object.keys(state.dynamicPlaceholders).forEach(function (path) {
      const f = fieldFor(path);
      const node = f && f.kind === 'int' ? input(f.key) : null;
      if (!node) return;
      const v = state.dynamicPlaceholders[path];
      node.placeholder = node.hasAttribute('data-i18n-placeholder') ? t('common.auto_current', { value: v }) : t('common.default_placeholder', { value: v });
    });
  }

  function renderPresetFacts() {
    const m = findModel(el.preset.value);
    el.presetFacts.textContent = m ? t('model.facts', {
      layers: m.layers, hidden: m.hidden, heads: m.heads, kv_heads: m.kv_heads,
      vocab: integer(m.vocab), ctx: integer(m.max_position_embeddings), as_of: m.as_of,
    }) : '';
    el.presetFacts.title = m && m.source ? String(m.source) : '';
  }

  Object.assign(UI, { applyDynamicPlaceholders, populateCatalogInputs, renderPresetFacts, updatePlaceholders });
})();
