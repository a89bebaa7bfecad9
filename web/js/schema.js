// SPDX-License-Identifier: MIT
// The form schema the core publishes in catalog(): `form`, one entry per request input ({path,
// kind: integer|number|boolean|choice|text|modules, choices?, min?, max?, exclusive_min?, default
// (null: the advisor decides), default_by_task?, tasks, unit?}), and `tasks` ({id, training,
// adapter} in the order to offer them). The page takes the task list, which
// inputs apply to which task, the choices of each select, ranges and defaults from here and keeps
// no such table of its own.
//
// With a core that publishes neither (older builds) the page still loads and computes: every
// input shows for every task, each select offers the default request's value (and "Auto" where
// the key may be left out), and the task switch offers the default request's task.
import { catalog, defaults } from './core.js';
import { clear, h, pointerGet } from './dom.js';
import { plain } from './format.js';
import { hasString, t } from './i18n.js';

let byPath = {};

/** Reads catalog.form; call once the catalog is loaded. */
export function loadSchema(loaded) {
  byPath = {};
  (Array.isArray(loaded.form) ? loaded.form : []).forEach(function (e) {
    if (e && typeof e.path === 'string') byPath[e.path] = e;
  });
}

/** The schema entry for a request path, or null. */
export function schemaFor(path) {
  return Object.prototype.hasOwnProperty.call(byPath, path) ? byPath[path] : null;
}

/**
 * The value the core uses for a path it is not given: default_by_task[task] when the schema has
 * one, else default (else the default request's value). For a task the input does not apply to,
 * the default of the tasks it applies to (a QLoRA-only choice shows QLoRA's default).
 */
export function defaultFor(path, task) {
  const e = schemaFor(path);
  if (!e) return defaults ? pointerGet(defaults, path) : undefined;
  const byTask = e.default_by_task || {};
  const applies = Array.isArray(e.tasks) ? e.tasks : [];
  const t0 = task !== undefined && applies.indexOf(task) < 0 && applies.length ? applies[0] : task;
  return Object.prototype.hasOwnProperty.call(byTask, t0) ? byTask[t0] : e.default;
}

/**
 * Whether the advisor decides the value: default null, a default that differs between the tasks
 * the input applies to, or one that depends on another input (a default_by_<input> other than task).
 */
export function advisorDecides(path) {
  const e = schemaFor(path);
  if (!e) return false;
  if (e.default === null) return true;
  if (Object.keys(e).some(function (k) { return k.indexOf('default_by_') === 0 && k !== 'default_by_task'; })) return true;
  const tasks = Array.isArray(e.tasks) ? e.tasks : [];
  return tasks.some(function (task) { return defaultFor(path, task) !== defaultFor(path, tasks[0]); });
}

/**
 * Whether the form may leave the key out (an "Auto" / "Default: x" entry): the advisor decides
 * it, or the default request leaves out the whole object that holds it (the power, cost and
 * capacity sections are sent only when the user sets something in them).
 */
export function mayOmit(path) {
  if (advisorDecides(path)) return true;
  const request = defaults || {};
  const d = pointerGet(request, path);
  if (d !== undefined) return d === null;
  const parent = pointerGet(request, path.slice(0, path.lastIndexOf('/')));
  return !(parent && typeof parent === 'object');
}

/** Whether the input for `path` applies to `task` (an entry without tasks applies to every task). */
export function appliesTo(path, task) {
  const e = schemaFor(path);
  return !e || !Array.isArray(e.tasks) || e.tasks.indexOf(task) >= 0;
}

/** The task ids to offer, in the core's order. */
export function taskIds() {
  const c = catalog || {};
  if (Array.isArray(c.tasks) && c.tasks.length) return c.tasks.map(function (x) { return String(x.id); });
  const ids = [];
  const add = function (id) { if (id && ids.indexOf(id) < 0) ids.push(id); };
  add(defaults && defaults.task);
  Object.keys(byPath).forEach(function (p) { (byPath[p].tasks || []).forEach(add); });
  return ids;
}

/** The task radios (name="task", one per task, labelled task.<id>); a checked task the core does not list stays. */
export function buildTaskChoices(container) {
  const checked = container.querySelector('input:checked');
  const ids = taskIds();
  clear(container);
  ids.forEach(function (id) {
    container.appendChild(h('label', null,
      h('input', { type: 'radio', name: 'task', value: id, checked: Boolean(checked && checked.value === id) }),
      h('span', { 'data-i18n': 'task.' + id, text: hasString('task.' + id) ? t('task.' + id) : id })));
  });
  if (checked && ids.indexOf(checked.value) < 0) container.appendChild(unknownTask(checked.value));
}

/** A radio for a task the core does not list (a link from a newer page), labelled with its raw id as text. */
function unknownTask(id) {
  return h('label', { class: 'unknown-choice', 'data-unknown': true },
    h('input', { type: 'radio', name: 'task', value: id, checked: true }),
    h('span', { text: t('form.unknown_choice', { id: id }) }));
}

/**
 * Checks the task `id`. A task the radios lack stays checked as itself (an extra radio marked
 * unknown), so that the request carries it and the core's located error names it; an unknown
 * radio no longer checked goes.
 */
export function keepTask(id) {
  const container = document.getElementById('task-group');
  const value = String(id);
  let found = false;
  container.querySelectorAll('input[name="task"]').forEach(function (r) {
    r.checked = r.value === value;
    found = found || r.checked;
    const label = r.closest('[data-unknown]');
    if (label && !r.checked) label.remove();
  });
  if (!found) container.appendChild(unknownTask(value));
}

