// SPDX-License-Identifier: MIT
// Hand-written SVG charts: lineChart, stackBar, monthlyBars. They only place the core's figures
// (scales, ticks, positions), never a new figure, and every point that is a figure carries its
// data-field (its JSON pointer in the result) and data-value.
import { h, svg } from './dom.js';
import { integer, isNum } from './format.js';
import { t } from './i18n.js';
import { keyNode, on } from './patch.js';

/** The width charts are drawn at: the results column's (js/panel.js), or the print report's. */
export let chartWidth = 760;
export function setChartWidth(w) { chartWidth = w; }

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

export function linearTicks(min, max, count) {
  if (max <= min) max = min + 1;
  const step = niceStep(max - min, count || 5);
  const out = [];
  for (let v = Math.floor(min / step) * step; ; v += step) {
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    if (v >= max - step * 1e-9) break;
  }
  return out;
}

export function logTicks(min, max) {
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
 *        series: [{label, color, dash, axis, line (false: points only), points: [{x, y, field, value,
 *        tip, hollow, big, r, cls, key, label (text beside the point), onclick}]}],
 *        markers: [{x, label, cls}], title, noTable (the caller shows the figures in its own table)}
 * Returns a <figure> with the SVG, an HTML legend and the points as a folded table.
 */
export function lineChart(spec) {
  const W = spec.width || chartWidth, H = spec.height || 300;
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
  // A picture (role img) unless its points are buttons: then a named group, so that the points
  // stay reachable (an img's children are presentational).
  const interactive = spec.series.some(function (se) { return se.points.some(function (p) { return p.onclick; }); });
  const name = spec.title || [spec.y.label, spec.x.label].filter(Boolean).join(' / ');
  const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'line-chart', role: interactive ? 'group' : 'img', 'aria-label': name });
  const title = svg('title');
  title.textContent = name;
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
    if (d && se.line !== false) root.appendChild(svg('path', { d: d, class: 'series ' + (se.cls || ''), stroke: se.color, 'stroke-dasharray': se.dash || 'none' }));
    se.points.forEach(function (p) {
      if (!isNum(p.x) || !isNum(p.y)) return;
      const cx = X.scale(p.x), cy = A.scale(p.y);
      const c = svg('circle', { cx: cx.toFixed(1), cy: cy.toFixed(1), r: p.r || (p.big ? 5.5 : 3.6),
        class: 'point' + (p.hollow ? ' hollow' : '') + (p.big ? ' big' : '') + (p.cls ? ' ' + p.cls : '') + (p.onclick ? ' clickable' : ''),
        stroke: se.color, fill: p.hollow ? '#fff' : se.color });
      if (p.field) { c.setAttribute('data-field', p.field); c.setAttribute('data-value', String(p.value)); }
      if (p.key) { c.setAttribute('data-key', p.key); keyNode(c); }
      if (p.tip) { const tip = svg('title'); tip.textContent = p.tip; c.appendChild(tip); }
      if (p.onclick) {
        // A point that does something: a button for the keyboard too.
        c.setAttribute('tabindex', '0');
        c.setAttribute('role', 'button');
        if (p.tip) c.setAttribute('aria-label', p.tip);
        on(c, 'click', p.onclick);
        on(c, 'keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); p.onclick(e); } });
      }
      root.appendChild(c);
      if (p.label) {
        // A short name beside the point, kept inside the plot.
        const right = cx < W - M.r - 90;
        const tx = svg('text', { x: cx + (right ? 8 : -8), y: cy - 7, class: 'point-label', 'text-anchor': right ? 'start' : 'end' });
        tx.textContent = p.label;
        root.appendChild(tx);
      }
    });
  });
  const legend = h('div', { class: 'chart-legend line-legend' });
  spec.series.forEach(function (se) {
    const mark = se.line === false ? h('i', { class: 'lg-dot' + (se.hollow ? ' hollow' : '') }) : h('i', { class: 'lg-line' + (se.dash ? ' dashed' : '') });
    mark.style.borderColor = se.color;
    if (se.line === false && !se.hollow) mark.style.background = se.color;
    legend.appendChild(h('span', null, mark, se.label));
  });
  (spec.legendExtra || []).forEach(function (n) { legend.appendChild(n); });
  return h('figure', { class: 'chart' }, root, legend, spec.noTable ? null : lineTable(spec));
}

/**
 * A line chart's points as a table, folded under it: the text alternative of the picture
 * (issue 10 item 6), one row per point: series, x, y and the point's own description.
 */
