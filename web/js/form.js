// SPDX-License-Identifier: MIT
// The form: FIELDS, reading it into a request and writing a request into it, visibility, the URL hash.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { DEFAULT_LANG, STRINGS, clear, h, pointerGet, pointerSet, t } = UI;

  const TRAINING = ['pretrain', 'full_finetune', 'lora', 'qlora'];
  const ADAPTER = ['lora', 'qlora'];
  const ALL_TASKS = TRAINING.concat(['inference']);
  const LORA_MODULES = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

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
    { key: 't.tokens', path: '/training/tokens', kind: 'int', tasks: TRAINING, budget: 'tokens' },
    { key: 't.epochs', path: '/training/epochs', kind: 'int', tasks: TRAINING, budget: 'epochs' },
    { key: 't.dataset_tokens', path: '/training/dataset_tokens', kind: 'int', tasks: TRAINING, budget: 'epochs' },
    { key: 't.global_batch_size', path: '/training/global_batch_size', kind: 'int', tasks: TRAINING },
    { key: 't.off.optimizer', path: '/training/cpu_offload/optimizer', kind: 'bool', tasks: TRAINING },
    { key: 't.off.parameters', path: '/training/cpu_offload/parameters', kind: 'bool', tasks: TRAINING },
    { key: 'acc.master_weights', path: '/training/accounting/master_weights', kind: 'tristate', tasks: TRAINING },
    { key: 'acc.gradient_dtype', path: '/training/accounting/gradient_dtype', kind: 'optchoice', tasks: TRAINING },
    { key: 'acc.optimizer_state_dtype', path: '/training/accounting/optimizer_state_dtype', kind: 'optchoice', tasks: TRAINING },
    { key: 'acc.fused_cross_entropy', path: '/training/accounting/fused_cross_entropy', kind: 'tristate', tasks: TRAINING },
    { key: 'c.inter_node_network', path: '/cluster/inter_node_network', kind: 'optchoice', tasks: ALL_TASKS },
    { key: 'c.inter_node_gbps_per_gpu', path: '/cluster/inter_node_gbps_per_gpu', kind: 'int', tasks: ALL_TASKS },
    { key: 'c.nvlink_bridges', path: '/cluster/nvlink_bridges', kind: 'bool', tasks: ALL_TASKS },
    { key: 'c.storage_read_gbps', path: '/cluster/storage_read_gbps', kind: 'int', tasks: TRAINING },
    { key: 'i.weight_format', path: '/inference/weight_format', kind: 'choice', tasks: ['inference'] },
    { key: 'i.kv_cache_precision', path: '/inference/kv_cache_precision', kind: 'choice', tasks: ['inference'] },
    { key: 'i.concurrency', path: '/inference/concurrency', kind: 'int', tasks: ['inference'] },
    { key: 'i.prompt_tokens', path: '/inference/prompt_tokens', kind: 'int', tasks: ['inference'] },
    { key: 'i.output_tokens', path: '/inference/output_tokens', kind: 'int', tasks: ['inference'] },
    { key: 'i.gpu_memory_utilization', path: '/inference/gpu_memory_utilization', kind: 'int', tasks: ['inference'] },
    { key: 'i.max_model_len', path: '/inference/max_model_len', kind: 'int', tasks: ['inference'] },
    { key: 'i.target_users', path: '/inference/target_users', kind: 'int', tasks: ['inference'] },
    { key: 'i.target_tokens_per_second_per_user', path: '/inference/target_tokens_per_second_per_user', kind: 'int', tasks: ['inference'] },
    { key: 'p.zero', path: '/parallelism/zero', kind: 'intchoice', tasks: TRAINING },
    { key: 'p.tp', path: '/parallelism/tp', kind: 'int', tasks: ALL_TASKS },
    { key: 'p.pp', path: '/parallelism/pp', kind: 'int', tasks: ALL_TASKS },
    { key: 'p.ep', path: '/parallelism/ep', kind: 'int', tasks: ALL_TASKS },
    { key: 'pw.facility', path: '/power/facility', kind: 'optchoice' },
    { key: 'pw.rack_kw', path: '/power/rack_kw', kind: 'int' },
    { key: 'pw.office_rack_kw', path: '/power/office_rack_kw', kind: 'int' },
    { key: 'cost.site', path: '/cost/site', kind: 'optchoice' },
    { key: 'cost.utilization', path: '/cost/utilization', kind: 'int' },
    { key: 'cost.life_years', path: '/cost/life_years', kind: 'int' },
    { key: 'cost.colocation_pricing', path: '/cost/colocation_pricing', kind: 'optchoice' },
    { key: 'cost.run_gpu_hours', path: '/cost/run_gpu_hours', kind: 'int' },
    { key: 'cap.jobs_csv', path: '/capacity/jobs_csv', kind: 'rawtext' },
    { key: 'cap.buffer', path: '/capacity/buffer', kind: 'int' },
    { key: 'cap.target_utilization', path: '/capacity/target_utilization', kind: 'int' },
    // Price-table edits whose path has no input here live in state.overrides (see PRICE TABLE).
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
      case 'rawtext': return node.value.trim() === '' ? undefined : node.value;
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
      case 'int': case 'text': case 'rawtext':
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
    const budget = input('t.budget_mode').value;
    FIELDS.forEach(function (f) {
      if (f.mode && f.mode !== mode) return;
      if (f.tasks && f.tasks.indexOf(task) < 0) return;
      if (f.budget && f.budget !== budget) return;
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
    const months = readMonths();
    if (months) pointerSet(req, '/cost/monthly_demand_gpu_hours', months);
    Object.keys(state.overrides).forEach(function (path) { pointerSet(req, path, state.overrides[path]); });
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
    const training = req.training || {};
    const given = function (v) { return v !== undefined && v !== null; };
    input('t.budget_mode').value = given(training.epochs) || given(training.dataset_tokens) ? 'epochs' : 'tokens';
    writeMonths(pointerGet(req, '/cost/monthly_demand_gpu_hours'));
    // What the form has no input for (price-table edits, JSON job lists) is kept as an override.
    state.overrides = {};
    const covered = {};
    FIELDS.forEach(function (f) { covered[f.path] = true; });
    covered['/cost/monthly_demand_gpu_hours'] = true;
    ['/power', '/cost', '/capacity'].forEach(function (root) {
      collectLeaves(pointerGet(req, root), root, function (path, value) {
        if (!covered[path]) state.overrides[path] = value;
      });
    });
    updateVisibility();
  }

  /** Calls fn(path, value) for each leaf (non-object value; arrays are leaves) under obj. */
  function collectLeaves(obj, base, fn) {
    if (obj === undefined) return;
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) { fn(base, obj); return; }
    Object.keys(obj).forEach(function (k) { collectLeaves(obj[k], base + '/' + k, fn); });
  }

  // The 12-month demand profile: twelve boxes, all blank = left out of the request.
  function monthInputs() { return Array.prototype.slice.call(el.months.querySelectorAll('input')); }

  function readMonths() {
    const boxes = monthInputs();
    if (boxes.every(function (b) { return b.value.trim() === ''; })) return undefined;
    return boxes.map(function (b) {
      const v = readInt(b);
      return v === undefined ? null : v;
    });
  }

  function writeMonths(values) {
    monthInputs().forEach(function (b, i) {
      b.value = Array.isArray(values) && values[i] !== undefined && values[i] !== null ? String(values[i]) : '';
    });
  }

  function buildMonthInputs() {
    clear(el.months);
    for (let i = 0; i < 12; i++) {
      const box = h('input', { type: 'text', inputmode: 'decimal', class: 'month-input', 'data-month': String(i), 'aria-label': 'M' + (i + 1) });
      box.addEventListener('paste', onMonthsPaste);
      el.months.appendChild(h('label', { class: 'month' }, h('span', { class: 'month-label', 'data-month-label': String(i) }), box));
    }
    labelMonths();
  }

  function labelMonths() {
    el.months.querySelectorAll('[data-month-label]').forEach(function (n) {
      n.textContent = t('month.short', { m: Number(n.getAttribute('data-month-label')) + 1 });
    });
  }

  /** Pasting a row of numbers (from a spreadsheet or a list) fills the boxes from the one pasted into. */
  function onMonthsPaste(e) {
    const text = (e.clipboardData || window.clipboardData).getData('text');
    const parts = text.trim().split(/[\s,;，、]+/).filter(Boolean);
    if (parts.length < 2) return;
    e.preventDefault();
    const boxes = monthInputs();
    const start = Number(e.target.getAttribute('data-month'));
    parts.slice(0, 12 - start).forEach(function (p, i) { boxes[start + i].value = p; });
    UI.schedule();
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
    const budget = input('t.budget_mode').value;
    document.querySelectorAll('[data-budget]').forEach(function (node) {
      node.hidden = node.getAttribute('data-budget') !== budget;
    });
    input('hw.count').disabled = !el.gpu.value;
    document.body.setAttribute('data-task', task);
  }

  function fieldFor(path) {
    for (let i = 0; i < FIELDS.length; i++) if (FIELDS[i].path === path) return FIELDS[i];
    return null;
  }

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

  Object.assign(UI, { FIELDS, applyRequest, buildMonthInputs, buildRequest, defaultFormRequest, fieldFor, fillFieldsFromPreset, findGpu, findModel, input, labelMonths, readHash, readInt, updateVisibility, writeHash });
})();