/** A choice in words: the select's data-labels prefix + value, else choice.<value>, else the value. */
export function choiceLabel(select, value) {
  const prefix = select.getAttribute('data-labels');
  if (prefix && hasString(prefix + value)) return t(prefix + value);
  if (hasString('choice.' + value)) return t('choice.' + value);
  return String(value);
}

/**
 * The values a select for `path` offers: the task's choices where they depend on it (a stack of
 * the task's kind), else the schema's choices, [true, false] for a boolean.
 */
function choicesFor(path, task) {
  const e = schemaFor(path);
  const byTask = e && e.choices_by_task;
  if (byTask && task && Array.isArray(byTask[task])) return byTask[task].slice();
  if (e && Array.isArray(e.choices)) return e.choices.slice();
  if (e && e.kind === 'boolean') return [true, false];
  const d = defaultFor(path);
  return d === undefined || d === null ? [] : [d];
}

/**
 * (Re)builds a select's options for `path`, keeping its value: an empty entry first when the
 * key may be left out (and the select is not marked data-always) ("Auto", or "Default: x" when the core names its default), then the
 * choices; values sharing a prefix with a choicegroup.<prefix> string go in an <optgroup>.
 */
export function fillSelect(select, path, task) {
  const value = select.value;
  clear(select);
  // data-always: the select always sends its value (no Auto / Default entry; it starts on the default).
  if (mayOmit(path) && !select.hasAttribute('data-always')) {
    const d = defaultFor(path);
    const auto = select.getAttribute('data-auto');
    const text = auto ? t(auto) : d === undefined || d === null || advisorDecides(path) ? t('common.auto')
      : t('common.default_choice', { value: choiceLabel(select, d) });
    select.appendChild(h('option', { value: '', text: text, 'data-base': text }));
  }
  const groups = {};
  choicesFor(path, task).forEach(function (c) {
    const option = h('option', { value: String(c), text: choiceLabel(select, c) });
    const prefix = String(c).split('_')[0];
    if (String(c).indexOf('_') > 0 && hasString('choicegroup.' + prefix)) {
      if (!groups[prefix]) {
        groups[prefix] = h('optgroup', { label: t('choicegroup.' + prefix) });
        select.appendChild(groups[prefix]);
      }
      groups[prefix].appendChild(option);
    } else {
      select.appendChild(option);
    }
  });
  setSelect(select, value);
}

/** Selects `value`, adding it as an option when the select lacks it (a value from an old link). */
export function setSelect(select, value) {
  const text = value === undefined || value === null ? '' : String(value);
  const has = Array.prototype.some.call(select.options, function (o) { return o.value === text; });
  if (!has && text !== '') select.appendChild(h('option', { value: text, text: choiceLabel(select, value) }));
  if (has || text !== '') select.value = text;
}

/**
 * Selects `value` in a list the catalog fills (the preset, the GPU). A value the list lacks (a
 * link made on a newer catalog or under a provider) stays selected as itself: an extra option
 * labelled with the raw id as text and marked unknown, so that the request carries it and the
 * core's located error names it. Such an option goes once something else is selected here.
 */
export function keepChoice(select, value) {
  const text = value === undefined || value === null ? '' : String(value);
  Array.prototype.slice.call(select.querySelectorAll('option[data-unknown]')).forEach(function (o) {
    if (o.value !== text) o.remove();
  });
  const has = Array.prototype.some.call(select.options, function (o) { return o.value === text; });
  if (!has) {
    select.appendChild(h('option', { value: text, class: 'unknown-choice', 'data-unknown': true,
      text: t('form.unknown_choice', { id: text === '' ? '""' : text }) }));
  }
  select.value = text;
}

/**
 * How a number box for `path` reads what is typed (format.js parseNumberInput): `fraction` when
 * the schema caps it at 1 (a share: "60%"), `hours` when it is a duration in hours (schema unit
 * "hours": "60天", "2周"), `perMonth` when it is a cadence (schema unit "per_month": "每周一次"), `money` when it is in yuan (schema unit "cny"; a path
 * the schema does not list, such as a GPU's price /cost/prices/gpus/<id>/purchase_cny, by the
 * core's name rule: `…_cny` or `…cny_per_…`, docs/api.md).
 */
export function typedOptions(path) {
  const e = schemaFor(path);
  if (e) return { fraction: typeof e.max === 'number' && e.max <= 1, money: e.unit === 'cny', hours: e.unit === 'hours', perMonth: e.unit === 'per_month' };
  const name = String(path).slice(String(path).lastIndexOf('/') + 1);
  return { fraction: false, money: /_cny$/.test(name) || /cny_per_/.test(name), hours: /_hours$/.test(name) && !/gpu_hours$/.test(name) };
}

/** The range the schema gives for a number, as a tooltip ("" when it gives none). */
export function rangeText(path) {
  const e = schemaFor(path);
  if (!e) return '';
  const parts = [];
  if (typeof e.min === 'number') parts.push(t(e.exclusive_min ? 'form.gt' : 'form.min', { min: plain(e.min) }));
  if (typeof e.max === 'number') parts.push(t(e.exclusive_max ? 'form.lt' : 'form.max', { max: plain(e.max) }));
  return parts.join(t('form.and'));
}