function lineTable(spec) {
  const rows = [];
  let tips = false;
  spec.series.forEach(function (se) {
    const A = se.axis === 'y2' && spec.y2 ? spec.y2 : spec.y;
    se.points.forEach(function (p) {
      if (!isNum(p.x) || !isNum(p.y)) return;
      if (p.tip) tips = true;
      rows.push([p.label ? se.label + ' · ' + p.label : se.label, spec.x.format(p.x), A.format(p.y), p.tip || '']);
    });
  });
  const heads = [t('chart.series'), spec.x.label, spec.y2 ? spec.y.label + ' / ' + spec.y2.label : spec.y.label].concat(tips ? [t('chart.details')] : []);
  return dataDetails(heads, rows.map(function (r) { return tips ? r : r.slice(0, 3); }));
}

/** <details> with a small table: heads (text), rows (arrays of text; the first cell heads its row). */
function dataDetails(heads, rows) {
  return h('details', { class: 'chart-data' }, h('summary', { text: t('chart.data') }),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data-table' },
      h('thead', null, h('tr', null, heads.map(function (x) { return h('th', { scope: 'col', text: x }); }))),
      h('tbody', null, rows.map(function (r) {
        return h('tr', null, r.map(function (c, i) { return i === 0 ? h('th', { scope: 'row', text: c }) : h('td', { text: c }); }));
      })))));
}

/**
 * One horizontal stacked bar in a 1000-unit-wide SVG stretched to its box.
 * spec: {cls, height (of the SVG), y, barHeight, title?, scale (the value of the full width),
 *        segments: [{value, fill, tip}]}. spec.draw(chart, x) may add marks; x(value) is the
 *        position of a value on the bar.
 */
export function stackBar(spec) {
  const W = 1000;
  const y = spec.y || 0, barHeight = spec.barHeight || spec.height;
  const x = function (v) { return v / (spec.scale || 1) * W; };
  // Named by its title, else by its segments' descriptions.
  const name = spec.title || spec.segments.filter(function (s) { return s.tip && s.value > 0; }).map(function (s) { return s.tip; }).join('; ');
  const chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + spec.height, class: spec.cls, preserveAspectRatio: 'none', role: 'img', 'aria-label': name });
  const title = svg('title');
  title.textContent = name;
  chart.appendChild(title);
  chart.appendChild(svg('rect', { x: 0, y: y, width: W, height: barHeight, rx: 4, class: 'stack-bg' }));
  let at = 0;
  spec.segments.forEach(function (s) {
    const w = x(s.value || 0);
    if (w <= 0) return;
    const seg = svg('rect', { x: at, y: y, width: Math.max(w, 0.5), height: barHeight, fill: s.fill, class: 'stack-seg' });
    const tip = svg('title');
    tip.textContent = s.tip;
    seg.appendChild(tip);
    chart.appendChild(seg);
    at += w;
  });
  if (spec.draw) spec.draw(chart, x);
  return chart;
}

/**
 * Stacked monthly bars: owned vs rented GPU-hours, in proportion to the busiest month.
 * monthly: the core's rows ({month, demand_gpu_hours, owned_gpu_hours, rented_gpu_hours}), at base in the result.
 */
export function monthlyBars(monthly, base) {
  const W = chartWidth, H = 180, M = { l: 56, r: 10, t: 10, b: 26 };
  const max = Math.max.apply(null, monthly.map(function (m) { return m.demand_gpu_hours; }).concat([1]));
  const ticks = linearTicks(0, max, 4);
  const top = ticks[ticks.length - 1] || 1;
  const name = t('cost.month_chart') + ' (' + t('cost.owned_hours') + ', ' + t('cost.rented_hours') + ')';
  const chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'line-chart month-chart', role: 'img', 'aria-label': name });
  const chartTitle = svg('title');
  chartTitle.textContent = name;
  chart.appendChild(chartTitle);
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
      'data-field': base + '/' + i + '/owned_gpu_hours', 'data-value': String(m.owned_gpu_hours) });
    const rented = svg('rect', { x: x, y: y(m.owned_gpu_hours + m.rented_gpu_hours), width: w, height: Math.max(0, y(m.owned_gpu_hours) - y(m.owned_gpu_hours + m.rented_gpu_hours)), class: 'bar-rented',
      'data-field': base + '/' + i + '/rented_gpu_hours', 'data-value': String(m.rented_gpu_hours) });
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
    h('span', { class: 'muted', text: t('cost.month_axis') })),
    dataDetails([t('chart.month'), t('chart.demand_hours'), t('cost.owned_hours'), t('cost.rented_hours')], monthly.map(function (m) {
      return [t('month.short', { m: m.month }), integer(m.demand_gpu_hours), integer(m.owned_gpu_hours), integer(m.rented_gpu_hours)];
    })));
}
