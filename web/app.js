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
    overrides: {},          // request path -> value typed into the price table (paths with no form input)
    costTab: 'buy',         // which option's line items the cost panel shows
    onlyConfirm: false,     // price table: only the entries that need confirmation
    dynamicPlaceholders: {}, // request path -> default the core reported using (placeholders)
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

  function isNum(v) { return typeof v === 'number' && isFinite(v); }

  /** Significant-figure style: 3 significant digits below 1000, integers above. */
  function num3(v) {
    if (!isNum(v)) return '—';
    const a = Math.abs(v);
    if (a === 0) return '0';
    if (a >= 1000) return integer(v);
    if (a >= 100) return numberFormat(v, 0);
    if (a >= 10) return numberFormat(v, 1);
    if (a >= 1) return numberFormat(v, 2);
    return numberFormat(v, 3);
  }

  function percent(v, decimals) {
    return isNum(v) ? numberFormat(v * 100, decimals === undefined ? 1 : decimals) + '%' : '—';
  }

  /** seconds -> "339 ms" / "29.1 s" */
  function seconds(v) {
    if (!isNum(v)) return '—';
    if (v === 0) return '0 s';
    if (Math.abs(v) < 1) return numberFormat(v * 1000, v * 1000 < 10 ? 2 : 0) + ' ms';
    return num3(v) + ' s';
  }

  /** hours -> "30.8 h", plus days or years for long runs */
  function hoursText(v) {
    if (!isNum(v)) return '—';
    let s = num3(v) + ' h';
    if (v >= 48 && v < 24 * 365 * 2) s += ' ≈ ' + t('unit.days', { n: num3(v / 24) });
    else if (v >= 24 * 365 * 2) s += ' ≈ ' + t('unit.years', { n: numberFormat(v / 24 / 365, 1) });
    return s;
  }

  /** A count of tokens: 1e9 -> "10 亿" / "1.0 B" */
  function tokensText(v) {
    if (!isNum(v)) return '—';
    if (state.lang === 'en') {
      if (v >= 1e12) return numberFormat(v / 1e12, 2) + ' T';
      if (v >= 1e9) return numberFormat(v / 1e9, 2) + ' B';
      if (v >= 1e6) return numberFormat(v / 1e6, 1) + ' M';
      return integer(v);
    }
    if (v >= 1e12) return numberFormat(v / 1e12, 2) + ' 万亿';
    if (v >= 1e8) return numberFormat(v / 1e8, 2) + ' 亿';
    if (v >= 1e4) return numberFormat(v / 1e4, 1) + ' 万';
    return integer(v);
  }

  /** CNY: "90.39 万元" / "¥903,937" */
  function cny(v) {
    if (!isNum(v)) return '—';
    const neg = v < 0 ? '−' : '';
    const a = Math.abs(v);
    if (state.lang === 'en') return neg + '¥' + (a >= 100 ? integer(a) : numberFormat(a, 2));
    if (a >= 1e8) return neg + numberFormat(a / 1e8, 2) + ' 亿元';
    if (a >= 1e4) return neg + numberFormat(a / 1e4, 2) + ' 万元';
    return neg + numberFormat(a, a >= 100 ? 0 : 2) + ' 元';
  }

  /** Axis labels for money: "120万" / "¥1.2M" */
  function cnyTick(v) {
    if (v === 0) return '0';
    if (state.lang === 'en') {
      if (Math.abs(v) >= 1e6) return '¥' + numberFormat(v / 1e6, Math.abs(v) >= 1e7 ? 0 : 1) + 'M';
      if (Math.abs(v) >= 1e3) return '¥' + numberFormat(v / 1e3, 0) + 'k';
      return '¥' + integer(v);
    }
    if (Math.abs(v) >= 1e8) return numberFormat(v / 1e8, 1) + '亿';
    if (Math.abs(v) >= 1e4) return numberFormat(v / 1e4, Math.abs(v) >= 1e5 ? 0 : 1) + '万';
    return integer(v);
  }

  /** GB/s, switching to MB/s or kB/s for the trickles a data path needs. */
  function gbps(v) {
    if (!isNum(v)) return '—';
    const a = Math.abs(v);
    if (a >= 1 || a === 0) return num3(v) + ' GB/s';
    if (a >= 1e-3) return num3(v * 1e3) + ' MB/s';
    return num3(v * 1e6) + ' kB/s';
  }

  /** Axis tick text: no trailing zeros. */
  function tickNum(v) {
    return new Intl.NumberFormat(state.lang === 'en' ? 'en-US' : 'zh-CN', { maximumFractionDigits: Math.abs(v) < 1 ? 3 : Math.abs(v) < 10 ? 1 : 0 }).format(v);
  }

  function watts(v) {
    if (!isNum(v)) return '—';
    return v >= 1000 ? numberFormat(v / 1000, 2) + ' kW' : integer(v) + ' W';
  }

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

  // ---------------------------------------------------------- charts
  // Charts only place the core's figures: scales, ticks and positions, never a new figure.

  function niceStep(span, count) {
    const raw = span / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  }

  function linearTicks(min, max, count) {
    if (max <= min) max = min + 1;
    const step = niceStep(max - min, count || 5);
    const out = [];
    for (let v = Math.floor(min / step) * step; ; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
      if (v >= max - step * 1e-9) break;
    }
    return out;
  }

  function logTicks(min, max) {
    const lo = Math.floor(Math.log10(min)), hi = Math.ceil(Math.log10(max));
    const mult = hi - lo <= 2 ? [1, 2, 5] : hi - lo <= 4 ? [1, 3] : [1];
    const out = [];
    for (let e = lo; e <= hi; e++) {
      mult.forEach(function (m) {
        const v = m * Math.pow(10, e);
        if (v >= min * 0.999 && v <= max * 1.001) out.push(v);
      });
    }
    if (out.length < 2) { out.unshift(min); out.push(max); }
    return out;
  }

  /**
   * spec: {width, height, x: {log, ticks?, min?, max?, format, label}, y: {...}, y2?: {...},
   *        series: [{label, color, dash, axis, points: [{x, y, field, value, tip, hollow}]}],
   *        markers: [{x, label, cls}], title}
   * Returns a <figure> with the SVG and an HTML legend.
   */
  function lineChart(spec) {
    const W = spec.width || state.chartWidth || 760, H = spec.height || 300;
    const M = { l: 70, r: spec.y2 ? 70 : 20, t: (spec.markers || []).length ? 30 : 18, b: 46 };
    const all = { y: [], y2: [], x: [] };
    spec.series.forEach(function (se) {
      se.points.forEach(function (p) {
        if (isNum(p.x)) all.x.push(p.x);
        if (isNum(p.y)) all[se.axis === 'y2' ? 'y2' : 'y'].push(p.y);
      });
    });
    (spec.markers || []).forEach(function (m) { if (isNum(m.x)) all.x.push(m.x); });
    function axis(a, values, horizontal) {
      let min = a.min !== undefined ? a.min : Math.min.apply(null, values);
      let max = a.max !== undefined ? a.max : Math.max.apply(null, values);
      if (!values.length) { min = a.log ? 1 : 0; max = a.log ? 10 : 1; }
      if (a.log) {
        if (min === max) { min /= 2; max *= 2; }
        if (!a.ticks) { min /= 1.12; max *= 1.12; }    // keep the end points off the frame
      } else {
        if (a.zero !== false) min = Math.min(0, min);
        if (min === max) max = min + 1;
      }
      const ticks = a.ticks || (a.log ? logTicks(min, max) : linearTicks(min, max, a.tickCount || 6));
      if (!a.log && !a.ticks) { min = Math.min(min, ticks[0]); max = Math.max(max, ticks[ticks.length - 1]); }
      const lo = a.log ? Math.log(min) : min, hi = a.log ? Math.log(max) : max;
      const span = hi - lo || 1;
      const pad = a.pad || 0;
      const scale = function (v) {
        const f = ((a.log ? Math.log(v) : v) - lo) / span;
        return horizontal ? M.l + pad + f * (W - M.l - M.r - 2 * pad) : H - M.b - f * (H - M.t - M.b);
      };
      return { scale: scale, ticks: ticks.filter(function (v) { return v >= min * (a.log ? 0.999 : 1) - 1e-9 && v <= max * 1.001 + 1e-9; }) };
    }
    const X = axis(spec.x, all.x, true);
    const Y = axis(spec.y, all.y, false);
    const Y2 = spec.y2 ? axis(spec.y2, all.y2, false) : null;
    const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'line-chart', role: 'img' });
    const title = svg('title');
    title.textContent = spec.title || '';
    root.appendChild(title);
    // grid and axes
    Y.ticks.forEach(function (v) {
      const y = Y.scale(v);
      root.appendChild(svg('line', { x1: M.l, x2: W - M.r, y1: y, y2: y, class: 'grid' }));
      const tx = svg('text', { x: M.l - 8, y: y + 4, class: 'tick', 'text-anchor': 'end' });
      tx.textContent = spec.y.format(v);
      root.appendChild(tx);
    });
    if (Y2) {
      Y2.ticks.forEach(function (v) {
        const tx = svg('text', { x: W - M.r + 8, y: Y2.scale(v) + 4, class: 'tick tick-y2', 'text-anchor': 'start' });
        tx.textContent = spec.y2.format(v);
        root.appendChild(tx);
      });
    }
    let lastTickX = -Infinity;
    X.ticks.forEach(function (v) {
      const x = X.scale(v);
      if (x - lastTickX < 26) return;               // too close to the previous label
      lastTickX = x;
      root.appendChild(svg('line', { x1: x, x2: x, y1: H - M.b, y2: H - M.b + 5, class: 'axis' }));
      const tx = svg('text', { x: x, y: H - M.b + 18, class: 'tick', 'text-anchor': 'middle' });
      tx.textContent = spec.x.format(v);
      root.appendChild(tx);
    });
    root.appendChild(svg('line', { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, class: 'axis' }));
    root.appendChild(svg('line', { x1: M.l, x2: M.l, y1: M.t, y2: H - M.b, class: 'axis' }));
    const xl = svg('text', { x: (M.l + W - M.r) / 2, y: H - 6, class: 'axis-label', 'text-anchor': 'middle' });
    xl.textContent = spec.x.label;
    root.appendChild(xl);
    const yl = svg('text', { x: 14, y: (M.t + H - M.b) / 2, class: 'axis-label', 'text-anchor': 'middle', transform: 'rotate(-90 14 ' + ((M.t + H - M.b) / 2) + ')' });
    yl.textContent = spec.y.label;
    root.appendChild(yl);
    if (Y2) {
      const y2l = svg('text', { x: W - 12, y: (M.t + H - M.b) / 2, class: 'axis-label', 'text-anchor': 'middle', transform: 'rotate(90 ' + (W - 12) + ' ' + ((M.t + H - M.b) / 2) + ')' });
      y2l.textContent = spec.y2.label;
      root.appendChild(y2l);
    }
    // markers (vertical lines)
    (spec.markers || []).forEach(function (m) {
      if (!isNum(m.x)) return;
      const x = X.scale(m.x);
      root.appendChild(svg('line', { x1: x, x2: x, y1: M.t - 14, y2: H - M.b, class: 'marker ' + (m.cls || '') }));
      const anchor = m.anchor || (x > M.l + (W - M.l - M.r) * 0.75 ? 'end' : 'start');
      const tx = svg('text', { x: x + (anchor === 'end' ? -5 : 5), y: m.row ? M.t + 12 : M.t - 8, class: 'marker-label ' + (m.cls || ''), 'text-anchor': anchor });
      tx.textContent = m.label;
      root.appendChild(tx);
    });
    // horizontal reference lines (a target the user gave)
    (spec.hlines || []).forEach(function (hl) {
      const A = hl.axis === 'y2' ? Y2 : Y;
      if (!A || !isNum(hl.y)) return;
      const y = A.scale(hl.y);
      if (y < M.t - 1 || y > H - M.b + 1) return;
      root.appendChild(svg('line', { x1: M.l, x2: W - M.r, y1: y, y2: y, class: 'marker target-line' }));
      const tx = svg('text', { x: M.l + 6, y: y - 5, class: 'marker-label target-label', 'text-anchor': 'start' });
      tx.textContent = hl.label;
      root.appendChild(tx);
    });
    // series (drawn in z order; the legend keeps the given order)
    spec.series.slice().sort(function (a, b) { return (a.z || 0) - (b.z || 0); }).forEach(function (se) {
      const A = se.axis === 'y2' ? Y2 : Y;
      let d = '';
      let pen = false;
      se.points.forEach(function (p) {
        if (!isNum(p.x) || !isNum(p.y)) { pen = false; return; }
        d += (pen ? 'L' : 'M') + X.scale(p.x).toFixed(1) + ' ' + A.scale(p.y).toFixed(1);
        pen = true;
      });
      if (d) root.appendChild(svg('path', { d: d, class: 'series ' + (se.cls || ''), stroke: se.color, 'stroke-dasharray': se.dash || 'none' }));
      se.points.forEach(function (p) {
        if (!isNum(p.x) || !isNum(p.y)) return;
        const c = svg('circle', { cx: X.scale(p.x).toFixed(1), cy: A.scale(p.y).toFixed(1), r: p.big ? 5.5 : 3.6,
          class: 'point' + (p.hollow ? ' hollow' : '') + (p.big ? ' big' : ''), stroke: se.color, fill: p.hollow ? '#fff' : se.color });
        if (p.field) { c.setAttribute('data-field', p.field); c.setAttribute('data-value', String(p.value)); }
        if (p.tip) { const tip = svg('title'); tip.textContent = p.tip; c.appendChild(tip); }
        root.appendChild(c);
      });
    });
    const legend = h('div', { class: 'chart-legend line-legend' });
    spec.series.forEach(function (se) {
      legend.appendChild(h('span', null, h('i', { class: 'lg-line', style: 'border-top-color:' + se.color + (se.dash ? ';border-top-style:dashed' : '') }), se.label));
    });
    (spec.legendExtra || []).forEach(function (n) { legend.appendChild(n); });
    return h('figure', { class: 'chart' }, root, legend);
  }

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
    schedule();
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
      updatePlaceholders(result);
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

  /**
   * A CSV error path (/capacity/jobs_csv/row 3/hours) names the row as a spreadsheet numbers it
   * (the header is row 1, blank lines keep their numbers): that is line 3 of the textarea.
   */
  function csvErrorRow(path) {
    const m = /^\/capacity\/jobs_csv\/row (\d+)(?:\/(.+))?$/.exec(path || '');
    const box = input('cap.jobs_csv');
    if (!m || !box) return null;
    const row = Number(m[1]);
    const column = m[2] || '';
    const lines = box.value.split(/\r\n|\n|\r/);
    const line = lines[row - 1] === undefined ? '' : lines[row - 1];
    const select = function () {
      let start = 0;
      for (let i = 0; i < row - 1 && i < lines.length; i++) start += lines[i].length + 1;
      focusField(box.closest('.field'));
      box.setSelectionRange(start, start + line.length);
    };
    return {
      row: row,
      node: function (inField) {
        return h('div', { class: 'csv-row', dataset: { row: String(row), column: column } },
          h('span', { class: 'csv-row-label', text: column ? t('capacity.error_row_col', { row: row, col: column }) : t('capacity.error_row', { row: row }) }),
          h('code', { class: 'csv-row-text', text: line || t('capacity.empty_line') }),
          inField ? h('button', { type: 'button', class: 'link-btn small', text: t('capacity.select_row'), onclick: select }) : null);
      },
    };
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
    const csv = csvErrorRow(path);
    if (csv) banner.appendChild(csv.node());
    if (field) {
      banner.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('error.go_to_field'),
        onclick: function () { focusField(field); } }));
      field.classList.add('invalid');
      const control = field.querySelector('input:not([type=radio]), select, textarea');
      if (control) control.setAttribute('aria-invalid', 'true');
      for (let n = field; n; n = n.parentElement) if (n.tagName === 'DETAILS') n.open = true;
      field.appendChild(h('p', { class: 'field-error', role: 'alert' },
        h('span', { text: errorExplanation(err.code) + ' ' }),
        h('span', { class: 'field-error-msg', lang: 'en', text: String(err.message || '') }),
        csv ? csv.node(true) : null));
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
    // Charts are drawn at the panel's width so their text stays at its CSS size.
    state.chartWidth = Math.max(560, Math.min(1100, (el.panels.clientWidth || 800) - 36));
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
    { key: 'per_gpu', label: 'options.col.per_gpu', sort: function (o) { return o.per_gpu_bytes_at_min; }, num: true },
    { key: 'speed', label: 'options.col.speed', num: true, sort: function (o) {
      if (o.training) return o.training.hours;                       // shortest run first
      if (o.inference && isNum(o.inference.decode_tokens_per_second)) return -o.inference.decode_tokens_per_second;
      return null;
    } },
    { key: 'cost', label: 'options.col.cost', num: true, sort: function (o) {
      return o.cost && o.cost.cheapest ? o.cost[o.cost.cheapest + '_lifetime_cny'] : null;
    } },
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

  /** Options table: the option's speed at its minimum count (training or serving). */
  function speedCell(o, base) {
    const td = h('td', { class: 'num speed-cell' });
    if (o.training) {
      td.appendChild(h('div', null, fig(o.training.tokens_per_second, base + '/training/tokens_per_second', integer(o.training.tokens_per_second), 'strong'),
        h('span', { class: 'unit', text: ' tok/s' })));
      td.appendChild(h('div', { class: 'sub' }, fig(o.training.hours, base + '/training/hours', num3(o.training.hours)), ' h · MFU ',
        fig(o.training.mfu, base + '/training/mfu', percent(o.training.mfu, 0))));
    } else if (o.inference) {
      td.appendChild(h('div', null, fig(o.inference.decode_tokens_per_second, base + '/inference/decode_tokens_per_second', integer(o.inference.decode_tokens_per_second), 'strong'),
        h('span', { class: 'unit', text: ' tok/s' })));
      td.appendChild(h('div', { class: 'sub' }, t('options.max_conc') + ' ', fig(o.inference.max_concurrency, base + '/inference/max_concurrency', integer(o.inference.max_concurrency))));
      if (isNum(o.inference.gpus_needed)) {
        td.appendChild(h('div', { class: 'sub' }, tNodes('options.gpus_needed', { n: fig(o.inference.gpus_needed, base + '/inference/gpus_needed', integer(o.inference.gpus_needed)) })));
      }
    } else {
      td.appendChild(h('span', { class: 'muted', text: '—' }));
    }
    if (o.speed_note) td.appendChild(h('div', { class: 'sub reason', lang: 'en', title: String(o.speed_note), text: String(o.speed_note) }));
    return td;
  }

  /** Options table: the cheapest way to get this option's cards, and buy's break-even. */
  function costCell(o, base) {
    const td = h('td', { class: 'num cost-cell' });
    const c = o.cost;
    if (!c || !c.cheapest) {
      td.appendChild(h('span', { class: 'muted', text: c ? t('options.no_price') : '—' }));
      return td;
    }
    const key = c.cheapest + '_lifetime_cny';
    td.appendChild(h('div', null,
      h('span', { class: 'tag tag-opt tag-' + c.cheapest, title: optionLabel(c.cheapest), dataset: { field: base + '/cost/cheapest', value: String(c.cheapest) },
        text: hasString('costopt_short.' + c.cheapest) ? t('costopt_short.' + c.cheapest) : optionLabel(c.cheapest) }), ' ',
      fig(c[key], base + '/cost/' + key, cny(c[key]), 'strong'),
      c.needs_confirmation ? h('span', { class: 'confirm-dot', title: t('prices.confirm_title'), text: '?' }) : null));
    td.appendChild(h('div', { class: 'sub' }, isNum(c.break_even_utilization) ? tNodes('options.break_even', {
      u: fig(c.break_even_utilization, base + '/cost/break_even_utilization', percent(c.break_even_utilization, 0)),
    }) : fig(null, base + '/cost/break_even_utilization', '', '', t('options.never'))));
    return td;
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
      // min count, with its layout under it
      const L = o.min_layout;
      tr.appendChild(h('td', { class: 'num count-cell' }, o.min_count === null || o.min_count === undefined
        ? h('span', { class: 'fig muted', dataset: { field: base + '/min_count', value: 'null' }, text: '—' })
        : valueFigure(o.min_count, base + '/min_count', integer(o.min_count), 'count'), h('div', { class: 'layout-cell sub' }, L ? [
        h('div', null, tNodes('options.layout_value', {
          tp: valueFigure(L.tp, base + '/min_layout/tp', integer(L.tp)),
          pp: valueFigure(L.pp, base + '/min_layout/pp', integer(L.pp)),
          dp: valueFigure(L.dp, base + '/min_layout/dp', integer(L.dp)),
        }), L.ep > 1 ? tNodes('options.layout_ep', { ep: valueFigure(L.ep, base + '/min_layout/ep', integer(L.ep)) }) : null),
        h('div', null, tNodes('options.servers', {
          n: valueFigure(L.servers, base + '/min_layout/servers', integer(L.servers)),
        })),
      ] : null)));
      // per GPU at min
      const perGpu = o.per_gpu_bytes_at_min;
      tr.appendChild(h('td', { class: 'num' }, perGpu === null || perGpu === undefined
        ? h('span', { class: 'muted', text: '—' })
        : [bytesFigure(perGpu, base + '/per_gpu_bytes_at_min'),
          h('div', { class: 'usage' }, h('span', { class: 'usage-fill', style: 'width:' + Math.min(100, perGpu / o.memory_bytes * 100).toFixed(1) + '%' }))]));
      tr.appendChild(speedCell(o, base));
      tr.appendChild(costCell(o, base));
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
          // A code this page has no words for falls back to the core's English message.
          hasString('warning.' + w.code) ? h('span', { class: 'warning-text', text: t('warning.' + w.code) })
            : h('span', { class: 'warning-text', lang: 'en', text: String(w.message || w.code) }),
          h('code', { class: 'warning-code', text: String(w.code) })),
        hasString('warning.' + w.code) ? h('p', { class: 'warning-msg', lang: 'en', text: String(w.message || '') }) : null,
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

  // ------------------------------------------------ speed, power and cost panels

  /** A figure that may be null ("—"), with its raw value and place in the result. */
  function fig(value, field, text, cls, nullText) {
    const none = value === null || value === undefined;
    return valueFigure(none ? null : value, field, none ? (nullText || '—') : text, cls);
  }

  function kpi(label, figure, unit, sub, cls) {
    return h('div', { class: 'kpi ' + (cls || '') },
      h('div', { class: 'kpi-label', text: label }),
      h('div', { class: 'kpi-value' }, figure, unit ? h('span', { class: 'kpi-unit', text: ' ' + unit }) : null),
      sub ? h('div', { class: 'kpi-sub' }, sub) : null);
  }

  function gpuName(id) {
    const g = id ? findGpu(id) : null;
    return g ? g.name : String(id || '—');
  }

  function sectionTitle(text, extra) {
    return h('h3', { class: 'section-title' }, text, extra || null);
  }

  function assumptionList(list, titleKey) {
    if (!list || !list.length) return null;
    return h('details', { class: 'assumptions' },
      h('summary', { text: t(titleKey || 'speed.assumptions') + ' (' + list.length + ')' }),
      h('ul', null, list.map(function (a) { return h('li', { lang: 'en', text: String(a) }); })));
  }

  function noteBanner(text, cls) {
    return h('div', { class: 'note ' + (cls || '') }, h('span', { class: 'note-icon', 'aria-hidden': 'true', text: 'i' }), h('div', null, text));
  }

  const TIME_TERMS = [
    { key: 'compute_s', colour: '#2f5f8f' },
    { key: 'exposed_communication_s', colour: '#c9852f' },
    { key: 'pipeline_bubble_s', colour: '#8a6bb5' },
    { key: 'dequantization_s', colour: '#4f9a6b' },
    { key: 'optimizer_s', colour: '#9aa4af' },
  ];

  /** One stacked bar (SVG) of named seconds, laid out in proportion, with a legend of figures. */
  function timeBar(breakdown, base, total) {
    const W = 1000;
    const scale = Math.max(total || 0, TIME_TERMS.reduce(function (a, term) { return a + (breakdown[term.key] || 0); }, 0)) || 1;
    const chart = svg('svg', { viewBox: '0 0 ' + W + ' 30', class: 'time-bar', preserveAspectRatio: 'none', role: 'img' });
    chart.appendChild(svg('rect', { x: 0, y: 0, width: W, height: 30, rx: 4, class: 'stack-bg' }));
    let x = 0;
    TIME_TERMS.forEach(function (term) {
      const v = breakdown[term.key] || 0;
      const w = v / scale * W;
      if (w <= 0) return;
      const seg = svg('rect', { x: x, y: 0, width: Math.max(w, 0.5), height: 30, fill: term.colour, class: 'stack-seg' });
      const tip = svg('title');
      tip.textContent = t('time.' + term.key) + ': ' + seconds(v);
      seg.appendChild(tip);
      chart.appendChild(seg);
      x += w;
    });
    const legend = h('ul', { class: 'time-legend' });
    TIME_TERMS.forEach(function (term) {
      const v = breakdown[term.key];
      if (v === undefined) return;
      legend.appendChild(h('li', { class: v ? '' : 'zero' },
        h('span', { class: 'swatch', style: 'background:' + term.colour }),
        h('span', { class: 'time-name', text: t('time.' + term.key) }),
        fig(v, base + '/' + term.key, seconds(v), 'time-value')));
    });
    return h('div', { class: 'time-breakdown' }, chart, legend);
  }

  const LINK_COLOURS = { nvlink: '#1f5fa8', nvlink_bridge: '#5b8c5a', pcie: '#c9852f' };

  function renderInterconnect(r) {
    const ic = r.interconnect || {};
    if (!ic.intra_node && ic.allreduce_bus_bandwidth_gbps === null) return null;
    const box = h('div', { class: 'interconnect' });
    box.appendChild(sectionTitle(t('ic.title')));
    const grid = h('div', { class: 'kpis kpis-3' });
    grid.appendChild(kpi(t('ic.allreduce'),
      fig(ic.allreduce_bus_bandwidth_gbps, '/interconnect/allreduce_bus_bandwidth_gbps', num3(ic.allreduce_bus_bandwidth_gbps), 'strong'),
      'GB/s', ic.allreduce_bus_bandwidth_gbps === null ? t('ic.single_gpu') : t('ic.allreduce_sub')));
    const intra = ic.intra_node;
    if (intra) {
      grid.appendChild(kpi(t('ic.intra'),
        h('span', { class: 'fig link-kind', dataset: { field: '/interconnect/intra_node/kind', value: String(intra.kind) },
          text: hasString('link.' + intra.kind) ? t('link.' + intra.kind) : String(intra.description) }), null,
        tNodes('ic.intra_sub', {
          busbw: fig(intra.busbw_gbps, '/interconnect/intra_node/busbw_gbps', num3(intra.busbw_gbps)),
          link: fig(intra.link_gbps_per_direction, '/interconnect/intra_node/link_gbps_per_direction', num3(intra.link_gbps_per_direction)),
          gpus: fig(intra.gpus, '/interconnect/intra_node/gpus', integer(intra.gpus)),
        })));
    }
    const inter = ic.inter_node;
    if (inter) {
      grid.appendChild(kpi(t('ic.inter'),
        h('span', { class: 'fig link-kind', dataset: { field: '/interconnect/inter_node/name', value: String(inter.name) }, text: String(inter.name) }), null,
        [tNodes('ic.inter_sub', {
          gbps: fig(inter.gbps_per_gpu, '/interconnect/inter_node/gbps_per_gpu', num3(inter.gbps_per_gpu)),
          busbw: fig(inter.busbw_gbps, '/interconnect/inter_node/busbw_gbps', num3(inter.busbw_gbps)),
        }), h('div', { class: 'kpi-sub2', dataset: { field: '/interconnect/inter_node/used', value: String(inter.used) },
          text: (inter.used ? t('ic.inter_used') : t('ic.inter_unused')) + (inter.chosen_by_advisor ? ' · ' + t('ic.chosen_by_advisor') : '') })]));
    }
    box.appendChild(grid);
    const extra = [];
    if (isNum(ic.data_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.dp_busbw') + ' ', fig(ic.data_parallel_busbw_gbps, '/interconnect/data_parallel_busbw_gbps', num3(ic.data_parallel_busbw_gbps)), ' GB/s'));
    if (isNum(ic.tensor_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.tp_busbw') + ' ', fig(ic.tensor_parallel_busbw_gbps, '/interconnect/tensor_parallel_busbw_gbps', num3(ic.tensor_parallel_busbw_gbps)), ' GB/s'));
    if (isNum(ic.gpus_per_node)) extra.push(h('span', null, t('ic.gpus_per_node') + ' ', fig(ic.gpus_per_node, '/interconnect/gpus_per_node', integer(ic.gpus_per_node))));
    if (extra.length) box.appendChild(h('p', { class: 'meta-line inline-facts' }, extra));
    return box;
  }

  function scalingChart(T, r) {
    const curve = T.scaling_curve || [];
    if (!curve.length) return null;
    const series = {};
    curve.forEach(function (p, i) {
      if (!series[p.link]) series[p.link] = [];
      series[p.link].push({ p: p, i: i });
    });
    const pinnedCount = r.memory.layout.gpu ? r.memory.layout.count : null;
    // Name the "nvlink" curve after the part's own link class (the core's options[].intra_node_link).
    const opt = (r.options || []).filter(function (o) { return o.gpu === T.gpu; })[0];
    const own = opt && opt.intra_node_link;
    const linkLabel = function (k) {
      if (k === 'nvlink' && (own === 'nvswitch' || own === 'mesh')) return t('link.' + own);
      if (k === 'nvlink') return t('scaling.link.switched');
      if (k === 'nvlink_bridge') return t('scaling.link.bridge');
      return t('scaling.link.' + k);
    };
    const gpusTicks = [];
    curve.forEach(function (p) { if (gpusTicks.indexOf(p.gpus) < 0) gpusTicks.push(p.gpus); });
    gpusTicks.sort(function (a, b) { return a - b; });
    const spec = {
      title: t('scaling.title'),
      x: { log: true, ticks: gpusTicks, min: gpusTicks[0], max: gpusTicks[gpusTicks.length - 1], pad: 14, format: function (v) { return integer(v); }, label: t('scaling.x') },
      y: { log: true, format: tickNum, label: t('scaling.y') },
      series: ['nvlink', 'nvlink_bridge', 'pcie'].filter(function (k) { return series[k]; }).map(function (k) {
        return {
          label: linkLabel(k), color: LINK_COLOURS[k], dash: k === 'pcie' ? '6 4' : (k === 'nvlink_bridge' ? '2 3' : null),
          points: series[k].map(function (e) {
            const p = e.p;
            return {
              x: p.gpus, y: p.fits ? p.hours : null, field: '/training/scaling_curve/' + e.i + '/hours', value: p.hours,
              big: pinnedCount === p.gpus,
              tip: t('scaling.tip', { gpus: p.gpus, link: linkLabel(k), tp: p.tp, pp: p.pp, dp: p.dp,
                hours: hoursText(p.hours), tps: num3(p.tokens_per_second), mfu: percent(p.mfu) }),
            };
          }),
        };
      }),
      markers: pinnedCount ? [{ x: pinnedCount, label: t('scaling.pinned', { n: pinnedCount }), cls: 'pinned-marker' }] : [],
    };
    const chart = lineChart(spec);
    // The figures behind the chart, as a table.
    const table = h('table', { class: 'data-table' },
      h('thead', null, h('tr', null, h('th', { text: t('scaling.col.gpus') }), h('th', { text: t('scaling.col.layout') }),
        ['nvlink', 'pcie'].filter(function (k) { return series[k]; }).map(function (k) {
          return [h('th', { class: 'num', text: linkLabel(k) + ' · h' }), h('th', { class: 'num', text: 'MFU' })];
        }))));
    const tbody = h('tbody');
    gpusTicks.forEach(function (n) {
      const tr = h('tr');
      const any = curve.filter(function (p) { return p.gpus === n; })[0];
      tr.appendChild(h('td', { class: 'num', text: integer(n) }));
      tr.appendChild(h('td', { text: any && any.fits ? 'TP' + any.tp + '×PP' + any.pp + '×DP' + any.dp : t('scaling.no_fit') }));
      ['nvlink', 'pcie'].filter(function (k) { return series[k]; }).forEach(function (k) {
        const e = series[k].filter(function (x) { return x.p.gpus === n; })[0];
        tr.appendChild(h('td', { class: 'num' }, e && e.p.fits ? fig(e.p.hours, '/training/scaling_curve/' + e.i + '/hours', num3(e.p.hours)) : '—'));
        tr.appendChild(h('td', { class: 'num' }, e && e.p.fits ? fig(e.p.mfu, '/training/scaling_curve/' + e.i + '/mfu', percent(e.p.mfu)) : '—'));
      });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    return h('div', { class: 'scaling' },
      sectionTitle(t('scaling.title'), h('span', { class: 'section-sub', text: t('scaling.for_gpu', { gpu: gpuName(T.gpu) }) })),
      chart,
      h('p', { class: 'hint', text: t('scaling.hint') }),
      h('details', { class: 'data-details' }, h('summary', { text: t('chart.data') }), table));
  }

  // Panel: training speed (pinned figures, breakdown, links, scaling curve).
  function renderTrainingSpeed(body, r) {
    const T = r.training;
    const pinned = isNum(T.tokens_per_second);
    if (!pinned) {
      body.appendChild(noteBanner(t('speed.unpinned', { gpu: gpuName(T.gpu) }), 'note-info'));
    }
    const k = h('div', { class: 'kpis' });
    if (pinned) {
      k.appendChild(kpi(t('speed.tps'), fig(T.tokens_per_second, '/training/tokens_per_second', integer(T.tokens_per_second), 'big-num'), 'tokens/s', t('speed.tps_sub')));
      k.appendChild(kpi('MFU', fig(T.mfu, '/training/mfu', percent(T.mfu), 'big-num'), null,
        isNum(T.achieved_tflops_per_gpu) ? tNodes('speed.mfu_sub', {
          achieved: fig(T.achieved_tflops_per_gpu, '/training/achieved_tflops_per_gpu', num3(T.achieved_tflops_per_gpu)),
          peak: fig(T.peak_tflops, '/training/peak_tflops', num3(T.peak_tflops)),
        }) : null));
      k.appendChild(kpi(t('speed.step'), fig(T.step_time_s, '/training/step_time_s', seconds(T.step_time_s), 'big-num'), null,
        isNum(T.global_batch_size) ? tNodes('speed.step_sub', {
          gbs: fig(T.global_batch_size, '/training/global_batch_size', integer(T.global_batch_size)),
          micro: fig(T.microbatches_per_step, '/training/microbatches_per_step', integer(T.microbatches_per_step)),
        }) : null));
      k.appendChild(kpi(t('speed.hours'), fig(T.hours, '/training/hours', num3(T.hours), 'big-num'), 'h',
        [T.hours >= 48 ? hoursText(T.hours).replace(/^[^≈]*/, '') + ' · ' : '', tNodes('speed.hours_sub', { tokens: fig(T.tokens, '/training/tokens', tokensText(T.tokens)) })]));
      k.appendChild(kpi(t('speed.gpu_hours'), fig(T.gpu_hours, '/training/gpu_hours', integer(T.gpu_hours), 'big-num'), t('unit.gpu_hours')));
    } else {
      k.appendChild(kpi(t('speed.budget'), fig(T.tokens, '/training/tokens', tokensText(T.tokens), 'big-num'), 'tokens', t('speed.budget_sub')));
    }
    body.appendChild(k);
    if (pinned && T.breakdown) {
      body.appendChild(sectionTitle(t('speed.breakdown_title'), h('span', { class: 'section-sub', text: t('speed.breakdown_sub') })));
      body.appendChild(timeBar(T.breakdown, '/training/breakdown', T.step_time_s));
      const c = T.communication || {};
      const comm = h('p', { class: 'meta-line inline-facts' });
      ['data_parallel_s', 'data_parallel_exposed_s', 'tensor_parallel_s', 'pipeline_p2p_s', 'expert_parallel_s'].forEach(function (key) {
        if (!isNum(c[key]) || (c[key] === 0 && key !== 'data_parallel_s')) return;
        comm.appendChild(h('span', null, t('comm.' + key) + ' ', fig(c[key], '/training/communication/' + key, seconds(c[key]))));
      });
      if (comm.childNodes.length) body.appendChild(comm);
    }
    if (isNum(T.storage_read_gbps_needed)) {
      const starving = isNum(T.storage_read_gbps) && T.storage_read_gbps < T.storage_read_gbps_needed;
      body.appendChild(h('p', { class: 'meta-line storage-line' + (starving ? ' bad' : '') }, tNodes(isNum(T.storage_read_gbps) ? 'speed.storage' : 'speed.storage_unknown', {
        need: fig(T.storage_read_gbps_needed, '/training/storage_read_gbps_needed', gbps(T.storage_read_gbps_needed)),
        have: fig(T.storage_read_gbps, '/training/storage_read_gbps', gbps(T.storage_read_gbps)),
      })));
    }
    const ic = renderInterconnect(r);
    if (ic) body.appendChild(ic);
    const sc = scalingChart(T, r);
    if (sc) body.appendChild(sc);
    body.appendChild(assumptionList(T.assumptions));
  }

  // Panel: inference speed (pinned figures, decode step, KV cache, concurrency curve).
  function renderInferenceSpeed(body, r) {
    const I = r.inference;
    const pinned = isNum(I.decode_tokens_per_second);
    if (!pinned) body.appendChild(noteBanner(t('inf.unpinned', { gpu: gpuName(I.gpu) }), 'note-info'));
    if (pinned) {
      const k = h('div', { class: 'kpis' });
      k.appendChild(kpi(t('inf.decode'), fig(I.decode_tokens_per_second, '/inference/decode_tokens_per_second', integer(I.decode_tokens_per_second), 'big-num'), 'tokens/s',
        tNodes('inf.decode_sub', { n: fig(r.memory.layout.count, '/memory/layout/count', integer(r.memory.layout.count)) })));
      k.appendChild(kpi(t('inf.per_user'), fig(I.per_user_tokens_per_second, '/inference/per_user_tokens_per_second', num3(I.per_user_tokens_per_second), 'big-num'), 'tokens/s'));
      k.appendChild(kpi(t('inf.ttft'), fig(I.time_to_first_token_s, '/inference/time_to_first_token_s', seconds(I.time_to_first_token_s), 'big-num'), null,
        isNum(I.batch_prefill_s) ? tNodes('inf.ttft_sub', { s: fig(I.batch_prefill_s, '/inference/batch_prefill_s', seconds(I.batch_prefill_s)) }) : null));
      k.appendChild(kpi(t('inf.max_concurrency'), fig(I.max_concurrency, '/inference/max_concurrency', integer(I.max_concurrency), 'big-num'), null,
        I.kv_cache ? tNodes('inf.max_concurrency_sub', { len: fig(I.kv_cache.max_model_len, '/inference/kv_cache/max_model_len', integer(I.kv_cache.max_model_len)) }) : null));
      const needs = I.gpus_needed;
      k.appendChild(kpi(t('inf.gpus_needed'), fig(needs, '/inference/gpus_needed', isNum(needs) ? integer(needs) : '—', 'big-num'), null,
        isNum(needs) ? tNodes('inf.gpus_needed_sub', {
          replicas: fig(I.replicas, '/inference/replicas', integer(I.replicas)),
          users: fig(I.users_per_replica, '/inference/users_per_replica', integer(I.users_per_replica)),
        }) : t('inf.no_target'), isNum(needs) ? 'kpi-accent' : ''));
      body.appendChild(k);
      // decode step: memory vs compute
      const d = I.decode_breakdown;
      if (d) {
        body.appendChild(sectionTitle(t('inf.step_title'), h('span', { class: 'section-sub', text: I.bandwidth_bound ? t('inf.bandwidth_bound') : t('inf.compute_bound') })));
        body.appendChild(h('div', { class: 'inline-facts meta-line' },
          h('span', null, t('inf.step') + ' ', fig(I.decode_step_s, '/inference/decode_step_s', seconds(I.decode_step_s))),
          h('span', null, t('inf.memory_s') + ' ', fig(d.memory_s, '/inference/decode_breakdown/memory_s', seconds(d.memory_s))),
          h('span', null, t('inf.compute_s') + ' ', fig(d.compute_s, '/inference/decode_breakdown/compute_s', seconds(d.compute_s))),
          d.communication_s ? h('span', null, t('inf.comm_s') + ' ', fig(d.communication_s, '/inference/decode_breakdown/communication_s', seconds(d.communication_s))) : null,
          h('span', null, t('inf.weights_read') + ' ', h('span', { class: 'fig', dataset: { field: '/inference/decode_breakdown/weight_bytes', bytes: String(d.weight_bytes) }, text: gib(d.weight_bytes) }), ' GiB'),
          h('span', null, t('inf.kv_read') + ' ', h('span', { class: 'fig', dataset: { field: '/inference/decode_breakdown/kv_cache_bytes', bytes: String(d.kv_cache_bytes) }, text: gib(d.kv_cache_bytes) }), ' GiB')));
      }
      const kv = I.kv_cache;
      if (kv) {
        body.appendChild(h('div', { class: 'inline-facts meta-line' },
          h('span', null, t('inf.kv_budget') + ' ', h('span', { class: 'fig', dataset: { field: '/inference/kv_cache/budget_bytes', bytes: String(kv.budget_bytes) }, text: gib(kv.budget_bytes) }), ' GiB'),
          h('span', null, t('inf.kv_per_token') + ' ', fig(kv.bytes_per_token, '/inference/kv_cache/bytes_per_token', integer(kv.bytes_per_token)), ' B'),
          h('span', null, 'gpu_memory_utilization ', fig(kv.gpu_memory_utilization, '/inference/kv_cache/gpu_memory_utilization', String(kv.gpu_memory_utilization))),
          isNum(I.sustained_output_tokens_per_second) ? h('span', null, t('inf.sustained') + ' ', fig(I.sustained_output_tokens_per_second, '/inference/sustained_output_tokens_per_second', integer(I.sustained_output_tokens_per_second)), ' tokens/s') : null));
      }
    }
    const ic = renderInterconnect(r);
    if (ic && pinned && r.memory.layout.count > 1) body.appendChild(ic);
    const cc = I.concurrency_curve || [];
    if (cc.length) {
      const reqConc = pointerGet(state.lastRequest, '/inference/concurrency') || pointerGet(state.defaults, '/inference/concurrency');
      const target = pointerGet(state.lastRequest, '/inference/target_tokens_per_second_per_user');
      const ticks = cc.map(function (p) { return p.concurrency; });
      const markers = [];
      if (pinned && isNum(I.max_concurrency)) markers.push({ x: I.max_concurrency, label: t('inf.marker_max', { n: I.max_concurrency }), cls: 'max-marker', anchor: 'end' });
      if (pinned && isNum(reqConc) && reqConc !== I.max_concurrency) markers.push({ x: reqConc, label: t('inf.marker_request', { n: reqConc }), cls: 'pinned-marker', row: 1 });
      const chart = lineChart({
        title: t('inf.curve_title'),
        x: { log: true, ticks: ticks, min: ticks[0], max: ticks[ticks.length - 1], pad: 14, format: function (v) { return integer(v); }, label: t('inf.curve_x') },
        y: { format: tickNum, label: t('inf.curve_y') },
        y2: { format: tickNum, label: t('inf.curve_y2') },
        series: [
          { label: t('inf.curve_total'), color: '#1f5fa8', points: cc.map(function (p, i) {
            return { x: p.concurrency, y: p.decode_tokens_per_second, hollow: !p.fits, field: '/inference/concurrency_curve/' + i + '/decode_tokens_per_second', value: p.decode_tokens_per_second,
              tip: t('inf.curve_tip', { n: p.concurrency, total: integer(p.decode_tokens_per_second), user: num3(p.per_user_tokens_per_second) }) };
          }) },
          { label: t('inf.curve_user'), color: '#c9852f', dash: '6 4', axis: 'y2', points: cc.map(function (p, i) {
            return { x: p.concurrency, y: p.per_user_tokens_per_second, hollow: !p.fits, field: '/inference/concurrency_curve/' + i + '/per_user_tokens_per_second', value: p.per_user_tokens_per_second,
              tip: t('inf.curve_tip', { n: p.concurrency, total: integer(p.decode_tokens_per_second), user: num3(p.per_user_tokens_per_second) }) };
          }) },
        ],
        markers: markers,
        hlines: isNum(target) ? [{ axis: 'y2', y: target, label: t('inf.target_line', { v: target }) }] : [],
      });
      body.appendChild(h('div', { class: 'scaling' },
        sectionTitle(t('inf.curve_title'), h('span', { class: 'section-sub', text: t('scaling.for_gpu', { gpu: gpuName(I.gpu) }) })),
        chart));
    }
    body.appendChild(assumptionList(I.assumptions));
  }

  // Panel: power and facility, with the office verdict as a banner.
  function renderPower(body, r) {
    const P = r.power;
    const v = P.office_verdict || {};
    const level = String(v.level || 'unknown');
    body.appendChild(h('div', { class: 'verdict-banner verdict-' + level.replace(/[^a-z_]/g, '') },
      h('div', { class: 'verdict-icon', 'aria-hidden': 'true', text: level === 'yes' ? '✓' : level === 'marginal' ? '!' : '✗' }),
      h('div', { class: 'verdict-main' },
        h('div', { class: 'verdict-q', text: t('power.office_q') }),
        h('div', { class: 'verdict-a', dataset: { field: '/power/office_verdict/level', value: level },
          text: hasString('power.office.' + level) ? t('power.office.' + level) : level }),
        h('p', { class: 'verdict-reason', lang: 'en', text: String(v.reason || '') })),
      h('span', { class: 'sr-only', dataset: { field: '/power/office_verdict/can_host', value: String(v.can_host) }, text: String(v.can_host) })));
    const hw = r.cost && r.cost.hardware;
    body.appendChild(h('p', { class: 'meta-line' }, tNodes('power.for', {
      n: fig(P.gpus, '/power/gpus', integer(P.gpus)), gpu: gpuName(P.gpu),
    }), hw && !hw.pinned ? h('span', { class: 'muted', text: ' · ' + t('cost.unpinned_short') }) : null));
    const k = h('div', { class: 'kpis' });
    k.appendChild(kpi(t('power.server_full'), fig(P.server_watts_full_load, '/power/server_watts_full_load', watts(P.server_watts_full_load), 'big-num'), null,
      tNodes('power.server_full_sub', {
        gpu: fig(P.gpu_watts_per_server, '/power/gpu_watts_per_server', watts(P.gpu_watts_per_server)),
        host: fig(P.host_watts, '/power/host_watts', watts(P.host_watts)),
      })));
    k.appendChild(kpi(t('power.server_typical'), fig(P.server_watts_typical, '/power/server_watts_typical', watts(P.server_watts_typical), 'big-num'), null,
      tNodes('power.server_typical_sub', {
        f: fig(P.training_load_factor, '/power/training_load_factor', percent(P.training_load_factor, 0)),
        idle: fig(P.server_watts_idle, '/power/server_watts_idle', watts(P.server_watts_idle)),
      })));
    k.appendChild(kpi(t('power.servers'), fig(P.servers, '/power/servers', integer(P.servers), 'big-num'), null,
      tNodes('power.servers_sub', { per: fig(P.gpus_per_server, '/power/gpus_per_server', integer(P.gpus_per_server)) })));
    k.appendChild(kpi(t('power.racks'), fig(P.racks_needed, '/power/racks_needed', integer(P.racks_needed), 'big-num'), null,
      [tNodes('power.racks_sub', {
        kw: fig(P.rack_kw, '/power/rack_kw', num3(P.rack_kw)),
        per: fig(P.servers_per_rack, '/power/servers_per_rack', integer(P.servers_per_rack)),
      }), h('div', { class: 'kpi-sub2', dataset: { field: '/power/rack_choice', value: String(P.rack_choice) },
        text: hasString('power.rack_choice.' + P.rack_choice) ? t('power.rack_choice.' + P.rack_choice) : String(P.rack_choice) })],
      P.rack_fits === false ? 'kpi-bad' : ''));
    k.appendChild(kpi(t('power.it_kw'), fig(P.it_kw_full_load, '/power/it_kw_full_load', num3(P.it_kw_full_load), 'big-num'), 'kW',
      tNodes('power.it_kw_sub', { typ: fig(P.it_kw_typical, '/power/it_kw_typical', num3(P.it_kw_typical)) })));
    k.appendChild(kpi(t('power.facility_kw'), fig(P.facility_kw, '/power/facility_kw', num3(P.facility_kw), 'big-num'), 'kW',
      tNodes('power.facility_kw_sub', {
        pue: fig(P.pue, '/power/pue', String(P.pue)),
        facility: h('span', { dataset: { field: '/power/facility', value: String(P.facility) }, text: hasString('power.facility.' + P.facility) ? t('power.facility.' + P.facility) : String(P.facility) }),
      })));
    body.appendChild(k);
    const lim = h('p', { class: 'meta-line inline-facts' },
      h('span', null, t('power.by_power') + ' ', fig(P.servers_per_rack_by_power, '/power/servers_per_rack_by_power', integer(P.servers_per_rack_by_power))),
      h('span', null, t('power.by_space') + ' ', fig(P.servers_per_rack_by_space, '/power/servers_per_rack_by_space', integer(P.servers_per_rack_by_space))),
      P.racks_per_server > 1 ? h('span', { class: 'bad' }, t('power.racks_per_server') + ' ', fig(P.racks_per_server, '/power/racks_per_server', integer(P.racks_per_server))) : null,
      h('span', { class: 'muted', text: t('power.sizing_note') }));
    body.appendChild(lim);
  }

  const COST_OPTIONS = ['buy', 'rent', 'rent_reserved', 'hybrid'];
  const COST_COLOURS = { buy: '#1f5fa8', rent: '#c9852f', rent_reserved: '#8a6bb5', hybrid: '#1e7a4c' };

  function optionLabel(k) { return hasString('costopt.' + k) ? t('costopt.' + k) : k; }

  // Panel: total cost of ownership.
  function renderCost(body, r) {
    const C = r.cost;
    const hw = C.hardware || {};
    // what is costed
    body.appendChild(h('p', { class: 'cost-context' }, tNodes('cost.context', {
      n: fig(hw.count, '/cost/hardware/count', integer(hw.count), 'strong'),
      gpu: h('span', { class: 'strong', text: String(hw.name || hw.gpu || '') }),
      site: h('span', { dataset: { field: '/cost/site/id', value: String(C.site && C.site.id) }, text: C.site ? (state.lang === 'en' ? C.site.name : C.site.name_zh) : '—' }),
      util: fig(C.utilization, '/cost/utilization', percent(C.utilization), 'strong'),
      source: hasString('cost.util_source.' + C.utilization_source) ? t('cost.util_source.' + C.utilization_source) : String(C.utilization_source),
      life: fig(C.life_years, '/cost/life_years', integer(C.life_years), 'strong'),
    })));
    if (!hw.pinned) body.appendChild(noteBanner(t('cost.unpinned', { reason: String(hw.reason || '') }), 'note-info'));

    // one tile per option
    const tiles = h('div', { class: 'cost-tiles' });
    COST_OPTIONS.forEach(function (k) {
      const o = C.options[k];
      const cheapest = C.cheapest_option === k;
      if (!o) {
        const miss = (C.missing_prices || []).filter(function (m) { return m.option === k; })[0];
        if (!miss && k === 'rent_reserved') return;
        const path = miss && miss.override_path;
        const target = path ? fieldForPath(path) : null;
        tiles.appendChild(h('div', { class: 'cost-tile missing', dataset: { option: k } },
          h('div', { class: 'cost-tile-head' }, h('span', { class: 'swatch', style: 'background:' + COST_COLOURS[k] }), optionLabel(k)),
          h('div', { class: 'cost-missing', dataset: { field: '/cost/options/' + k, value: 'null' }, text: t('cost.not_priced') }),
          miss ? h('p', { class: 'kpi-sub', lang: 'en', text: String(miss.reason) }) : null,
          target ? h('button', { type: 'button', class: 'btn btn-small', text: t('cost.enter_it'), onclick: function () { focusField(target); } }) : null));
        return;
      }
      tiles.appendChild(h('div', { class: 'cost-tile' + (cheapest ? ' cheapest' : ''), dataset: { option: k } },
        h('div', { class: 'cost-tile-head' }, h('span', { class: 'swatch', style: 'background:' + COST_COLOURS[k] }), optionLabel(k),
          cheapest ? h('span', { class: 'tag tag-cheapest', dataset: { field: '/cost/cheapest_option', value: String(C.cheapest_option) }, text: t('cost.cheapest') }) : null),
        h('div', { class: 'cost-life' }, fig(o.lifetime_cny, '/cost/options/' + k + '/lifetime_cny', cny(o.lifetime_cny), 'big-num')),
        h('div', { class: 'kpi-sub' }, tNodes('cost.per_year', { v: fig(o.average_yearly_cny, '/cost/options/' + k + '/average_yearly_cny', cny(o.average_yearly_cny)) })),
        isNum(C.cost_per_gpu_hour_cny && C.cost_per_gpu_hour_cny[k]) ? h('div', { class: 'kpi-sub' }, tNodes('cost.per_gpu_hour', {
          v: fig(C.cost_per_gpu_hour_cny[k], '/cost/cost_per_gpu_hour_cny/' + k, cny(C.cost_per_gpu_hour_cny[k])),
        })) : null));
    });
    body.appendChild(tiles);

    // break-even and the 70% rule
    const be = C.break_even_utilization;
    const rule = C.seventy_percent_rule_holds;
    const beBox = h('div', { class: 'break-even' },
      h('div', { class: 'be-main' },
        h('div', { class: 'kpi-label', text: t('cost.break_even') }),
        h('div', { class: 'be-figure' }, fig(be, '/cost/break_even_utilization', percent(be), 'be-num', t('cost.never'))),
        h('div', { class: 'kpi-sub', text: isNum(be) ? (be === 0 ? t('cost.be_zero') : t('cost.be_explain', { u: percent(be) })) : t('cost.be_never') })),
      h('div', { class: 'be-rule' },
        h('div', { class: 'kpi-label', text: t('cost.rule_title') }),
        h('span', { class: 'pill rule-' + String(rule), dataset: { field: '/cost/seventy_percent_rule_holds', value: String(rule) },
          text: rule === true ? t('cost.rule_holds') : rule === false ? t('cost.rule_fails') : t('cost.rule_unknown') }),
        C.seventy_percent_rule_note ? h('p', { class: 'kpi-sub', lang: 'en', text: String(C.seventy_percent_rule_note) }) : null),
      h('div', { class: 'be-year' },
        h('div', { class: 'kpi-label', text: t('cost.break_even_year') }),
        h('div', { class: 'be-figure' }, fig(C.break_even_year, '/cost/break_even_year', t('cost.year_n', { n: C.break_even_year }), 'be-num small-num', t('cost.none_within_life'))),
        h('div', { class: 'kpi-sub', text: isNum(C.break_even_year) ? t('cost.be_year_explain', { u: percent(C.utilization) }) : t('cost.be_year_never', { u: percent(C.utilization) }) })));
    body.appendChild(beBox);

    // cumulative chart
    const series = COST_OPTIONS.filter(function (k) { return C.options[k] && C.options[k].cumulative_cny; }).map(function (k) {
      return {
        label: optionLabel(k), color: COST_COLOURS[k], dash: k === 'rent' ? '6 4' : k === 'rent_reserved' ? '2 4' : null,
        z: k === 'hybrid' ? -1 : k === 'rent' ? 1 : 0, cls: k === 'hybrid' ? 'wide' : '',
        points: C.options[k].cumulative_cny.map(function (v, i) {
          return { x: i + 1, y: v, field: '/cost/options/' + k + '/cumulative_cny/' + i, value: v,
            tip: optionLabel(k) + ' · ' + t('cost.year_n', { n: i + 1 }) + ' · ' + cny(v) };
        }),
      };
    });
    if (series.length) {
      const years = [];
      for (let i = 1; i <= (C.life_years || 1); i++) years.push(i);
      const markers = isNum(C.break_even_year) ? [{ x: C.break_even_year, label: t('cost.be_marker', { n: C.break_even_year }), cls: 'be-marker' }] : [];
      body.appendChild(sectionTitle(t('cost.chart_title'), h('span', { class: 'section-sub', text: t('cost.chart_sub') })));
      body.appendChild(lineChart({
        title: t('cost.chart_title'), height: 300,
        x: { ticks: years, min: 1, max: years[years.length - 1], zero: false, pad: 20, format: function (v) { return t('cost.year_tick', { n: v }); }, label: t('cost.chart_x') },
        y: { format: cnyTick, label: t('cost.chart_y') },
        series: series, markers: markers,
      }));
    }

    // line items, one option at a time
    const available = COST_OPTIONS.filter(function (k) { return C.options[k]; });
    if (available.length) {
      if (available.indexOf(state.costTab) < 0) state.costTab = available[0];
      const tabs = h('div', { class: 'tabs', role: 'tablist' });
      available.forEach(function (k) {
        tabs.appendChild(h('button', { type: 'button', role: 'tab', class: 'tab', 'aria-selected': String(state.costTab === k), dataset: { option: k },
          onclick: function () { state.costTab = k; renderPanels(); } }, optionLabel(k)));
      });
      body.appendChild(sectionTitle(t('cost.items_title')));
      body.appendChild(tabs);
      const k = state.costTab;
      const o = C.options[k];
      const table = h('table', { class: 'data-table items-table' },
        h('thead', null, h('tr', null, h('th', { text: t('cost.col.item') }), h('th', { class: 'num', text: t('cost.col.yearly') }), h('th', { text: t('cost.col.basis') }))));
      const tb = h('tbody');
      (o.line_items || []).forEach(function (it, i) {
        tb.appendChild(h('tr', null,
          h('td', { class: 'item-name', text: hasString('item.' + it.name) ? t('item.' + it.name) : String(it.name) }),
          h('td', { class: 'num' }, fig(it.yearly_cny, '/cost/options/' + k + '/line_items/' + i + '/yearly_cny', cny(it.yearly_cny))),
          h('td', { class: 'basis', lang: 'en', text: String(it.basis || '') })));
      });
      tb.appendChild(h('tr', { class: 'total-row' },
        h('td', { text: t('cost.avg_yearly') }),
        h('td', { class: 'num' }, fig(o.average_yearly_cny, '/cost/options/' + k + '/average_yearly_cny', cny(o.average_yearly_cny))),
        h('td', { class: 'basis' }, isNum(o.capex_cny) && o.capex_cny > 0 ? tNodes('cost.capex_note', {
          capex: fig(o.capex_cny, '/cost/options/' + k + '/capex_cny', cny(o.capex_cny)),
          residual: fig(o.residual_cny, '/cost/options/' + k + '/residual_cny', cny(o.residual_cny)),
        }) : null)));
      table.appendChild(tb);
      body.appendChild(h('div', { class: 'table-scroll' }, table));
      // cash by year
      const yrow = h('p', { class: 'meta-line inline-facts' }, h('span', { class: 'muted', text: t('cost.cash_by_year') }));
      (o.yearly_cny || []).forEach(function (v, i) {
        yrow.appendChild(h('span', null, t('cost.year_n', { n: i + 1 }) + ' ', fig(v, '/cost/options/' + k + '/yearly_cny/' + i, cny(v))));
      });
      body.appendChild(yrow);
    }

    // unit costs
    body.appendChild(sectionTitle(t('cost.unit_title')));
    const unit = h('table', { class: 'data-table unit-table' });
    unit.appendChild(h('thead', null, h('tr', null, h('th', { text: '' }),
      available.map(function (k) { return h('th', { class: 'num', text: optionLabel(k) }); }))));
    const ub = h('tbody');
    const rows = [
      { key: 'cost_per_gpu_hour_cny', label: t('cost.unit.gpu_hour') },
      { key: 'cost_per_run_cny', label: t('cost.unit.run'), sub: isNum(C.run_gpu_hours) ? tNodes('cost.unit.run_sub', {
        h: fig(C.run_gpu_hours, '/cost/run_gpu_hours', integer(C.run_gpu_hours)),
        src: hasString('cost.src.' + C.run_gpu_hours_source) ? t('cost.src.' + C.run_gpu_hours_source) : String(C.run_gpu_hours_source),
      }) : t('cost.unit.run_none') },
      { key: 'cost_per_million_tokens_cny', label: t('cost.unit.mtok'), sub: isNum(C.tokens_per_second) ? tNodes('cost.unit.mtok_sub', {
        tps: fig(C.tokens_per_second, '/cost/tokens_per_second', integer(C.tokens_per_second)),
        src: hasString('cost.src.' + C.tokens_per_second_source) ? t('cost.src.' + C.tokens_per_second_source) : String(C.tokens_per_second_source),
      }) : t('cost.unit.mtok_none') },
    ];
    rows.forEach(function (row) {
      const vals = C[row.key];
      ub.appendChild(h('tr', null,
        h('th', { scope: 'row' }, h('div', { text: row.label }), row.sub ? h('div', { class: 'kpi-sub' }, row.sub) : null),
        available.map(function (k) {
          const v = vals ? vals[k] : null;
          return h('td', { class: 'num' }, vals && v !== undefined ? fig(v, '/cost/' + row.key + '/' + k, cny(v)) : h('span', { class: 'muted', text: '—' }));
        })));
    });
    unit.appendChild(ub);
    body.appendChild(h('div', { class: 'table-scroll' }, unit));

    // hybrid split
    const hs = C.hybrid_split;
    if (hs) {
      body.appendChild(sectionTitle(t('cost.hybrid_title'), h('span', { class: 'section-sub', text: t('cost.hybrid_sub') })));
      const k2 = h('div', { class: 'kpis' });
      k2.appendChild(kpi(t('cost.hybrid_owned'), fig(hs.owned_servers, '/cost/hybrid_split/owned_servers', integer(hs.owned_servers), 'big-num'), t('unit.servers'),
        tNodes('cost.hybrid_owned_sub', { g: fig(hs.owned_gpus, '/cost/hybrid_split/owned_gpus', integer(hs.owned_gpus)) })));
      k2.appendChild(kpi(t('cost.hybrid_owned_hours'), fig(hs.owned_gpu_hours_per_year, '/cost/hybrid_split/owned_gpu_hours_per_year', integer(hs.owned_gpu_hours_per_year), 'big-num'), t('unit.gpu_hours_year'),
        isNum(hs.owned_utilization) ? tNodes('cost.hybrid_owned_util', { u: fig(hs.owned_utilization, '/cost/hybrid_split/owned_utilization', percent(hs.owned_utilization)) }) : null));
      k2.appendChild(kpi(t('cost.hybrid_rented_hours'), fig(hs.rented_gpu_hours_per_year, '/cost/hybrid_split/rented_gpu_hours_per_year', integer(hs.rented_gpu_hours_per_year), 'big-num'), t('unit.gpu_hours_year')));
      k2.appendChild(kpi(t('cost.hybrid_yearly'), fig(hs.average_yearly_cny, '/cost/hybrid_split/average_yearly_cny', cny(hs.average_yearly_cny), 'big-num'), null,
        tNodes('cost.hybrid_yearly_sub', {
          own: fig(hs.owned_average_yearly_cny, '/cost/hybrid_split/owned_average_yearly_cny', cny(hs.owned_average_yearly_cny)),
          rent: fig(hs.rented_average_yearly_cny, '/cost/hybrid_split/rented_average_yearly_cny', cny(hs.rented_average_yearly_cny)),
        })));
      body.appendChild(k2);
      body.appendChild(monthlyBars(hs.monthly || []));
    }
  }

  /** Stacked monthly bars: owned vs rented GPU-hours, in proportion to the busiest month. */
  function monthlyBars(monthly) {
    const W = state.chartWidth || 760, H = 180, M = { l: 56, r: 10, t: 10, b: 26 };
    const max = Math.max.apply(null, monthly.map(function (m) { return m.demand_gpu_hours; }).concat([1]));
    const ticks = linearTicks(0, max, 4);
    const top = ticks[ticks.length - 1] || 1;
    const chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'line-chart month-chart', role: 'img' });
    const y = function (v) { return H - M.b - v / top * (H - M.t - M.b); };
    ticks.forEach(function (v) {
      chart.appendChild(svg('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: 'grid' }));
      const tx = svg('text', { x: M.l - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' });
      tx.textContent = integer(v);
      chart.appendChild(tx);
    });
    const slot = (W - M.l - M.r) / Math.max(1, monthly.length);
    monthly.forEach(function (m, i) {
      const x = M.l + i * slot + slot * 0.18, w = slot * 0.64;
      const owned = svg('rect', { x: x, y: y(m.owned_gpu_hours), width: w, height: Math.max(0, y(0) - y(m.owned_gpu_hours)), class: 'bar-owned',
        'data-field': '/cost/hybrid_split/monthly/' + i + '/owned_gpu_hours', 'data-value': String(m.owned_gpu_hours) });
      const rented = svg('rect', { x: x, y: y(m.owned_gpu_hours + m.rented_gpu_hours), width: w, height: Math.max(0, y(m.owned_gpu_hours) - y(m.owned_gpu_hours + m.rented_gpu_hours)), class: 'bar-rented',
        'data-field': '/cost/hybrid_split/monthly/' + i + '/rented_gpu_hours', 'data-value': String(m.rented_gpu_hours) });
      const tip = t('cost.month_tip', { m: m.month, d: integer(m.demand_gpu_hours), o: integer(m.owned_gpu_hours), r: integer(m.rented_gpu_hours) });
      [owned, rented].forEach(function (b) { const tt = svg('title'); tt.textContent = tip; b.appendChild(tt); chart.appendChild(b); });
      const tx = svg('text', { x: x + w / 2, y: H - 8, class: 'tick', 'text-anchor': 'middle' });
      tx.textContent = t('month.short', { m: m.month });
      chart.appendChild(tx);
    });
    chart.appendChild(svg('line', { x1: M.l, x2: W - M.r, y1: y(0), y2: y(0), class: 'axis' }));
    return h('figure', { class: 'chart' }, chart, h('div', { class: 'chart-legend' },
      h('span', null, h('i', { class: 'lg-box bar-owned-bg' }), t('cost.owned_hours')),
      h('span', null, h('i', { class: 'lg-box bar-rented-bg' }), t('cost.rented_hours')),
      h('span', { class: 'muted', text: t('cost.month_axis') })));
  }

  // Panel: sites and electricity.
  function renderSites(body, r) {
    const C = r.cost;
    const E = C.electricity;
    if (E) {
      body.appendChild(sectionTitle(t('elec.title'), h('span', { class: 'section-sub', dataset: { field: '/cost/electricity/tariff', value: String(E.tariff) },
        text: hasString('elec.tariff.' + E.tariff) ? t('elec.tariff.' + E.tariff) : String(E.tariff) })));
      const k = h('div', { class: 'kpis' });
      k.appendChild(kpi(t('elec.yearly'), fig(E.cny_per_year, '/cost/electricity/cny_per_year', cny(E.cny_per_year), 'big-num'), null,
        E.included_in_colocation ? t('elec.included') : tNodes('elec.kwh', { kwh: fig(E.facility_kwh_per_year, '/cost/electricity/facility_kwh_per_year', integer(E.facility_kwh_per_year)) })));
      k.appendChild(kpi(t('elec.average'), fig(E.average_cny_per_kwh, '/cost/electricity/average_cny_per_kwh', numberFormat(E.average_cny_per_kwh, 3), 'big-num'), t('unit.cny_per_kwh'),
        tNodes('elec.prices', {
          peak: fig(E.peak_cny_per_kwh_effective, '/cost/electricity/peak_cny_per_kwh_effective', numberFormat(E.peak_cny_per_kwh_effective, 3)),
          flat: fig(E.flat_cny_per_kwh, '/cost/electricity/flat_cny_per_kwh', numberFormat(E.flat_cny_per_kwh, 3)),
          valley: fig(E.valley_cny_per_kwh, '/cost/electricity/valley_cny_per_kwh', numberFormat(E.valley_cny_per_kwh, 3)),
        })));
      k.appendChild(kpi(t('elec.valley_saving'), fig(E.valley_shift_max_saving_cny_per_year, '/cost/electricity/valley_shift_max_saving_cny_per_year', cny(E.valley_shift_max_saving_cny_per_year), 'big-num'), null,
        tNodes('elec.valley_share', { s: fig(E.valley_shift_share, '/cost/electricity/valley_shift_share', percent(E.valley_shift_share, 0)) })));
      body.appendChild(k);
      if (E.periods && E.periods.length) {
        const pt = h('table', { class: 'data-table' }, h('thead', null, h('tr', null,
          h('th', { text: t('elec.col.period') }), h('th', { class: 'num', text: t('elec.col.hours') }), h('th', { class: 'num', text: t('elec.col.price') }),
          h('th', { class: 'num', text: t('elec.col.busy') }), h('th', { class: 'num', text: t('elec.col.kwh') }), h('th', { class: 'num', text: t('elec.col.cny') }))));
        const tb = h('tbody');
        E.periods.forEach(function (p, i) {
          const base = '/cost/electricity/periods/' + i;
          tb.appendChild(h('tr', null,
            h('td', { dataset: { field: base + '/period', value: String(p.period) }, text: hasString('elec.period.' + p.period) ? t('elec.period.' + p.period) : String(p.period) }),
            h('td', { class: 'num' }, fig(p.hours_per_day, base + '/hours_per_day', num3(p.hours_per_day))),
            h('td', { class: 'num' }, fig(p.cny_per_kwh, base + '/cny_per_kwh', numberFormat(p.cny_per_kwh, 3))),
            h('td', { class: 'num' }, fig(p.busy_hours_per_day, base + '/busy_hours_per_day', num3(p.busy_hours_per_day))),
            h('td', { class: 'num' }, fig(p.facility_kwh_per_year, base + '/facility_kwh_per_year', integer(p.facility_kwh_per_year))),
            h('td', { class: 'num' }, fig(p.cny_per_year, base + '/cny_per_year', cny(p.cny_per_year)))));
        });
        pt.appendChild(tb);
        body.appendChild(h('div', { class: 'table-scroll' }, pt));
      }
    }
    const sites = C.site_comparison || [];
    if (sites.length) {
      body.appendChild(sectionTitle(t('site.title'), h('span', { class: 'section-sub', text: t('site.sub') })));
      const table = h('table', { class: 'data-table site-table' }, h('thead', null, h('tr', null,
        h('th', { text: t('site.col.site') }), h('th', { class: 'num', text: t('site.col.flat') }), h('th', { class: 'num', text: t('site.col.coloc_factor') }),
        h('th', { class: 'num', text: t('site.col.elec') }), h('th', { class: 'num', text: t('site.col.coloc') }),
        h('th', { class: 'num', text: t('site.col.buy_yearly') }), h('th', { class: 'num', text: t('site.col.lifetime') }), h('th', { class: 'num', text: t('site.col.diff') }))));
      const tb = h('tbody');
      sites.forEach(function (s, i) {
        const base = '/cost/site_comparison/' + i;
        tb.appendChild(h('tr', { class: s.selected ? 'selected' : '', dataset: { site: String(s.site) } },
          h('td', null, h('span', { class: 'strong', text: state.lang === 'en' ? String(s.name) : String(s.name_zh) }),
            s.selected ? h('span', { class: 'tag tag-pinned', text: t('site.selected') }) : h('button', { type: 'button', class: 'link-btn small', text: t('site.use'),
              onclick: function () { input('cost.site').value = s.site; schedule(0); } }),
            s.needs_confirmation ? h('span', { class: 'confirm-mark', title: t('prices.confirm_title'), text: t('prices.confirm') }) : null),
          h('td', { class: 'num' }, fig(s.electricity_flat_cny_per_kwh, base + '/electricity_flat_cny_per_kwh', numberFormat(s.electricity_flat_cny_per_kwh, 3))),
          h('td', { class: 'num' }, fig(s.colocation_factor, base + '/colocation_factor', '× ' + numberFormat(s.colocation_factor, 2))),
          h('td', { class: 'num' }, fig(s.electricity_cny_per_year, base + '/electricity_cny_per_year', cny(s.electricity_cny_per_year))),
          h('td', { class: 'num' }, fig(s.colocation_cny_per_year, base + '/colocation_cny_per_year', cny(s.colocation_cny_per_year))),
          h('td', { class: 'num' }, fig(s.buy_average_yearly_cny, base + '/buy_average_yearly_cny', cny(s.buy_average_yearly_cny))),
          h('td', { class: 'num' }, fig(s.buy_lifetime_cny, base + '/buy_lifetime_cny', cny(s.buy_lifetime_cny))),
          h('td', { class: 'num ' + (s.difference_vs_selected_cny_per_year < 0 ? 'good' : s.difference_vs_selected_cny_per_year > 0 ? 'bad' : '') },
            fig(s.difference_vs_selected_cny_per_year, base + '/difference_vs_selected_cny_per_year',
              s.difference_vs_selected_cny_per_year === 0 ? '—' : (s.difference_vs_selected_cny_per_year > 0 ? '+' : '') + cny(s.difference_vs_selected_cny_per_year)))));
      });
      table.appendChild(tb);
      body.appendChild(h('div', { class: 'table-scroll' }, table));
      const note = C.site_note;
      if (note) {
        const zh = state.lang !== 'en';
        body.appendChild(h('div', { class: 'source-notes' },
          h('blockquote', { class: 'source-quote' }, h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.data_zh : note.data_en) }),
            h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.siting_zh : note.siting_en) }),
            h('footer', { text: t('site.source', { source: String(note.source || '') }) }))));
      }
    }
  }

  // ------------------------------------------------------------ PRICE TABLE
  // cost.defaults_used (and capacity.defaults_used) list every default the plan used. An edit
  // goes into the request at the entry's override_path: into the form input for that path when
  // there is one, otherwise into state.overrides. The core recomputes and marks it overridden.

  function fieldFor(path) {
    for (let i = 0; i < FIELDS.length; i++) if (FIELDS[i].path === path) return FIELDS[i];
    return null;
  }

  // Overrides the core only accepts together with another key: a per-rack price is the price of
  // one rack class, so editing it also pins the class it was shown for (the result's rack_kw).
  const OVERRIDE_NEEDS = {
    '/cost/prices/colocation_cny_per_rack_month': { path: '/power/rack_kw', from: '/power/rack_kw' },
  };

  function commitOverride(path, raw) {
    const need = OVERRIDE_NEEDS[path];
    if (need && raw.trim() !== '' && pointerGet(state.lastRequest, need.path) === undefined) {
      const v = pointerGet(state.lastResult, need.from);
      const nf = fieldFor(need.path);
      if (isNum(v) && nf && input(nf.key)) input(nf.key).value = String(v);
    }
    const f = fieldFor(path);
    const node = f ? input(f.key) : null;
    if (node && (node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.type === 'text') {
      node.value = raw;
    } else {
      const v = readInt({ value: raw });
      if (v === undefined) delete state.overrides[path];
      else state.overrides[path] = v;
    }
    schedule(0);
  }

  /** A number as an editable string: no float noise (0.26599999999999996 -> 0.266). */
  function editable(v) {
    return isNum(v) ? String(Number(v.toPrecision(10))) : '';
  }

  function sourceNodes(source) {
    const text = String(source || '');
    const parts = text.split(/;\s+/);
    if (!parts.every(function (p) { return /^https?:\/\/\S+$/.test(p); })) return [h('span', { text: text })];
    return parts.map(function (url, i) {
      let host = url;
      try { host = new URL(url).hostname.replace(/^www\./, ''); } catch (e) { /* keep the URL */ }
      return [i ? ' · ' : null, h('a', { href: url, rel: 'noopener noreferrer', target: '_blank', title: url, text: host })];
    });
  }

  function priceInput(path, value, placeholder, field, raw) {
    const box = h('input', { type: 'text', class: 'price-input', inputmode: 'decimal', placeholder: placeholder || '',
      'aria-label': path, dataset: field ? { field: field, value: String(raw) } : null });
    box.value = value;
    let committed = value;
    const commit = function () {
      if (box.value.trim() === String(committed).trim()) return;
      committed = box.value;
      commitOverride(path, box.value);
    };
    box.addEventListener('change', commit);
    box.addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); commit(); } });
    return box;
  }

  function renderPrices(body, r, ctx) {
    const entries = [];
    (r.cost.defaults_used || []).forEach(function (e, i) { entries.push({ e: e, field: '/cost/defaults_used/' + i }); });
    ((r.capacity && r.capacity.defaults_used) || []).forEach(function (e, i) { entries.push({ e: e, field: '/capacity/defaults_used/' + i }); });
    const perPath = {};
    entries.forEach(function (x) { if (x.e.override_path) perPath[x.e.override_path] = (perPath[x.e.override_path] || 0) + 1; });
    const toConfirm = entries.filter(function (x) { return x.e.needs_confirmation; }).length;
    const overridden = entries.filter(function (x) { return x.e.overridden; }).length;

    ctx.actions.appendChild(h('label', { class: 'only-confirm small' },
      h('input', { type: 'checkbox', checked: state.onlyConfirm, onchange: function (e) { state.onlyConfirm = e.target.checked; renderPanels(); } }),
      ' ' + t('prices.only_confirm')));
    body.appendChild(h('p', { class: 'prices-intro' },
      h('span', { class: 'confirm-count', dataset: { field: '/cost/needs_confirmation', value: String(r.cost.needs_confirmation) } },
        toConfirm ? t('prices.n_confirm', { n: toConfirm }) : t('prices.all_confirmed')),
      overridden ? h('span', { class: 'muted', text: ' · ' + t('prices.n_overridden', { n: overridden }) }) : null,
      h('span', { class: 'muted', text: ' · ' + t('prices.as_of', { d: String(r.cost.prices_as_of || '') }) }),
      h('span', { class: 'muted', text: ' · ' + t('prices.intro') })));

    const table = h('table', { class: 'data-table price-table' }, h('thead', null, h('tr', null,
      h('th', { text: t('prices.col.item') }), h('th', { class: 'num', text: t('prices.col.value') }), h('th', { text: t('prices.col.unit') }),
      h('th', { text: t('prices.col.source') }), h('th', { text: t('prices.col.status') }))));
    const tb = h('tbody');
    let group = null;
    const seenPath = {};
    entries.forEach(function (x) {
      const e = x.e;
      if (state.onlyConfirm && !e.needs_confirmation) return;
      const g = String(e.key).split('.')[0];
      if (g !== group) {
        group = g;
        tb.appendChild(h('tr', { class: 'group-row' }, h('th', { colspan: '5', scope: 'rowgroup', text: hasString('pricegroup.' + g) ? t('pricegroup.' + g) : g })));
      }
      const path = e.override_path;
      const current = path ? pointerGet(state.lastRequest, path) : undefined;
      let mode = 'none';
      if (path) {
        if (current !== undefined && typeof current !== 'number') mode = 'elsewhere';
        else if (perPath[path] > 1 || /^x\s/.test(String(e.unit))) mode = 'path';
        else mode = 'inline';
      }
      const valueCell = h('td', { class: 'num value-cell field', dataset: path && mode !== 'elsewhere' ? { path: path } : null });
      if (mode === 'inline') {
        valueCell.appendChild(priceInput(path, editable(e.value), '', x.field + '/value', e.value));
      } else {
        valueCell.appendChild(fig(e.value, x.field + '/value', num3(e.value), 'price-value'));
        if (mode === 'path' && !seenPath[path]) {
          seenPath[path] = true;
          valueCell.appendChild(h('div', { class: 'path-edit' },
            priceInput(path, '', t('prices.set_path', { name: path.split('/').pop() })),
            h('div', { class: 'kpi-sub', text: perPath[path] > 1 ? t('prices.replaces_n', { n: perPath[path] }) : t('prices.replaces_ratio') })));
        } else if (mode === 'path') {
          valueCell.appendChild(h('div', { class: 'kpi-sub', text: t('prices.see_above') }));
        } else if (mode === 'elsewhere') {
          const target = fieldForPath(path);
          valueCell.appendChild(h('div', { class: 'kpi-sub' }, target ? h('button', { type: 'button', class: 'link-btn', text: t('prices.set_at', { path: path }),
            onclick: function () { focusField(target); } }) : h('code', { text: path })));
        }
      }
      const status = h('td', { class: 'status-cell' });
      if (e.needs_confirmation) status.appendChild(h('span', { class: 'confirm-mark', dataset: { field: x.field + '/needs_confirmation', value: 'true' }, title: t('prices.confirm_title'), text: t('prices.confirm') }));
      if (e.overridden) {
        status.appendChild(h('span', { class: 'tag tag-overridden', dataset: { field: x.field + '/overridden', value: 'true' }, text: t('prices.overridden') }));
        if (path && mode !== 'elsewhere') {
          status.appendChild(h('button', { type: 'button', class: 'link-btn small reset-override', title: t('prices.reset'), text: '↺ ' + t('prices.reset'),
            onclick: function () { commitOverride(path, ''); } }));
        }
      }
      if (!path) status.appendChild(h('span', { class: 'muted small', text: t('prices.fixed') }));
      tb.appendChild(h('tr', { class: (e.needs_confirmation ? 'needs-confirm ' : '') + (e.overridden ? 'overridden' : ''), dataset: { key: String(e.key) } },
        h('td', { class: 'item-cell' }, h('code', { class: 'price-key', text: String(e.key) }), h('div', { class: 'basis clamp', lang: 'en', title: String(e.basis || ''), text: String(e.basis || '') })),
        valueCell,
        h('td', { class: 'unit-cell', lang: 'en', text: String(e.unit || '') }),
        h('td', { class: 'source-cell' }, h('div', { class: 'clamp', title: String(e.source || '') }, sourceNodes(e.source)), e.as_of ? h('div', { class: 'kpi-sub', text: t('options.as_of', { date: e.as_of }) }) : null),
        status));
    });
    table.appendChild(tb);
    body.appendChild(h('div', { class: 'table-scroll tall' }, table));
  }

  // Panel: capacity planning from the job history.
  function renderCapacity(body, r) {
    const K = r.capacity;
    if (!K) {
      const target = document.querySelector('.field[data-path="/capacity/jobs_csv"]');
      body.appendChild(h('p', { class: 'muted', text: t('capacity.empty') }));
      body.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('capacity.go_paste'), onclick: function () { focusField(target); } }));
      return;
    }
    body.appendChild(h('p', { class: 'meta-line inline-facts' },
      h('span', null, t('capacity.jobs') + ' ', fig(K.jobs, '/capacity/jobs', integer(K.jobs))),
      K.dated ? h('span', null, t('capacity.window') + ' ', fig(K.first_month, '/capacity/first_month', String(K.first_month)), ' – ', fig(K.last_month, '/capacity/last_month', String(K.last_month))) : null,
      h('span', null, t('capacity.months') + ' ', fig(K.months, '/capacity/months', integer(K.months))),
      h('span', null, t('capacity.total') + ' ', fig(K.gpu_hours_total, '/capacity/gpu_hours_total', integer(K.gpu_hours_total)), ' ' + t('unit.gpu_hours')),
      h('span', null, t('capacity.buffer_short') + ' ', fig(K.buffer, '/capacity/buffer', percent(K.buffer, 0))),
      h('span', null, t('capacity.target') + ' ', fig(K.target_utilization, '/capacity/target_utilization', percent(K.target_utilization, 0)))));
    const types = K.by_gpu_type || [];
    const months = types.length && types[0].monthly_gpu_hours ? types[0].monthly_gpu_hours.map(function (m) { return m.month; }) : [];
    const table = h('table', { class: 'data-table capacity-table' }, h('thead', null, h('tr', null,
      h('th', { text: t('capacity.col.type') }),
      months.map(function (m) { return h('th', { class: 'num', text: String(m) }); }),
      h('th', { class: 'num', text: t('capacity.col.avg') }), h('th', { class: 'num', text: t('capacity.col.peak') }),
      h('th', { class: 'num', text: t('capacity.col.cards') }), h('th', { class: 'num', text: t('capacity.col.cards_peak') }),
      h('th', { class: 'num', text: t('capacity.col.util') }))));
    const tb = h('tbody');
    types.forEach(function (g, i) {
      const base = '/capacity/by_gpu_type/' + i;
      const peak = g.peak_monthly_gpu_hours || 1;
      tb.appendChild(h('tr', null,
        h('td', null, h('div', { class: 'strong', text: g.catalog_gpu ? gpuName(g.catalog_gpu) : String(g.gpu_type) }),
          h('div', { class: 'kpi-sub' }, h('code', { text: String(g.gpu_type) }), g.catalog_gpu ? null : h('span', { text: ' · ' + t('capacity.not_in_catalog') }))),
        (g.monthly_gpu_hours || []).map(function (m, j) {
          return h('td', { class: 'num month-cell' }, fig(m.gpu_hours, base + '/monthly_gpu_hours/' + j + '/gpu_hours', integer(m.gpu_hours)),
            h('div', { class: 'mini-bar' }, h('span', { style: 'width:' + Math.min(100, m.gpu_hours / peak * 100).toFixed(1) + '%' })));
        }),
        h('td', { class: 'num' }, fig(g.average_monthly_gpu_hours, base + '/average_monthly_gpu_hours', integer(g.average_monthly_gpu_hours))),
        h('td', { class: 'num' }, fig(g.peak_monthly_gpu_hours, base + '/peak_monthly_gpu_hours', integer(g.peak_monthly_gpu_hours))),
        h('td', { class: 'num cards' }, fig(g.cards_needed, base + '/cards_needed', integer(g.cards_needed), 'big-cards')),
        h('td', { class: 'num' }, fig(g.cards_needed_for_peak_month, base + '/cards_needed_for_peak_month', integer(g.cards_needed_for_peak_month))),
        h('td', { class: 'num' }, fig(g.expected_utilization, base + '/expected_utilization', percent(g.expected_utilization)))));
    });
    table.appendChild(tb);
    body.appendChild(h('div', { class: 'table-scroll' }, table));
    body.appendChild(h('p', { class: 'hint' }, h('span', { text: t('capacity.formula') + ' ' }), h('code', { lang: 'en', text: String(K.formula || '') })));
  }

  PANELS.push(
    { id: 'summary', titleKey: 'panel.summary', render: renderSummary },
    { id: 'breakdown', titleKey: 'panel.breakdown', render: renderBreakdown },
    { id: 'speed', titleKey: 'panel.speed', applies: function (r) { return Boolean(r.training); }, render: renderTrainingSpeed },
    { id: 'serving', titleKey: 'panel.serving', applies: function (r) { return Boolean(r.inference); }, render: renderInferenceSpeed },
    { id: 'options', titleKey: 'panel.options', render: renderOptions },
    { id: 'power', titleKey: 'panel.power', applies: function (r) { return Boolean(r.power); }, render: renderPower },
    { id: 'cost', titleKey: 'panel.cost', applies: function (r) { return Boolean(r.cost); }, render: renderCost },
    { id: 'sites', titleKey: 'panel.sites', applies: function (r) { return Boolean(r.cost && (r.cost.electricity || (r.cost.site_comparison || []).length)); }, render: renderSites },
    { id: 'prices', titleKey: 'panel.prices', applies: function (r) { return Boolean(r.cost && r.cost.defaults_used); }, render: renderPrices },
    { id: 'capacity', titleKey: 'panel.capacity', render: renderCapacity },
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
    labelMonths();
    applyDynamicPlaceholders();
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
    el.months = document.getElementById('monthly-demand');
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
    let resizeTimer = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        const w = Math.max(560, Math.min(1100, (el.panels.clientWidth || 800) - 36));
        if (Math.abs(w - (state.chartWidth || 0)) > 40) renderPanels();
      }, 150);
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
    buildMonthInputs();
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
