// SPDX-License-Identifier: MIT
// Panel: validation on delivery (issue 9). The core writes the scripts for the plan (the pinned
// hardware, else the recommended plan): the NGC container it picked and why, each script with a
// copy button and a download, and one .sh bundle that unpacks them all. Dropping the
// validation-result.json the scripts write (or a raw nvidia-smi CSV) shows the core's check
// report in the source's order: memory, interconnect, compute, power, cost. Everything here is
// the core's (validationScripts / validationCheck); the page only lays it out.
import { callValidationCheck, callValidationCheckServers, callValidationScripts, canLoadValidation, hasValidation, loadValidation } from '../core.js';
import { clear, copyText, h, toast } from '../dom.js';
import { downloadText } from '../export.js';
import { num3, percent } from '../format.js';
import { hasString, labelOf, lang, t } from '../i18n.js';
import { renderPanels, sectionTitle } from '../panel.js';
import { lastRun } from '../run.js';

const AREAS = ['memory', 'interconnect', 'compute', 'power', 'cost'];
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_FILE_BYTES = 64 << 20; // a 10-hour nvidia-smi log at 1 s is ~30 MB
// One result file per server: the largest plan the advisor searches is 2,048 GPUs, 256 servers of 8.
const MAX_FILES = 256;

/**
 * A validation reason in words: vreason.<code> with its parameters (strings), else the core's
 * English. A script line whose own code has words (vline.<line_code>) reads in them, with the
 * line's fields (check, expected, measured, detail) as parameters.
 */
function reasonText(reason) {
  const code = reason && reason.code;
  const params = (reason && reason.params) || {};
  const lineKey = code === 'script_line' && params.line_code ? 'vline.' + params.line_code : '';
  const key = lineKey && hasString(lineKey) ? lineKey : 'vreason.' + code;
  if (!code || !hasString(key)) return h('span', { lang: 'en', text: String((reason && reason.message) || code || '') });
  const text = t(key, params);
  return h('span', null, text);
}

/**
 * One shell script that unpacks every file into a folder (quoted here-documents: nothing in
 * them is expanded), marks the executable ones, and says where to start.
 */
function bundle(scripts) {
  const files = scripts.files.filter(function (f) { return SAFE_NAME.test(String(f.name)); });
  const dir = 'gpu-advisor-validation-' + String(scripts.plan_id).replace(/[^A-Za-z0-9]/g, '');
  const lines = ['#!/usr/bin/env bash', '# GPU Advisor validation scripts for plan ' + String(scripts.plan_id).replace(/[^A-Za-z0-9]/g, '') + '.',
    '# Unpack with: bash ' + dir + '.sh [folder]   (default: ./' + dir + ')', 'set -euo pipefail',
    'dir="${1:-' + dir + '}"', 'mkdir -p "$dir"'];
  files.forEach(function (f, i) {
    const text = String(f.text);
    let eof = 'GPU_ADVISOR_EOF_' + i;
    while (text.split('\n').indexOf(eof) >= 0) eof += '_';
    lines.push("cat > \"$dir/" + f.name + "\" <<'" + eof + "'");
    lines.push(text.replace(/\n$/, ''));
    lines.push(eof);
    if (f.executable) lines.push('chmod +x "$dir/' + f.name + '"');
  });
  const first = files.filter(function (f) { return f.executable; })[0];
  lines.push('echo "' + files.length + ' files in $dir' + (first ? '; start with: cd $dir && ./' + first.name : '') + '"');
  return lines.join('\n') + '\n';
}

