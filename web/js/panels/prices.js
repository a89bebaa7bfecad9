// SPDX-License-Identifier: MIT
// Panel: the editable price table.
import { gpuName } from '../core.js';
import { fig, h, pointerGet } from '../dom.js';
import { fieldForPath, fieldName, focusField } from '../errors.js';
import { fieldFor, setOverride } from '../form.js';
import { editable, num3, readTyped } from '../format.js';
import { hasString, labelOf, lang, t } from '../i18n.js';
import { renderPanels } from '../panel.js';
import { lastRun, schedule } from '../run.js';
import { typedOptions } from '../schema.js';

let onlyConfirm = false; // only the entries that need confirmation

const PLATFORM_NAMES = { sxm: 'SXM', pcie: 'PCIe', oam: 'OAM', nvl: 'NVL' };

/** What a price entry is, in words: priceitem.<key> with the GPU / platform / site / rack class as a parameter. */
function itemLabel(key, r) {
  const parts = String(key).split('.');
  let pattern = String(key);
  const vars = {};
  if (parts.length === 3 && (parts[0] === 'gpus' || parts[0] === 'cluster_offers' || parts[0] === 'platforms' || parts[0] === 'sites')) {
    pattern = parts[0] + '.*.' + parts[2];
    if (parts[0] === 'gpus' || parts[0] === 'cluster_offers') vars.gpu = gpuName(parts[1]);
    if (parts[0] === 'platforms') vars.platform = PLATFORM_NAMES[parts[1]] || parts[1].toUpperCase();
    if (parts[0] === 'sites') {
      const site = ((r.cost && r.cost.site_comparison) || []).filter(function (x) { return x.site === parts[1]; })[0];
      vars.site = site ? String(lang === 'en' ? site.name : site.name_zh) : parts[1];
    }
  } else if (parts.length === 3 && parts[0] === 'lead_time' && parts[1] === 'purchase_days_by_gpu') {
    pattern = 'lead_time.purchase_days_by_gpu.*';
    vars.gpu = gpuName(parts[2]);
  } else if (parts[0] === 'colocation' && parts[1] === 'per_rack_month_cny' && parts.length > 2) {
    pattern = 'colocation.per_rack_month_cny.*';
    vars.kw = num3(Number(parts.slice(2).join('.')));
  }
  return hasString('priceitem.' + pattern) ? t('priceitem.' + pattern, vars) : null;
}

function unitLabel(unit) {
  const u = String(unit || '');
  return hasString('priceunit.' + u) ? { text: t('priceunit.' + u), lang: lang } : { text: u, lang: 'en' };
}

