// SPDX-License-Identifier: MIT
// GPU Advisor page: reads the form into a request, hands it to the wasm core, renders the result.
//
// Rules this file keeps (see shared/style/anchors.md §7-8):
//  - It computes no figure. Every number shown comes from the core's result; the page only
//    formats units (bytes -> GiB, parameter counts -> B/M) and lays bars out in proportion.
//  - Defaults come from the core (catalog().default_request), not from a copy kept here.
//  - Nothing from the core or the catalogs goes through innerHTML: text is set with textContent.
//  - Every displayed figure carries its raw value in data-bytes / data-value and its place in
//    the result as a JSON pointer in data-field, so tests can compare it with the native CLI.
//
// Extending: a new result section is one entry in PANELS (or a call to
// window.gpuAdvisor.registerPanel) with its own render function; a new input is one entry in
// FIELDS plus its element in index.html.
(function () {
  'use strict';

  const STRINGS = window.GPU_ADVISOR_I18N || {};
  const DEFAULT_LANG = 'zh-CN';
  const GIB = 1024 * 1024 * 1024;
  const DEBOUNCE_MS = 30;
  const TERMS = ['weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'];
  const TRAINING = ['pretrain', 'full_finetune', 'lora', 'qlora'];
  const ADAPTER = ['lora', 'qlora'];
  const ALL_TASKS = TRAINING.concat(['inference']);
  const LORA_MODULES = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];
  const CHINA_ORDER = ['domestic', 'china-specific', 'not-known-restricted',
    'license-required-case-by-case', 'license-required'];
  const VERDICT_ORDER = ['fits_on_one', 'needs_multiple', 'does_not_fit'];

  // Simple inputs: element data-key -> place in the request. kind:
  //   choice: a <select> whose value is sent as is;   intchoice: a <select> sent as a number;
  //   int: a text box, blank = omitted (the core's default applies), numbers sent as numbers,
  //        anything else sent as typed so the core can say what is wrong with it;
  //   text: a text box, blank = omitted;  bool: a checkbox;
  //   optchoice / tristate: a <select> whose "" option (Auto) omits the key; tristate sends booleans.
  // tasks: the tasks the input applies to; mode: the model-input mode it belongs to.
  const FIELDS = [
    { key: 't.precision', path: '/training/precision', kind: 'choice', tasks: TRAINING },
    { key: 't.optimizer', path: '/training/optimizer', kind: 'choice', tasks: TRAINING },
    { key: 't.sequence_length', path: '/training/sequence_length', kind: 'int', tasks: TRAINING },
    { key: 't.micro_batch_size', path: '/training/micro_batch_size', kind: 'int', tasks: TRAINING },
    { key: 't.activation_checkpointing', path: '/training/activation_checkpointing', kind: 'optchoice', tasks: TRAINING },
    { key: 't.flash_attention', path: '/training/flash_attention', kind: 'bool', tasks: TRAINING },
    { key: 't.sequence_parallel', path: '/training/sequence_parallel', kind: 'bool', tasks: TRAINING },
    { key: 't.lora_rank', path: '/training/lora_rank', kind: 'int', tasks: ADAPTER },
    { key: 't.base_quantization', path: '/training/base_quantization', kind: 'choice', tasks: ['qlora'] },
    { key: 't.off.optimizer', path: '/training/cpu_offload/optimizer', kind: 'bool', tasks: TRAINING },
    { key: 't.off.parameters', path: '/training/cpu_offload/parameters', kind: 'bool', tasks: TRAINING },
    { key: 'acc.master_weights', path: '/training/accounting/master_weights', kind: 'tristate', tasks: TRAINING },
    { key: 'acc.gradient_dtype', path: '/training/accounting/gradient_dtype', kind: 'optchoice', tasks: TRAINING },
    { key: 'acc.optimizer_state_dtype', path: '/training/accounting/optimizer_state_dtype', kind: 'optchoice', tasks: TRAINING },
    { key: 'acc.fused_cross_entropy', path: '/training/accounting/fused_cross_entropy', kind: 'tristate', tasks: TRAINING },
    // HOOK(speed): training / inference performance inputs go here
    { key: 'i.weight_format', path: '/inference/weight_format', kind: 'choice', tasks: ['inference'] },
    { key: 'i.kv_cache_precision', path: '/inference/kv_cache_precision', kind: 'choice', tasks: ['inference'] },
    { key: 'i.concurrency', path: '/inference/concurrency', kind: 'int', tasks: ['inference'] },
    { key: 'i.prompt_tokens', path: '/inference/prompt_tokens', kind: 'int', tasks: ['inference'] },
    { key: 'i.output_tokens', path: '/inference/output_tokens', kind: 'int', tasks: ['inference'] },
    { key: 'p.zero', path: '/parallelism/zero', kind: 'intchoice', tasks: TRAINING },
    { key: 'p.tp', path: '/parallelism/tp', kind: 'int', tasks: ALL_TASKS },
    { key: 'p.pp', path: '/parallelism/pp', kind: 'int', tasks: ALL_TASKS },
    { key: 'p.ep', path: '/parallelism/ep', kind: 'int', tasks: ALL_TASKS },
    // HOOK(cost): power / price inputs go here
    { key: 'm.name', path: '/model/name', kind: 'text', mode: 'fields' },
    { key: 'm.layers', path: '/model/layers', kind: 'int', mode: 'fields' },
    { key: 'm.hidden', path: '/model/hidden', kind: 'int', mode: 'fields' },
    { key: 'm.ffn_hidden', path: '/model/ffn_hidden', kind: 'int', mode: 'fields' },
    { key: 'm.heads', path: '/model/heads', kind: 'int', mode: 'fields' },
    { key: 'm.kv_heads', path: '/model/kv_heads', kind: 'int', mode: 'fields' },
    { key: 'm.head_dim', path: '/model/head_dim', kind: 'int', mode: 'fields' },
    { key: 'm.vocab', path: '/model/vocab', kind: 'int', mode: 'fields' },
    { key: 'm.max_position_embeddings', path: '/model/max_position_embeddings', kind: 'int', mode: 'fields' },
    { key: 'm.mlp', path: '/model/mlp', kind: 'choice', mode: 'fields' },
    { key: 'm.tied_embeddings', path: '/model/tied_embeddings', kind: 'bool', mode: 'fields' },
    { key: 'moe.experts', path: '/model/moe/experts', kind: 'int', mode: 'fields' },
    { key: 'moe.experts_per_token', path: '/model/moe/experts_per_token', kind: 'int', mode: 'fields' },
    { key: 'moe.expert_ffn_hidden', path: '/model/moe/expert_ffn_hidden', kind: 'int', mode: 'fields' },
    { key: 'moe.shared_experts', path: '/model/moe/shared_experts', kind: 'int', mode: 'fields' },
    { key: 'moe.dense_layers', path: '/model/moe/dense_layers', kind: 'int', mode: 'fields' },
  ];

  const state = {
    lang: DEFAULT_LANG,
    core: null,
    catalog: null,
    defaults: null,
    lastRequest: null,
    lastResult: null,
    lastError: null,
    timer: null,
    ownHash: '',
    sort: { key: null, dir: 1 },
  };

  // The handle tests and embedders use. lastRequest is a copy of the request last sent.
  const api = {
    ready: false,
    pending: false,
    runs: 0,
    lastRequest: null,
    lastResult: null,
    lastError: null,
    registerPanel: registerPanel,
    recompute: function () { run(); },
    setLanguage: function (lang) { setLanguage(lang); },
  };
  window.gpuAdvisor = api;

  const el = {};

  // ------------------------------------------------------------------ i18n

  function t(key, vars) {
    const table = STRINGS[state.lang] || {};
    let s = Object.prototype.hasOwnProperty.call(table, key) ? table[key]
      : (STRINGS[DEFAULT_LANG] && STRINGS[DEFAULT_LANG][key]);
    if (s === undefined) return key;
    if (vars) {
      s = s.replace(/\{(\w+)\}/g, function (m, name) {
        return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : m;
      });
    }
    return s;
  }

  function hasString(key) {
    return Boolean((STRINGS[state.lang] || {})[key] || (STRINGS[DEFAULT_LANG] || {})[key]);
  }

  /** Like t(), but a value may be a DOM node: returns the pieces to append, in order. */
  function tNodes(key, vars) {
    const parts = t(key).split(/\{(\w+)\}/);
    return parts.map(function (part, i) {
      if (i % 2 === 0) return part;
      return Object.prototype.hasOwnProperty.call(vars, part) ? vars[part] : '{' + part + '}';
    });
  }

  function applyStaticStrings() {
    document.documentElement.lang = state.lang;
    document.title = t('app.title');
    document.querySelectorAll('[data-i18n]').forEach(function (node) {
      node.textContent = t(node.getAttribute('data-i18n'));
    });
    document.querySelectorAll('[data-i18n-placeholder]').forEach(function (node) {
      node.placeholder = t(node.getAttribute('data-i18n-placeholder'));
    });
    document.querySelectorAll('.lang-btn').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-lang') === state.lang));
    });
  }

  // ------------------------------------------------------------ formatting

  function numberFormat(value, decimals) {
    return new Intl.NumberFormat(state.lang === 'en' ? 'en-US' : 'zh-CN', {
      minimumFractionDigits: decimals, maximumFractionDigits: decimals,
    }).format(value);
  }

  /** bytes -> GiB text: 1 decimal from 100 GiB, 2 below, 4 under 0.01 GiB, "0" for zero. */
  function gib(bytes) {
    const v = bytes / GIB;
    const a = Math.abs(v);
    if (v === 0) return '0';
    return numberFormat(v, a >= 100 ? 1 : a >= 0.01 ? 2 : 4);
  }

  function integer(n) { return numberFormat(n, 0); }

  /** A capacity in GiB without trailing zeros ("80", "94", "141"). */
  function gibCompact(bytes) {
    return new Intl.NumberFormat(state.lang === 'en' ? 'en-US' : 'zh-CN', { maximumFractionDigits: 2 })
      .format(bytes / GIB);
  }

  /** parameter count -> "8.03" (billions) or "13.6M" style text */
  function params(n) {
    if (n === null || n === undefined) return '—';
    if (Math.abs(n) >= 1e9) return numberFormat(n / 1e9, 2) + 'B';
    if (Math.abs(n) >= 1e6) return numberFormat(n / 1e6, 1) + 'M';
    if (Math.abs(n) >= 1e3) return numberFormat(n / 1e3, 1) + 'K';
    return integer(n);
  }

  function billions(n) { return numberFormat(n / 1e9, 2); }

  // ---------------------------------------------------------------- DOM

  function h(tag, props) {
    const node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        const v = props[k];
        if (v === null || v === undefined || v === false) return;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = v;
        else if (k === 'dataset') Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
        else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'string' || typeof child === 'number'
      ? document.createTextNode(String(child)) : child);
  }

  function svg(tag, attrs) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /** A figure in GiB that carries its raw byte count and its place in the result. */
  function bytesFigure(bytes, field, cls, compact) {
    return h('span', { class: 'fig ' + (cls || ''), dataset: { field: field, bytes: String(bytes) } },
      compact ? gibCompact(bytes) : gib(bytes), h('span', { class: 'unit', text: ' GiB' }));
  }

  /** A plain figure with its raw value. */
  function valueFigure(value, field, text, cls) {
    return h('span', { class: 'fig ' + (cls || ''), dataset: { field: field, value: String(value) } },
      text === undefined ? String(value) : text);
  }

  function toast(message) {
    el.toast.textContent = message;
    el.toast.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.toast.hidden = true; }, 2200);
  }

  // ------------------------------------------------------- JSON pointers

  function pointerSet(obj, path, value) {
    const parts = path.split('/').slice(1);
    let o = obj;
    for (let i = 0; i < parts.length - 1; i++) {
      if (typeof o[parts[i]] !== 'object' || o[parts[i]] === null) o[parts[i]] = {};
      o = o[parts[i]];
    }
    o[parts[parts.length - 1]] = value;
  }

  function pointerGet(obj, path) {
    const parts = path.split('/').slice(1);
    let o = obj;
    for (let i = 0; i < parts.length; i++) {
      if (o === null || typeof o !== 'object') return undefined;
      o = o[parts[i]];
    }
    return o;
  }

  // ------------------------------------------------------ form <-> request

  function input(key) { return document.querySelector('[data-key="' + key + '"]'); }

  function checkedValue(name) {
    const r = document.querySelector('input[name="' + name + '"]:checked');
    return r ? r.value : null;
  }

  function setChecked(name, value) {
    document.querySelectorAll('input[name="' + name + '"]').forEach(function (r) {
      r.checked = r.value === value;
    });
  }

  /** What the user typed into a number box: a number, omitted, or the text for the core to reject. */
  function readInt(node) {
    const raw = node.value.trim();
    if (raw === '') return undefined;
    const cleaned = raw.replace(/[,_\s]/g, '');
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(cleaned)) return Number(cleaned);
    return raw;
  }

  function readField(f) {
    const node = input(f.key);
    if (!node) return undefined;
    switch (f.kind) {
      case 'bool': return node.checked;
      case 'int': return readInt(node);
      case 'intchoice': return Number(node.value);
      case 'text': return node.value.trim() === '' ? undefined : node.value;
      case 'optchoice': return node.value === '' ? undefined : node.value;
      case 'tristate': return node.value === '' ? undefined : node.value === 'true';
      default: return node.value;
    }
  }

  function writeField(f, value) {
    const node = input(f.key);
    if (!node) return;
    switch (f.kind) {
      case 'bool': node.checked = Boolean(value); break;
      case 'int': case 'text':
        node.value = value === undefined || value === null ? '' : String(value); break;
      case 'optchoice': case 'tristate':
        node.value = value === undefined || value === null ? '' : String(value); break;
      default:
        if (value !== undefined && value !== null) node.value = String(value);
    }
  }

  function modelMode() { return checkedValue('model_mode') || 'preset'; }

  function buildRequest() {
    const task = checkedValue('task') || 'full_finetune';
    const mode = modelMode();
    const req = { schema: 1, task: task };
    if (mode === 'preset') req.model = { preset: el.preset.value };
    else if (mode === 'hf_config') req.model = { hf_config: el.hf.value };
    else req.model = {};
    FIELDS.forEach(function (f) {
      if (f.mode && f.mode !== mode) return;
      if (f.tasks && f.tasks.indexOf(task) < 0) return;
      const v = readField(f);
      if (v !== undefined) pointerSet(req, f.path, v);
    });
    if (ADAPTER.indexOf(task) >= 0) {
      const targets = input('t.lora_targets_mode').value;
      if (targets === 'custom') {
        pointerSet(req, '/training/lora_targets', LORA_MODULES.filter(function (m) {
          const box = el.loraChecks.querySelector('input[value="' + m + '"]');
          return box && box.checked;
        }));
      } else {
        pointerSet(req, '/training/lora_targets', targets);
      }
    }
    const gpu = el.gpu.value;
    if (gpu) {
      req.hardware = { gpu: gpu };
      const count = readInt(input('hw.count'));
      if (count !== undefined) req.hardware.count = count;
    }
    // HOOK(speed): cluster inputs; HOOK(cost): price inputs
    return req;
  }

  /** Puts a request (the core's default, or one restored from a link) into the form. */
  function applyRequest(req) {
    setChecked('task', req.task || 'full_finetune');
    const model = req.model || {};
    let mode = 'fields';
    if (Object.prototype.hasOwnProperty.call(model, 'preset')) mode = 'preset';
    else if (Object.prototype.hasOwnProperty.call(model, 'hf_config')) mode = 'hf_config';
    setChecked('model_mode', mode);
    if (mode === 'preset') el.preset.value = String(model.preset);
    if (mode === 'hf_config') {
      el.hf.value = typeof model.hf_config === 'string' ? model.hf_config
        : JSON.stringify(model.hf_config, null, 2);
    }
    FIELDS.forEach(function (f) {
      if (f.mode && f.mode !== mode) return;
      let v = pointerGet(req, f.path);
      // Selects keep the core's default when the request leaves the key out.
      if (v === undefined && (f.kind === 'choice' || f.kind === 'intchoice' || f.kind === 'bool')) {
        v = pointerGet(state.defaults, f.path);
      }
      writeField(f, v);
    });
    const targets = pointerGet(req, '/training/lora_targets');
    const targetSelect = input('t.lora_targets_mode');
    if (Array.isArray(targets)) {
      targetSelect.value = 'custom';
      el.loraChecks.querySelectorAll('input').forEach(function (b) {
        b.checked = targets.indexOf(b.value) >= 0;
      });
    } else {
      targetSelect.value = targets === 'attention' ? 'attention' : 'all_linear';
    }
    const hw = req.hardware;
    el.gpu.value = hw && hw.gpu ? String(hw.gpu) : '';
    input('hw.count').value = hw && hw.count !== undefined ? String(hw.count) : '';
    updateVisibility();
  }

  function defaultFormRequest() {
    // Choices whose core default depends on other inputs start on "Auto": accounting (on the
    // precision) and activation checkpointing (on the task: QLoRA defaults to full).
    const req = JSON.parse(JSON.stringify(state.defaults));
    if (req.training) {
      delete req.training.accounting;
      delete req.training.activation_checkpointing;
    }
    return req;
  }

  function fillFieldsFromPreset() {
    const m = findModel(el.preset.value);
    if (!m) return;
    const set = function (key, v) { const n = input(key); if (n) n.value = v === null || v === undefined ? '' : String(v); };
    set('m.name', m.name + (state.lang === 'en' ? ' (custom)' : '（自定义）'));
    ['layers', 'hidden', 'ffn_hidden', 'heads', 'kv_heads', 'head_dim', 'vocab',
      'max_position_embeddings'].forEach(function (k) { set('m.' + k, m[k]); });
    input('m.mlp').value = m.mlp === 'plain' ? 'plain' : 'gated';
    input('m.tied_embeddings').checked = Boolean(m.tied_embeddings);
    const moe = m.moe || {};
    ['experts', 'experts_per_token', 'expert_ffn_hidden', 'shared_experts', 'dense_layers']
      .forEach(function (k) { set('moe.' + k, m.moe ? moe[k] : ''); });
    el.moeDetails.open = Boolean(m.moe);
  }

  function findModel(id) {
    const list = (state.catalog && state.catalog.models) || [];
    for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
    return null;
  }

  function findGpu(id) {
    const list = (state.catalog && state.catalog.gpus) || [];
    for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
    return null;
  }

  function updateVisibility() {
    const task = checkedValue('task') || 'full_finetune';
    const mode = modelMode();
    document.querySelectorAll('[data-tasks]').forEach(function (node) {
      node.hidden = node.getAttribute('data-tasks').split(' ').indexOf(task) < 0;
    });
    document.querySelectorAll('.mode-pane').forEach(function (node) {
      node.hidden = node.getAttribute('data-mode') !== mode;
    });
    el.loraChecks.hidden = input('t.lora_targets_mode').value !== 'custom';
    input('hw.count').disabled = !el.gpu.value;
    document.body.setAttribute('data-task', task);
  }

  // ------------------------------------------------------------ catalog UI

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

  function renderPresetFacts() {
    const m = findModel(el.preset.value);
    el.presetFacts.textContent = m ? t('model.facts', {
      layers: m.layers, hidden: m.hidden, heads: m.heads, kv_heads: m.kv_heads,
      vocab: integer(m.vocab), ctx: integer(m.max_position_embeddings), as_of: m.as_of,
    }) : '';
    el.presetFacts.title = m && m.source ? String(m.source) : '';
  }

  // ------------------------------------------------------------ running

  function schedule(delay) {
    clearTimeout(state.timer);
    api.pending = true;
    state.timer = setTimeout(run, delay === undefined ? DEBOUNCE_MS : delay);
  }

  function callCore(request) {
    try {
      return JSON.parse(state.core.advise(JSON.stringify(request)));
    } catch (e) {
      return { error: { code: 'internal_error', message: String(e && e.message || e), path: '' } };
    }
  }

  function run() {
    clearTimeout(state.timer);
    api.pending = false;
    if (!state.core) return;
    updateVisibility();
    const request = buildRequest();
    const result = callCore(request);
    state.lastRequest = request;
    api.lastRequest = JSON.parse(JSON.stringify(request));
    if (result && result.error) {
      state.lastError = result.error;
      api.lastError = result.error;
      renderError();
    } else {
      state.lastError = null;
      api.lastError = null;
      state.lastResult = result;
      api.lastResult = result;
      renderError();
      renderPanels();
    }
    writeHash(request);
    api.runs += 1;
    document.body.setAttribute('data-state', state.lastError ? 'error' : 'ready');
  }

  // -------------------------------------------------------------- errors

  /** The form element for a JSON pointer: the longest prefix with a visible data-path. */
  function fieldForPath(path) {
    if (!path || path.charAt(0) !== '/') return null;
    let p = path;
    while (p) {
      const nodes = document.querySelectorAll('[data-path="' + cssEscape(p) + '"]');
      for (let i = 0; i < nodes.length; i++) {
        if (isShown(nodes[i])) return nodes[i];
      }
      const cut = p.lastIndexOf('/');
      p = cut > 0 ? p.slice(0, cut) : '';
    }
    return null;
  }

  function cssEscape(s) {
    return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, '\\$&');
  }

  function isShown(node) {
    for (let n = node; n && n !== document.body; n = n.parentElement) {
      if (n.hidden) return false;
    }
    return true;
  }

  function clearFieldErrors() {
    document.querySelectorAll('.invalid').forEach(function (n) { n.classList.remove('invalid'); });
    document.querySelectorAll('.field-error').forEach(function (n) { n.remove(); });
    document.querySelectorAll('[aria-invalid]').forEach(function (n) { n.removeAttribute('aria-invalid'); });
  }

  function errorExplanation(code) {
    return hasString('error.' + code) ? t('error.' + code) : t('error.unknown_code');
  }

  function focusField(node) {
    if (!node) return;
    for (let n = node; n; n = n.parentElement) if (n.tagName === 'DETAILS') n.open = true;
    const target = node.querySelector('input:not([type=radio]), select, textarea') ||
      node.querySelector('input') || node;
    node.scrollIntoView({ block: 'center', behavior: 'smooth' });
    if (target.focus) target.focus({ preventScroll: true });
  }

  function renderError() {
    clearFieldErrors();
    const err = state.lastError;
    const banner = el.errorBanner;
    clear(banner);
    if (!err) {
      banner.hidden = true;
      el.panels.classList.remove('stale');
      return;
    }
    const path = err.path || '';
    const field = fieldForPath(path);
    banner.appendChild(h('div', { class: 'banner-head' },
      h('strong', { text: t('error.title') }),
      h('span', { class: 'code', text: String(err.code || '') })));
    banner.appendChild(h('p', { class: 'error-explain', text: errorExplanation(err.code) }));
    const dl = h('dl', { class: 'error-facts' });
    if (path) {
      dl.appendChild(h('dt', { text: t('error.path') }));
      dl.appendChild(h('dd', null, h('code', { class: 'error-path', text: path })));
    }
    dl.appendChild(h('dt', { text: t('error.core_message') }));
    dl.appendChild(h('dd', { class: 'error-message', lang: 'en', text: String(err.message || '') }));
    banner.appendChild(dl);
    if (field) {
      banner.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('error.go_to_field'),
        onclick: function () { focusField(field); } }));
      field.classList.add('invalid');
      const control = field.querySelector('input:not([type=radio]), select, textarea');
      if (control) control.setAttribute('aria-invalid', 'true');
      for (let n = field; n; n = n.parentElement) if (n.tagName === 'DETAILS') n.open = true;
      field.appendChild(h('p', { class: 'field-error', role: 'alert' },
        h('span', { text: errorExplanation(err.code) + ' ' }),
        h('span', { class: 'field-error-msg', lang: 'en', text: String(err.message || '') })));
    }
    if (state.lastResult) banner.appendChild(h('p', { class: 'stale-line', text: t('result.stale') }));
    banner.hidden = false;
    el.panels.classList.toggle('stale', Boolean(state.lastResult));
  }

  // -------------------------------------------------------------- panels

  const PANELS = [];

  /**
   * Adds a result section. panel = {id, titleKey, render(body, result, ctx), applies?(result)}.
   * render builds the panel's content inside `body` (already emptied) with DOM calls only.
   */
  function registerPanel(panel) {
    PANELS.push(panel);
    if (state.lastResult) renderPanels();
  }

  function renderPanels() {
    const result = state.lastResult;
    if (!result) return;
    el.loading.hidden = true;
    const ctx = { request: state.lastRequest, t: t, h: h, gib: gib, bytesFigure: bytesFigure, valueFigure: valueFigure };
    PANELS.forEach(function (p) {
      if (!p.section) {
        p.title = h('h2', { class: 'panel-title' });
        p.actions = h('div', { class: 'panel-actions' });
        p.body = h('div', { class: 'panel-body' });
        p.section = h('section', { class: 'panel', id: 'panel-' + p.id },
          h('header', { class: 'panel-head' }, p.title, p.actions), p.body);
        el.panels.appendChild(p.section);
      }
      const show = !p.applies || p.applies(result);
      p.section.hidden = !show;
      if (!show) return;
      p.title.textContent = t(p.titleKey);
      clear(p.body);
      clear(p.actions);
      try {
        p.render(p.body, result, Object.assign({ actions: p.actions }, ctx));
      } catch (e) {
        p.body.appendChild(h('p', { class: 'banner banner-error', text: String(e && e.message || e) }));
        if (window.console) console.error(e);
      }
    });
  }

  // Panel 1: the headline figure, fit on the pinned GPU, layout and model.
  function renderSummary(body, r, ctx) {
    const m = r.memory;
    const fitsState = m.fits === true ? 'fits' : m.fits === false ? 'not-fits' : 'none';
    const tight = (r.warnings || []).some(function (w) { return w.code === 'tight_fit'; });
    const band = (m.assumptions || []).filter(function (a) { return a.term === 'band'; })[0];

    const badgeText = fitsState === 'fits' ? '✓ ' + t('summary.fits')
      : fitsState === 'not-fits' ? '✗ ' + t('summary.not_fits') : t('summary.no_gpu');
    const badge = h('span', { class: 'fit-badge fit-' + fitsState + (tight ? ' fit-tight' : ''),
      dataset: { field: '/memory/fits', value: String(m.fits) } }, badgeText);

    const headline = h('div', { class: 'headline' },
      h('div', { class: 'headline-main' },
        h('div', { class: 'headline-label', text: t('summary.per_gpu') }),
        h('div', { class: 'headline-figure' }, bytesFigure(m.per_gpu_bytes, '/memory/per_gpu_bytes', 'big')),
        h('div', { class: 'headline-band' }, tNodes('summary.band', {
          low: h('span', { class: 'fig', dataset: { field: '/memory/band_bytes/low', bytes: String(m.band_bytes.low) }, text: gib(m.band_bytes.low) }),
          high: h('span', { class: 'fig', dataset: { field: '/memory/band_bytes/high', bytes: String(m.band_bytes.high) }, text: gib(m.band_bytes.high) }),
        })),
        band ? h('p', { class: 'assumption', lang: 'en', text: band.text }) : null),
      h('div', { class: 'headline-fit' }, badge, fitDetail(m, r)));
    body.appendChild(headline);

    const facts = h('dl', { class: 'facts' });
    const model = r.model || {};
    const p = model.params || {};
    facts.appendChild(h('dt', { text: t('summary.model') }));
    facts.appendChild(h('dd', null, h('span', { class: 'model-name', text: String(model.name || '') }),
      h('span', { class: 'muted', text: ' · ' + t('task.' + r.task) })));
    facts.appendChild(h('dt', { text: t('summary.params') }));
    facts.appendChild(h('dd', null, tNodes('summary.params_value', {
      total: valueFigure(p.total, '/model/params/total', billions(p.total)),
      active: valueFigure(p.active, '/model/params/active', billions(p.active)),
      trainable: valueFigure(p.trainable, '/model/params/trainable', params(p.trainable)),
    }), p.published_total_b ? h('span', { class: 'muted', text: t('summary.published', { published: p.published_total_b }) }) : null));

    const L = m.layout;
    facts.appendChild(h('dt', { text: t('summary.layout') }));
    const gpu = L.gpu ? findGpu(L.gpu) : null;
    facts.appendChild(h('dd', null,
      L.gpu ? h('div', null, valueFigure(L.count, '/memory/layout/count', integer(L.count)), ' × ',
        h('span', { text: gpu ? gpu.name : String(L.gpu) }))
        : h('div', { class: 'muted', text: t('summary.layout_unpinned', { zero: L.zero }) }),
      h('div', { class: 'topology' }, topology(L, '/memory/layout'))));
    if (m.host_ram_per_server_bytes > 0) {
      facts.appendChild(h('dt', { text: t('summary.host_ram_label') }));
      facts.appendChild(h('dd', null, tNodes('summary.host_ram', {
        value: h('span', { class: 'fig', dataset: { field: '/memory/host_ram_per_server_bytes', bytes: String(m.host_ram_per_server_bytes) }, text: gib(m.host_ram_per_server_bytes) }),
      })));
    }
    body.appendChild(facts);
    body.appendChild(h('p', { class: 'meta-line', text: t('summary.catalog', { gpus: r.catalog.gpus_as_of, models: r.catalog.models_as_of }) + ' · ' + t('summary.unit_note') }));
  }

  function topology(L, base) {
    const vars = {};
    ['tp', 'pp', 'dp', 'ep', 'zero', 'servers'].forEach(function (k) {
      vars[k] = valueFigure(L[k], base + '/' + k, integer(L[k]));
    });
    return tNodes('summary.topology', vars);
  }

  function fitDetail(m, r) {
    if (m.fits === null || m.fits === undefined) {
      return h('p', { class: 'fit-detail muted', text: t('summary.no_gpu_hint') });
    }
    const cap = h('div', { class: 'fit-line' }, tNodes('summary.capacity', {
      mem: h('span', { class: 'fig', dataset: { field: '/memory/gpu_memory_bytes', bytes: String(m.gpu_memory_bytes) }, text: gibCompact(m.gpu_memory_bytes) }),
    }));
    const ok = m.headroom_bytes >= 0;
    const room = h('div', { class: 'fit-line ' + (ok ? 'good' : 'bad') }, tNodes(ok ? 'summary.headroom' : 'summary.shortfall', {
      value: h('span', { class: 'fig', dataset: { field: '/memory/headroom_bytes', bytes: String(m.headroom_bytes) }, text: gib(Math.abs(m.headroom_bytes)) }),
    }));
    // What the core says this GPU needs at minimum (its own row of the options table).
    const option = (r.options || []).filter(function (o) { return o.gpu === m.layout.gpu; })[0];
    let minimum = null;
    if (option && option.min_count && option.min_layout) {
      const base = '/options/@' + option.gpu;
      minimum = h('div', { class: 'fit-line' }, tNodes('summary.min_for_gpu', {
        n: valueFigure(option.min_count, base + '/min_count', integer(option.min_count), 'strong'),
        layout: tNodes('options.layout_value', {
          tp: valueFigure(option.min_layout.tp, base + '/min_layout/tp', integer(option.min_layout.tp)),
          pp: valueFigure(option.min_layout.pp, base + '/min_layout/pp', integer(option.min_layout.pp)),
          dp: valueFigure(option.min_layout.dp, base + '/min_layout/dp', integer(option.min_layout.dp)),
        }),
      }));
    } else if (option && option.reason) {
      minimum = h('div', { class: 'fit-line bad', lang: 'en', text: String(option.reason) });
    }
    return h('div', { class: 'fit-detail' }, cap, room, minimum);
  }

  const TERM_COLOURS = {
    weights: '#2f5f8f', gradients: '#6b9bc7', optimizer: '#c9852f',
    activations: '#4f9a6b', kv_cache: '#8a6bb5', overhead: '#9aa4af',
  };

  // Panel 2: the memory breakdown as one stacked bar, then each term with its assumption.
  function renderBreakdown(body, r) {
    const m = r.memory;
    const b = m.breakdown_bytes;
    const scale = Math.max(m.per_gpu_bytes, m.band_bytes.high, m.gpu_memory_bytes || 0) || 1;
    const W = 1000, BAR_Y = 18, BAR_H = 34;
    const chart = svg('svg', { viewBox: '0 0 ' + W + ' 86', class: 'stack-chart', role: 'img', preserveAspectRatio: 'none' });
    const title = svg('title');
    title.textContent = t('panel.breakdown');
    chart.appendChild(title);
    chart.appendChild(svg('rect', { x: 0, y: BAR_Y, width: W, height: BAR_H, rx: 4, class: 'stack-bg' }));
    let x = 0;
    TERMS.forEach(function (term) {
      const w = (b[term] / scale) * W;
      if (w <= 0) return;
      const seg = svg('rect', { x: x, y: BAR_Y, width: Math.max(w, 0.5), height: BAR_H, fill: TERM_COLOURS[term], class: 'stack-seg' });
      const tip = svg('title');
      tip.textContent = t('term.' + term) + ': ' + gib(b[term]) + ' GiB';
      seg.appendChild(tip);
      chart.appendChild(seg);
      x += w;
    });
    // error band bracket under the bar
    const lo = (m.band_bytes.low / scale) * W, hi = (m.band_bytes.high / scale) * W;
    chart.appendChild(svg('line', { x1: lo, x2: hi, y1: BAR_Y + BAR_H + 10, y2: BAR_Y + BAR_H + 10, class: 'band-line' }));
    chart.appendChild(svg('line', { x1: lo, x2: lo, y1: BAR_Y + BAR_H + 5, y2: BAR_Y + BAR_H + 15, class: 'band-line' }));
    chart.appendChild(svg('line', { x1: hi, x2: hi, y1: BAR_Y + BAR_H + 5, y2: BAR_Y + BAR_H + 15, class: 'band-line' }));
    if (m.gpu_memory_bytes) {
      const cx = (m.gpu_memory_bytes / scale) * W;
      chart.appendChild(svg('line', { x1: cx, x2: cx, y1: 4, y2: BAR_Y + BAR_H + 6, class: 'cap-line' + (m.fits ? '' : ' over') }));
    }
    const wrap = h('div', { class: 'chart-wrap' }, chart);
    if (m.gpu_memory_bytes) {
      const gpu = findGpu(m.layout.gpu);
      const pct = Math.min(100, (m.gpu_memory_bytes / scale) * 100);
      wrap.appendChild(h('div', { class: 'cap-label' + (pct > 70 ? ' left' : ''), style: 'left:' + pct.toFixed(2) + '%',
        text: t('breakdown.capacity_marker', { gpu: gpu ? gpu.name : m.layout.gpu, mem: gibCompact(m.gpu_memory_bytes) }) }));
    }
    body.appendChild(wrap);
    body.appendChild(h('div', { class: 'chart-legend' },
      h('span', { class: 'lg-band' }, h('i', { 'aria-hidden': 'true' }), t('breakdown.band_legend')),
      m.gpu_memory_bytes ? h('span', { class: 'lg-cap' + (m.fits ? '' : ' over') }, h('i', { 'aria-hidden': 'true' }), t('breakdown.cap_legend')) : null));

    const assumptions = {};
    (m.assumptions || []).forEach(function (a) {
      assumptions[a.term] = assumptions[a.term] ? assumptions[a.term] + ' ' + a.text : a.text;
    });
    const list = h('ul', { class: 'terms' });
    TERMS.forEach(function (term) {
      const zero = !b[term];
      list.appendChild(h('li', { class: 'term' + (zero ? ' zero' : ''), dataset: { term: term } },
        h('span', { class: 'swatch', style: 'background:' + TERM_COLOURS[term] }),
        h('div', { class: 'term-main' },
          h('div', { class: 'term-head' },
            h('span', { class: 'term-name', text: t('term.' + term) }),
            bytesFigure(b[term], '/memory/breakdown_bytes/' + term, 'term-value')),
          assumptions[term] ? h('p', { class: 'assumption', lang: 'en', text: assumptions[term] }) : null)));
    });
    list.appendChild(h('li', { class: 'term total' },
      h('span', { class: 'swatch swatch-total' }),
      h('div', { class: 'term-main' }, h('div', { class: 'term-head' },
        h('span', { class: 'term-name', text: t('breakdown.total') }),
        bytesFigure(m.per_gpu_bytes, '/memory/per_gpu_bytes', 'term-value')))));
    body.appendChild(list);
  }

  // Panel 3: every catalog GPU, sortable.
  const OPTION_COLUMNS = [
    { key: 'gpu', label: 'options.col.gpu', sort: function (o) { return o.name; } },
    { key: 'memory', label: 'options.col.memory', sort: function (o) { return o.memory_bytes; }, num: true },
    { key: 'on_one', label: 'options.col.on_one', sort: function (o) { return o.per_gpu_bytes_on_one; }, num: true },
    { key: 'min_count', label: 'options.col.min_count', sort: function (o) { return o.min_count; }, num: true },
    { key: 'layout', label: 'options.col.layout', sort: null },
    { key: 'per_gpu', label: 'options.col.per_gpu', sort: function (o) { return o.per_gpu_bytes_at_min; }, num: true },
    { key: 'china', label: 'options.col.china', sort: function (o) { return CHINA_ORDER.indexOf(o.china_availability && o.china_availability.status); } },
    { key: 'verdict', label: 'options.col.verdict', sort: function (o) { return VERDICT_ORDER.indexOf(o.verdict) * 1e6 + (o.min_count || 0); } },
  ];

  function sortedOptions(options) {
    const col = OPTION_COLUMNS.filter(function (c) { return c.key === state.sort.key; })[0];
    const rows = options.map(function (o, i) { return { o: o, i: i }; });
    if (!col || !col.sort) return rows.map(function (r) { return r.o; });
    const dir = state.sort.dir;
    rows.sort(function (a, b) {
      const va = col.sort(a.o), vb = col.sort(b.o);
      const na = va === null || va === undefined, nb = vb === null || vb === undefined;
      if (na !== nb) return na ? 1 : -1;            // missing values last either way
      if (!na && va !== vb) return (va < vb ? -1 : 1) * dir;
      return a.i - b.i;
    });
    return rows.map(function (r) { return r.o; });
  }

  function renderOptions(body, r, ctx) {
    const pinned = ctx.request && ctx.request.hardware ? ctx.request.hardware.gpu : null;
    ctx.actions.appendChild(h('span', { class: 'muted small', text: t('options.sort_hint') }));
    if (state.sort.key) {
      ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('options.default_order'),
        onclick: function () { state.sort = { key: null, dir: 1 }; renderPanels(); } }));
    }
    const table = h('table', { class: 'options' });
    const headRow = h('tr');
    OPTION_COLUMNS.forEach(function (c) {
      const active = state.sort.key === c.key;
      const th = h('th', { scope: 'col', class: (c.num ? 'num ' : '') + (c.sort ? 'sortable' : ''),
        'aria-sort': active ? (state.sort.dir > 0 ? 'ascending' : 'descending') : (c.sort ? 'none' : null),
        dataset: { col: c.key } });
      if (c.sort) {
        th.appendChild(h('button', { type: 'button', class: 'th-btn', onclick: function () {
          if (state.sort.key !== c.key) state.sort = { key: c.key, dir: 1 };
          else if (state.sort.dir > 0) state.sort = { key: c.key, dir: -1 };
          else state.sort = { key: null, dir: 1 };
          renderPanels();
        } }, t(c.label), h('span', { class: 'sort-mark', text: active ? (state.sort.dir > 0 ? ' ▲' : ' ▼') : '' })));
      } else {
        th.textContent = t(c.label);
      }
      headRow.appendChild(th);
    });
    table.appendChild(h('thead', null, headRow));
    const tbody = h('tbody');
    sortedOptions(r.options || []).forEach(function (o) {
      const base = '/options/@' + o.gpu;
      const isPinned = pinned === o.gpu;
      const tr = h('tr', { class: 'verdict-' + o.verdict + (isPinned ? ' pinned' : ''), dataset: { gpu: o.gpu } });
      // GPU
      tr.appendChild(h('td', { class: 'gpu-cell', title: String(o.vendor) + ' · ' + String(o.gpu) },
        h('div', { class: 'gpu-name', text: String(o.name) }),
        h('div', { class: 'gpu-sub' },
          o.software_stack && o.software_stack !== 'cuda'
            ? h('span', { class: 'tag tag-stack', title: t('options.stack', { stack: o.software_stack }), text: String(o.software_stack).toUpperCase() }) : null,
          isPinned ? h('span', { class: 'tag tag-pinned', text: t('options.pinned') }) : null)));
      // memory
      tr.appendChild(h('td', { class: 'num' }, bytesFigure(o.memory_bytes, base + '/memory_bytes', '', true)));
      // on one GPU
      tr.appendChild(h('td', { class: 'num' },
        h('div', null,
          h('span', { class: 'mark ' + (o.fits_on_one ? 'yes' : 'no'), dataset: { field: base + '/fits_on_one', value: String(o.fits_on_one) }, text: o.fits_on_one ? '✓' : '✗' }),
          o.tight_on_one ? h('span', { class: 'tag tag-tight', title: t('options.tight_title'), dataset: { field: base + '/tight_on_one', value: 'true' }, text: t('options.tight') }) : null),
        h('div', { class: 'sub on-one-need' }, tNodes('options.on_one_needs', {
          value: h('span', { class: 'fig', dataset: { field: base + '/per_gpu_bytes_on_one', bytes: String(o.per_gpu_bytes_on_one) }, text: gib(o.per_gpu_bytes_on_one) }),
        }))));
      // min count
      tr.appendChild(h('td', { class: 'num count-cell' }, o.min_count === null || o.min_count === undefined
        ? h('span', { class: 'fig muted', dataset: { field: base + '/min_count', value: 'null' }, text: '—' })
        : valueFigure(o.min_count, base + '/min_count', integer(o.min_count), 'count')));
      // layout
      const L = o.min_layout;
      tr.appendChild(h('td', { class: 'layout-cell' }, L ? [
        h('div', null, tNodes('options.layout_value', {
          tp: valueFigure(L.tp, base + '/min_layout/tp', integer(L.tp)),
          pp: valueFigure(L.pp, base + '/min_layout/pp', integer(L.pp)),
          dp: valueFigure(L.dp, base + '/min_layout/dp', integer(L.dp)),
        }), L.ep > 1 ? tNodes('options.layout_ep', { ep: valueFigure(L.ep, base + '/min_layout/ep', integer(L.ep)) }) : null),
        h('div', { class: 'sub' }, tNodes('options.servers', {
          n: valueFigure(L.servers, base + '/min_layout/servers', integer(L.servers)),
        })),
      ] : h('span', { class: 'muted', text: '—' })));
      // per GPU at min
      const perGpu = o.per_gpu_bytes_at_min;
      tr.appendChild(h('td', { class: 'num' }, perGpu === null || perGpu === undefined
        ? h('span', { class: 'muted', text: '—' })
        : [bytesFigure(perGpu, base + '/per_gpu_bytes_at_min'),
          h('div', { class: 'usage' }, h('span', { class: 'usage-fill', style: 'width:' + Math.min(100, perGpu / o.memory_bytes * 100).toFixed(1) + '%' }))]));
      // China availability
      const ca = o.china_availability || {};
      tr.appendChild(h('td', { class: 'china-cell' },
        h('div', { class: 'china china-' + String(ca.status || 'unknown').replace(/[^a-z-]/g, ''), dataset: { field: base + '/china_availability/status', value: String(ca.status) },
          text: hasString('china.' + ca.status) ? t('china.' + ca.status) : String(ca.status || '—') }),
        ca.as_of ? h('div', { class: 'sub', text: t('options.as_of', { date: ca.as_of }) }) : null));
      // verdict
      tr.appendChild(h('td', { class: 'verdict-cell' },
        h('span', { class: 'pill pill-' + o.verdict, dataset: { field: base + '/verdict', value: String(o.verdict) },
          text: hasString('verdict.' + o.verdict) ? t('verdict.' + o.verdict) : String(o.verdict) }),
        o.reason ? h('div', { class: 'sub reason', lang: 'en', title: String(o.reason), text: String(o.reason) }) : null));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    body.appendChild(h('div', { class: 'table-wrap' }, table));
  }

  // Panel 4: warnings, each with its translated meaning, the core's text and where it points.
  function renderWarnings(body, r) {
    const warnings = r.warnings || [];
    if (!warnings.length) {
      body.appendChild(h('p', { class: 'muted', text: t('warnings.none') }));
      return;
    }
    const list = h('ul', { class: 'warnings' });
    warnings.forEach(function (w, i) {
      const field = fieldForPath(w.path);
      list.appendChild(h('li', { class: 'warning', dataset: { field: '/warnings/' + i + '/code', value: String(w.code) } },
        h('div', { class: 'warning-head' },
          h('span', { class: 'warn-icon', 'aria-hidden': 'true', text: '!' }),
          h('span', { class: 'warning-text', text: hasString('warning.' + w.code) ? t('warning.' + w.code) : String(w.code) })),
        h('p', { class: 'warning-msg', lang: 'en', text: String(w.message || '') }),
        w.path ? h('div', { class: 'warning-path' }, t('warnings.path') + ' ',
          field ? h('button', { type: 'button', class: 'link-btn', onclick: function () { focusField(field); } }, h('code', { text: String(w.path) }))
            : h('code', { text: String(w.path) })) : null));
    });
    body.appendChild(list);
  }

  // Panel 5: the request as sent, for reproducing with the CLI.
  function renderRequest(body, r, ctx) {
    const text = JSON.stringify(ctx.request, null, 2);
    const details = h('details', { class: 'request' },
      h('summary', { text: t('request.hint') }),
      h('pre', { class: 'request-json', text: text }));
    ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('request.copy'),
      onclick: function () { copyText(text); } }));
    body.appendChild(details);
  }

  PANELS.push(
    { id: 'summary', titleKey: 'panel.summary', render: renderSummary },
    { id: 'breakdown', titleKey: 'panel.breakdown', render: renderBreakdown },
    { id: 'options', titleKey: 'panel.options', render: renderOptions },
    // HOOK(speed): training / inference speed panels go here
    // HOOK(cost): power and cost panels go here
    { id: 'warnings', titleKey: 'panel.warnings', render: renderWarnings },
    { id: 'request', titleKey: 'panel.request', render: renderRequest });

  // ---------------------------------------------------------- URL hash

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

  // ------------------------------------------------------------- actions

  function copyText(text) {
    const done = function () { toast(t('toast.copied')); };
    const fail = function () { toast(t('toast.copy_failed')); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, fail);
    } else {
      fail();
    }
  }

  function exportJson() {
    const payload = { request: state.lastRequest, result: state.lastResult, error: state.lastError };
    const blob = new Blob([JSON.stringify(payload, null, 2)], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: 'gpu-advisor-plan.json' });
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    toast(t('toast.exported'));
  }

  function setLanguage(lang) {
    if (!STRINGS[lang] || lang === state.lang) return;
    state.lang = lang;
    applyStaticStrings();
    if (state.catalog) populateCatalogInputs();
    renderError();
    renderPanels();
    if (state.lastRequest) writeHash(state.lastRequest);
  }

  function showLoadError(detail) {
    el.loadError.hidden = false;
    el.loadErrorDetail.textContent = String(detail || '');
    el.loading.hidden = true;
    document.body.setAttribute('data-state', 'load-error');
  }

  // ------------------------------------------------------------- startup

  function collectElements() {
    el.form = document.getElementById('inputs');
    el.preset = document.getElementById('in-preset');
    el.presetFacts = document.getElementById('preset-facts');
    el.hf = document.getElementById('in-hf');
    el.gpu = document.getElementById('in-gpu');
    el.loraChecks = document.getElementById('lora-target-checks');
    el.moeDetails = document.getElementById('moe-details');
    el.panels = document.getElementById('panels');
    el.errorBanner = document.getElementById('error-banner');
    el.hashNote = document.getElementById('hash-note');
    el.loading = document.getElementById('loading');
    el.loadError = document.getElementById('load-error');
    el.loadErrorDetail = document.getElementById('load-error-detail');
    el.catalogDates = document.getElementById('catalog-dates');
    el.apiVersion = document.getElementById('api-version');
    el.toast = document.getElementById('toast');
  }

  function wireEvents() {
    el.form.addEventListener('submit', function (e) { e.preventDefault(); });
    el.form.addEventListener('input', function (e) {
      if (e.target.name === 'model_mode') return;
      schedule();
    });
    el.form.addEventListener('change', function (e) {
      if (e.target.name === 'model_mode' && e.target.value === 'fields' && !input('m.layers').value) {
        fillFieldsFromPreset();
      }
      if (e.target === el.preset) renderPresetFacts();
      updateVisibility();
      schedule();
    });
    document.getElementById('btn-fill-from-preset').addEventListener('click', function () {
      fillFieldsFromPreset();
      schedule(0);
    });
    document.querySelectorAll('.lang-btn').forEach(function (b) {
      b.addEventListener('click', function () { setLanguage(b.getAttribute('data-lang')); });
    });
    document.getElementById('btn-share').addEventListener('click', function () {
      writeHash(state.lastRequest);
      copyText(location.href);
    });
    document.getElementById('btn-export').addEventListener('click', exportJson);
    document.getElementById('btn-reset').addEventListener('click', function () {
      state.sort = { key: null, dir: 1 };
      el.hashNote.hidden = true;
      applyRequest(defaultFormRequest());
      run();
    });
    window.addEventListener('hashchange', function () {
      if (location.hash === state.ownHash) return;
      const fromHash = readHash();
      if (fromHash.lang) setLanguage(fromHash.lang);
      if (fromHash.request) { applyRequest(fromHash.request); run(); }
    });
  }

  function start() {
    collectElements();
    const fromHash = readHash();
    if (fromHash.lang) state.lang = fromHash.lang;
    applyStaticStrings();
    updateVisibility();
    if (typeof window.createGpuAdvisor !== 'function') {
      showLoadError(t('load.no_factory'));
      return;
    }
    let settled = false;
    const timeout = setTimeout(function () {
      if (!settled) showLoadError('timeout');
    }, 20000);
    let factory;
    try {
      factory = window.createGpuAdvisor();
    } catch (e) {
      clearTimeout(timeout);
      showLoadError(e && e.message || e);
      return;
    }
    Promise.resolve(factory).then(function (core) {
      settled = true;
      clearTimeout(timeout);
      let catalog;
      try { catalog = JSON.parse(core.catalog()); } catch (e) { catalog = { error: { message: String(e) } }; }
      if (!catalog || catalog.error) {
        showLoadError(t('load.catalog_failed') + ' ' + (catalog && catalog.error ? catalog.error.message : ''));
        return;
      }
      state.core = core;
      state.catalog = catalog;
      state.defaults = catalog.default_request;
      state.apiVersion = core.apiVersion ? core.apiVersion() : '?';
      populateCatalogInputs();
      applyRequest(defaultFormRequest());
      if (fromHash.request) {
        applyRequest(fromHash.request);
        el.hashNote.textContent = t('hash.restored');
        el.hashNote.hidden = false;
        setTimeout(function () { el.hashNote.hidden = true; }, 4000);
      } else if (fromHash.bad) {
        el.hashNote.textContent = t('hash.invalid');
        el.hashNote.hidden = false;
      }
      renderPresetFacts();
      wireEvents();
      api.ready = true;
      run();
    }).catch(function (e) {
      settled = true;
      clearTimeout(timeout);
      showLoadError(e && e.message || e);
      if (window.console) console.error(e);
    });
  }

  function safeStart() {
    try {
      start();
    } catch (e) {
      if (!el.loadError) collectElements();
      showLoadError(e && e.message || e);
      if (window.console) console.error(e);
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', safeStart);
  else safeStart();
})();