function scriptList(scripts) {
  const list = h('ul', { class: 'script-list' });
  scripts.files.forEach(function (f) {
    const name = String(f.name);
    list.appendChild(h('li', { class: 'script', dataset: { name: name } },
      h('div', { class: 'script-head' },
        h('code', { class: 'script-name', text: name }),
        f.root ? h('span', { class: 'tag tag-root', title: t('validation.root_title'), text: t('validation.root') }) : null,
        // What the script checks: validation.purpose.<file name> (the core's English without one).
        hasString('validation.purpose.' + name) ? h('span', { class: 'script-purpose', text: t('validation.purpose.' + name) })
          : h('span', { class: 'script-purpose', lang: 'en', text: String(f.purpose || '') }),
        h('span', { class: 'script-actions' },
          h('button', { type: 'button', class: 'btn btn-small copy-script', text: t('validation.copy'), onclick: function () { copyText(String(f.text), t('toast.script_copied')); } }),
          SAFE_NAME.test(name) ? h('button', { type: 'button', class: 'btn btn-small download-script', text: t('validation.download'),
            onclick: function () { downloadText(String(f.text), name, 'text/x-shellscript;charset=utf-8'); } }) : null)),
      h('details', { class: 'script-text' }, h('summary', { text: t('validation.show', { lines: String(f.text).split('\n').length }) }),
        h('pre', { text: String(f.text) }))));
  });
  return list;
}

function statusLabel(s) { return labelOf('vstatus.')(s); }

function valueText(v, unit) {
  if (v === null || v === undefined) return '—';
  const n = typeof v === 'number' ? num3(v) : String(v);
  if (!unit) return n;
  // A counted unit agrees with its number ("1 server", "2 servers": vunit.* plurals on n).
  return n + ' ' + (hasString('vunit.' + unit) ? t('vunit.' + unit, { n: typeof v === 'number' ? v : undefined }) : String(unit));
}

function itemsTable(items) {
  const table = h('table', { class: 'data-table check-table' }, h('thead', null, h('tr', null,
    ['validation.col.area', 'validation.col.item', 'validation.col.status', 'validation.col.expected', 'validation.col.measured',
      'validation.col.deviation', 'validation.col.reason'].map(function (k) { return h('th', { text: t(k) }); }))));
  const tb = h('tbody');
  // The core lists items in the source's order; grouped here by area in that same order.
  AREAS.concat(['other']).forEach(function (area) {
    (items || []).forEach(function (it) {
      const a = AREAS.indexOf(it.area) >= 0 ? it.area : 'other';
      if (a !== area) return;
      tb.appendChild(h('tr', { class: 'check-item status-' + it.status, dataset: { area: String(it.area), item: String(it.item), status: String(it.status), code: String(it.reason && it.reason.code) } },
        h('td', { text: labelOf('step.')(it.area) }),
        h('td', { text: labelOf('vitem.')(it.item) }),
        h('td', null, h('span', { class: 'pill vstatus-' + it.status, text: statusLabel(it.status) })),
        h('td', { class: 'num', text: valueText(it.expected, it.unit) }),
        h('td', { class: 'num', text: valueText(it.measured, it.unit) }),
        h('td', { class: 'num', text: typeof it.deviation === 'number' ? (it.deviation > 0 ? '+' : '') + percent(it.deviation, 0) : '—' }),
        h('td', { class: 'check-reason' }, reasonText(it.reason))));
    });
  });
  table.appendChild(tb);
  return h('div', { class: 'table-scroll' }, table);
}

function reportView(report) {
  const box = h('div', { class: 'check-report', dataset: { overall: String(report.overall) } });
  const counts = report.counts || {};
  box.appendChild(h('p', { class: 'check-summary' },
    h('span', { class: 'pill vstatus-' + report.overall, text: statusLabel(report.overall) }), ' ',
    t('validation.counts', { pass: counts.pass || 0, warn: counts.warn || 0, fail: counts.fail || 0 }), ' · ',
    h('code', { text: String(report.file || '') })));
  box.appendChild(itemsTable(report.items));
  return box;
}