// The source notes of data/prices.json in words (the text is data; these are the ones it uses).
const SOURCE_NOTES = [
  [/^example — confirm with your provider$/, 'example_provider'],
  [/^example — confirm with a reseller$/, 'example_reseller'],
  [/^example — confirm with your bank\b/, 'example_bank'],
  [/^example — confirm \(no source for office rooms\)$/, 'example_office'],
  [/^engineering estimate — confirm with your server vendor$/, 'estimate_vendor'],
  [/^engineering estimate \(/, 'estimate_unsourced'],
  [/^product default — enter your own$/, 'product_default_enter'],
  [/^product default$/, 'product_default'],
  [/^product decision\b/, 'product_decision'],
  [/^public cost survey of AutoDL/, 'rental_survey'],
  [/^public 2026-06 Chinese e-commerce price reference/, 'ecommerce_2026_06'],
  [/^public 2026-05 Chinese hardware price round-up/, 'roundup_2026_05'],
  [/^NVIDIA HGX platform/, 'nvidia_hgx'],
  [/^example — confirm with your lessor or bank$/, 'example_lessor'],
  [/^engineering estimate — confirm with your reseller$/, 'estimate_reseller'],
  [/^engineering estimate — confirm with your provider$/, 'estimate_provider'],
  [/^product default \(set \/goal\/deadline_hours\)$/, 'product_default_deadline'],
  [/^public-page search$/, 'public_search'],
  [/^中华人民共和国增值税法 \(VAT Law of the PRC, adopted 2024-12-25, in force 2026-01-01\), article 10$/, 'vat_law_2026'],
  [/^the same rates as 财政部 税务总局 海关总署公告2019年第39号$/, 'vat_announcement_2019_39'],
];
// The project's brief, cited by its file: shown by name, with the sentence it quotes (Chinese).
const BRIEF = /^shared\/seed\/\S+ \(the project's source brief\)(?: \((.+)\))?$/;

// cost.defaults_used (and capacity.defaults_used) list every default the plan used. An edit
// goes into the request at the entry's override_path: into the form input for that path when
// there is one, otherwise into the form's overrides. The core recomputes and marks it overridden.

/**
 * Commits an edit. Some overrides only mean something with another key set (a per-rack price
 * is the price of one rack class): the entry's override_requires lists those request paths, and
 * each one the request leaves out is pinned to the value the core used for it
 * (result.resolved_inputs), so the figures stay those of the class the price was shown for.
 */
function commitOverride(path, raw, requires) {
  const run = lastRun();
  const resolved = (run.result && run.result.resolved_inputs) || {};
  if (raw.trim() !== '') {
    (requires || []).forEach(function (p) {
      if (pointerGet(run.request, p) === undefined && resolved[p] !== undefined && resolved[p] !== null) writeOverride(p, String(resolved[p]));
    });
  }
  writeOverride(path, raw);
  schedule(0);
}

/** Into the text box for `path` when the form has one, else into the form's overrides ("" removes it). */
function writeOverride(path, raw) {
  const f = fieldFor(path);
  if (f && f.widget === 'box') {
    f.node.value = raw;
    return;
  }
  setOverride(path, readTyped(raw, typedOptions(path)));
}

/** A source: links by their site's name, known notes in words, the brief by name; other text as written. */
function sourceNodes(source) {
  // An entry the request set: "your input", or "your input (default <value>, <its source>)".
  const own = /^your input(?: \(default ([^,]+), (.+)\))?$/.exec(String(source || ''));
  if (own) {
    return [h('span', { text: t('source.your_input') }),
      own[1] ? [' (', t('source.default_was', { value: own[1] }), ' ', sourceNodes(own[2]), ')'] : null];
  }
  const parts = String(source || '').split(/;\s+/).filter(Boolean);
  return parts.map(function (part, i) {
    const sep = i ? ' · ' : null;
    if (/^https?:\/\/\S+$/.test(part)) {
      let host = part;
      try { host = new URL(part).hostname.replace(/^www\./, ''); } catch (e) { /* keep the URL */ }
      return [sep, h('a', { href: part, rel: 'noopener noreferrer', target: '_blank', text: host })];
    }
    const brief = BRIEF.exec(part);
    if (brief) {
      return [sep, h('span', { class: 'source-brief', text: t('source.brief') }),
        brief[1] && lang !== 'en' ? h('span', { lang: 'zh-CN', text: '：“' + brief[1] + '”' }) : null];
    }
    const known = SOURCE_NOTES.filter(function (x) { return x[0].test(part); })[0];
    if (known) return [sep, h('span', { text: t('source.' + known[1]) })];
    return [sep, h('span', { lang: 'en', text: part })];
  });
}

/**
 * A box that commits an override for `path` on Enter or blur. With a result and a pointer it
 * starts on that figure (and carries it, like any figure); without, it is empty.
 */
function priceInput(path, requires, placeholder, result, pointer, label) {
  const box = h('input', { type: 'text', class: 'price-input', inputmode: 'decimal', placeholder: placeholder || '', 'aria-label': label || t('prices.col.value') });
  if (pointer) {
    const raw = pointerGet(result, pointer);
    box.dataset.field = pointer;
    box.dataset.value = String(raw);
    box.value = editable(raw);
  }
  let committed = box.value;
  const commit = function () {
    if (box.value.trim() === String(committed).trim()) return;
    committed = box.value;
    commitOverride(path, box.value, requires);
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
    h('input', { type: 'checkbox', checked: onlyConfirm, onchange: function (e) { onlyConfirm = e.target.checked; renderPanels(); } }),
    ' ' + t('prices.only_confirm')));
  body.appendChild(h('p', { class: 'prices-intro' },
    fig(h('span', { class: 'confirm-count' }), r, '/cost/needs_confirmation', function () {
      return toConfirm ? t('prices.n_confirm', { n: toConfirm }) : t('prices.all_confirmed');
    }),
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
    if (onlyConfirm && !e.needs_confirmation) return;
    const g = String(e.key).split('.')[0];
    if (g !== group) {
      group = g;
      tb.appendChild(h('tr', { class: 'group-row' }, h('th', { colspan: '5', scope: 'rowgroup', text: labelOf('pricegroup.')(g) })));
    }
    const path = e.override_path;
    const label = itemLabel(e.key, r);
    const unit = unitLabel(e.unit);
    const current = path ? pointerGet(ctx.request, path) : undefined;
    let mode = 'none';
    if (path) {
      if (current !== undefined && typeof current !== 'number') mode = 'elsewhere';
      else if (perPath[path] > 1 || /^x\s/.test(String(e.unit))) mode = 'path';
      else mode = 'inline';
    }
    const valueCell = h('td', { class: 'num value-cell field', dataset: path && mode !== 'elsewhere' ? { path: path } : null });
    if (mode === 'inline') {
      valueCell.appendChild(priceInput(path, e.override_requires, '', r, x.field + '/value', label));
    } else {
      valueCell.appendChild(fig(r, x.field + '/value', num3, 'price-value'));
      if (mode === 'path' && !seenPath[path]) {
        seenPath[path] = true;
        valueCell.appendChild(h('div', { class: 'path-edit' },
          priceInput(path, e.override_requires, t('prices.set_path'), null, null, label),
          h('div', { class: 'kpi-sub', text: perPath[path] > 1 ? t('prices.replaces_n', { n: perPath[path] }) : t('prices.replaces_ratio') })));
      } else if (mode === 'path') {
        valueCell.appendChild(h('div', { class: 'kpi-sub', text: t('prices.see_above') }));
      } else if (mode === 'elsewhere') {
        const target = fieldForPath(path);
        valueCell.appendChild(h('div', { class: 'kpi-sub' }, target ? h('button', { type: 'button', class: 'link-btn', text: t('prices.set_at', { path: fieldName(target) || path }),
          onclick: function () { focusField(target); } }) : h('code', { text: path })));
      }
    }
    const status = h('td', { class: 'status-cell' });
    if (e.needs_confirmation) {
      status.appendChild(fig(h('span', { class: 'confirm-mark', title: t('prices.confirm_title') }), r, x.field + '/needs_confirmation', function () { return t('prices.confirm'); }));
    }
    if (e.stale) {
      status.appendChild(fig(h('span', { class: 'tag tag-stale', title: t('prices.stale_title') }), r, x.field + '/stale', function () { return t('prices.stale'); }));
    }
    if (e.overridden) {
      status.appendChild(fig(h('span', { class: 'tag tag-overridden' }), r, x.field + '/overridden', function () { return t('prices.overridden'); }));
      if (path && mode !== 'elsewhere') {
        status.appendChild(h('button', { type: 'button', class: 'link-btn small reset-override', title: t('prices.reset'), text: '↺ ' + t('prices.reset'),
          onclick: function () { commitOverride(path, ''); } }));
      }
    }
    if (!path) status.appendChild(h('span', { class: 'muted small', text: t('prices.fixed') }));
    tb.appendChild(h('tr', { class: (e.needs_confirmation ? 'needs-confirm ' : '') + (e.overridden ? 'overridden' : ''), dataset: { key: String(e.key) } },
      h('td', { class: 'item-cell' }, label ? h('div', { class: 'price-label', text: label }) : h('code', { class: 'price-key', text: String(e.key) }),
        // The basis is the data's own sentence (English, quoting Chinese names): one click away.
        e.basis ? h('details', { class: 'basis-note' }, h('summary', { text: t('prices.original_note') }), h('div', { class: 'basis', lang: 'en', text: String(e.basis) })) : null),
      valueCell,
      h('td', { class: 'unit-cell', lang: unit.lang, text: unit.text }),
      h('td', { class: 'source-cell' }, h('div', { class: 'clamp' }, sourceNodes(e.source)), e.as_of ? h('div', { class: 'kpi-sub', text: t('options.as_of', { date: e.as_of }) }) : null),
      status));
  });
  table.appendChild(tb);
  body.appendChild(h('div', { class: 'table-scroll tall' }, table));
}


export default { id: 'prices', titleKey: 'panel.prices', collapsed: true, applies: function (r) { return Boolean(r.cost && r.cost.defaults_used); }, render: renderPrices };

export { itemLabel as priceItemLabel, unitLabel as priceUnitLabel, sourceNodes as priceSourceNodes };