/** A cluster's files: one verdict and the cluster's own checks, then each server's report. */
function clusterView(report) {
  const box = h('div', { class: 'check-report check-cluster', dataset: { overall: String(report.overall) } });
  const counts = report.counts || {};
  box.appendChild(h('p', { class: 'check-summary' },
    h('span', { class: 'pill vstatus-' + report.overall, text: statusLabel(report.overall) }), ' ',
    t('validation.server_counts', { servers: (report.servers || []).length, expected: report.servers_expected || 0,
      pass: counts.pass || 0, warn: counts.warn || 0, fail: counts.fail || 0 })));
  if ((report.items || []).length) box.appendChild(itemsTable(report.items));
  (report.servers || []).forEach(function (server) {
    box.appendChild(h('details', { class: 'check-server', dataset: { host: String(server.host), overall: String(server.overall) }, open: server.overall === 'fail' },
      h('summary', null, h('span', { class: 'pill vstatus-' + server.overall, text: statusLabel(server.overall) }), ' ',
        h('code', { text: String(server.host) }), ' · ', h('span', { class: 'muted', text: String(server.file || '') })),
      reportView(server.report)));
  });
  return box;
}

// The files last dropped and the core's report on them: {files: [{name, text}], request (JSON), answer}.
let checked = null;

/** Checks the files against a request (the current one; again whenever the request changes). */
function check(files, request) {
  const answer = files.length === 1 ? callValidationCheck(request, files[0].text, files[0].name)
    : callValidationCheckServers(request, files);
  checked = { files: files, request: JSON.stringify(request), answer: answer };
}

function refuse(files, code, message, done) {
  checked = { files: files.map(function (f) { return { name: f.name, text: '' }; }), request: JSON.stringify(lastRun().request),
    answer: { error: { code: code, message: message, path: '' } } };
  done();
}

/** Reads every dropped file (one per server), then checks them together. */
function readFiles(list, done) {
  const files = Array.from(list || []);
  if (!files.length) return;
  if (files.length > MAX_FILES) return refuse(files.slice(0, 1), 'too_many', t('validation.too_many', { n: MAX_FILES }), done);
  const big = files.filter(function (f) { return f.size > MAX_FILE_BYTES; })[0];
  if (big) return refuse([big], 'too_big', t('validation.too_big', { mb: Math.round(MAX_FILE_BYTES / 1048576) }), done);
  const read = new Array(files.length);
  let left = files.length;
  files.forEach(function (file, i) {
    const reader = new FileReader();
    reader.onload = function () {
      read[i] = { name: file.name, text: String(reader.result) };
      if (--left === 0) { check(read, lastRun().request); done(); }
    };
    reader.onerror = function () { toast(t('validation.read_failed')); };
    reader.readAsText(file);
  });
}

function dropZone(rerender) {
  // The drop zone is the keyboard's way in (Enter opens the picker): the input is out of the tab order, and named.
  const picker = h('input', { type: 'file', class: 'sr-only', id: 'validation-file', tabindex: '-1', 'aria-label': t('validation.drop'), accept: '.json,.csv,.txt,application/json,text/csv', multiple: true });
  const zone = h('div', { class: 'drop-zone', id: 'validation-drop', tabindex: '0', role: 'button', 'aria-describedby': 'validation-drop-hint' },
    h('strong', { text: t('validation.drop') }),
    h('span', { class: 'muted', id: 'validation-drop-hint', text: t('validation.drop_hint') }));
  const take = function (files) { readFiles(files, rerender); };
  picker.addEventListener('change', function () { take(picker.files); });
  zone.addEventListener('click', function (e) { if (e.target !== picker) picker.click(); });
  zone.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); picker.click(); } });
  zone.addEventListener('dragover', function (e) { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', function () { zone.classList.remove('over'); });
  zone.addEventListener('drop', function (e) { e.preventDefault(); zone.classList.remove('over'); take(e.dataTransfer && e.dataTransfer.files); });
  // The input beside the zone, not in it: no control inside a control (axe nested-interactive).
  return h('div', { class: 'drop-wrap' }, zone, picker);
}

function errorBox(err) {
  return h('div', { class: 'banner banner-error check-error', role: 'alert' },
    h('div', { class: 'banner-head' }, h('strong', { text: t('validation.error') }), h('span', { class: 'code', text: String(err.code || '') })),
    hasString('verror.' + err.code) ? h('p', { text: t('verror.' + err.code) }) : null,
    err.path ? h('p', null, t('error.path') + ' ', h('code', { class: 'error-path', text: String(err.path) })) : null,
    // The core's sentence (English): as is in English, one click away in Chinese.
    lang === 'en' ? h('p', { class: 'error-message', lang: 'en', text: String(err.message || '') })
      : h('details', { class: 'core-message' }, h('summary', { text: t('error.core_message_original') }),
        h('p', { class: 'error-message', lang: 'en', text: String(err.message || '') })));
}

// Why the whole module did not load (the site loads it when this section opens), or null; and
// whether it is on its way (one redraw when it arrives, whatever redraws came meanwhile).
let loadFailure = null;
let loading = false;

/** The site's answer part has no validation: the whole module is loaded, then the section redrawn. */
function awaitWholeModule(body, rerender) {
  if (loadFailure) {
    body.appendChild(h('div', { class: 'banner banner-error', role: 'alert' },
      h('p', { text: t('validation.load_failed') }), h('p', { class: 'error-message', lang: 'en', text: loadFailure }),
      h('button', { type: 'button', class: 'btn btn-small', id: 'btn-validation-retry', text: t('validation.retry'),
        onclick: function () { loadFailure = null; rerender(); } })));
    return;
  }
  body.appendChild(h('p', { class: 'muted validation-loading', role: 'status', text: t('validation.loading') }));
  if (loading) return;
  loading = true;
  loadValidation().then(function () { loading = false; rerender(); },
    function (e) { loading = false; loadFailure = String(e && e.message || e); rerender(); });
}

function renderValidation(body, r, ctx) {
  const rerender = function () { renderPanels(); };
  if (!hasValidation()) {
    if (canLoadValidation()) awaitWholeModule(body, rerender);
    else body.appendChild(h('p', { class: 'muted', text: t('validation.unsupported') }));
    return;
  }
  const answer = callValidationScripts(ctx.request);
  if (answer.error) {
    body.appendChild(errorBox(answer.error));
  } else {
    const s = answer.result;
    const hw = ctx.request && ctx.request.hardware;
    body.appendChild(h('p', { class: 'validation-intro' }, t(hw ? 'validation.for_pinned' : 'validation.for_recommended'), ' ',
      h('code', { class: 'plan-id', text: t('validation.plan_id', { id: String(s.plan_id) }) })));
    const ngc = s.ngc || {};
    body.appendChild(h('div', { class: 'ngc-line' },
      h('span', { class: 'kpi-label', text: t('validation.ngc') + ' ' }), h('code', { class: 'ngc-image', text: String(ngc.image || ngc.tag || '') }),
      ngc.min_driver ? h('span', { class: 'muted', text: ' · ' + t('validation.min_driver', { v: String(ngc.min_driver) }) }) : null,
      ngc.reason ? h('div', { class: 'kpi-sub' }, reasonText(ngc.reason)) : null));
    ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', id: 'btn-validation-bundle', text: t('validation.bundle'),
      onclick: function () {
        downloadText(bundle(s), 'gpu-advisor-validation-' + String(s.plan_id).replace(/[^A-Za-z0-9]/g, '') + '.sh', 'text/x-shellscript;charset=utf-8');
        toast(t('toast.bundle'));
      } }));
    body.appendChild(h('p', { class: 'hint', text: t('validation.order_hint') }));
    body.appendChild(scriptList(s));
  }
  body.appendChild(sectionTitle(t('validation.check_title'), h('span', { class: 'section-sub', text: t('validation.check_sub') })));
  body.appendChild(dropZone(rerender));
  if (checked && checked.files.every(function (f) { return f.text; }) && checked.request !== JSON.stringify(ctx.request)) check(checked.files, ctx.request);
  const v = checked;
  if (v && v.answer) {
    const a = v.answer;
    body.appendChild(h('div', { class: 'check-result', dataset: { file: v.files.map(function (f) { return String(f.name); }).join(' ') } },
      a.error ? errorBox(a.error) : a.result.kind === 'cluster' ? clusterView(a.result) : reportView(a.result),
      h('button', { type: 'button', class: 'link-btn small', text: t('validation.clear'),
        onclick: function () { checked = null; rerender(); } })));
  }
}

export default { id: 'validation', titleKey: 'panel.validation', collapsed: true, rebuild: true, render: renderValidation };

