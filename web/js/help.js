// SPDX-License-Identifier: MIT
// Help on every input (issue 29 item 4): a "?" beside each field of the form and the goal bar
// opens one line that says what the field means, what to enter, its default and why. The line is
// each control's accessible description (aria-describedby), so a screen reader reads it with the
// field whether it is open or not; the "?" is a button, reached by Tab, that shows it. The words
// are help.<request path, slashes as dots> in data/messages/*.json (data-help names another key); the
// nodes carry data-i18n, so a language switch rewrites them with the other static labels.
import { h } from './dom.js';
import { FORMS } from './form.js';
import { t } from './i18n.js';
import { onResult } from './run.js';

/** Every element that holds one input (or one group of radios) of the form and the goal bar. */
function holders() {
  return document.querySelectorAll(FORMS.map(function (f) { return f + ' .field[data-path], ' + f + ' [data-help]'; }).join(', '));
}

/** The help string's key for a holder: data-help, else its request path. */
export function helpKey(holder) {
  const named = holder.getAttribute('data-help');
  return 'help.' + (named || holder.getAttribute('data-path').slice(1).replace(/\//g, '.'));
}

function build(holder) {
  const key = helpKey(holder);
  const id = 'help-' + key.slice(5).replace(/\./g, '-');
  holder.setAttribute('data-help-id', id);
  const text = h('p', { class: 'field-help', id: id, hidden: true, 'data-i18n': key }, t(key));
  const srId = id + '-name';
  const toggle = h('button', { type: 'button', class: 'help-toggle', 'aria-expanded': 'false', 'aria-controls': id },
    h('span', { 'aria-hidden': 'true' }, '?'), h('span', { class: 'sr-only', id: srId, 'data-i18n': 'help.toggle' }, t('help.toggle')));
  // The button is named "Help" and the field's label, so that a list of buttons says which.
  const label = holder.querySelector('label');
  if (label) {
    if (!label.id) label.id = id + '-label';
    toggle.setAttribute('aria-labelledby', srId + ' ' + label.id);
  }
  if (holder.getAttribute('role') === 'radiogroup') {
    // A row of radios keeps its row: the "?" sits in the group's corner, the line under it.
    toggle.classList.add('help-toggle-group');
    holder.after(toggle);
    toggle.after(text);
  } else {
    holder.classList.add('has-help');
    holder.insertBefore(toggle, label ? label.nextSibling : holder.firstChild);
    holder.appendChild(text);
  }
}

/** Adds the help to each holder that has none yet, and makes it each control's description. */
export function renderHelp() {
  holders().forEach(function (holder) {
    if (!holder.hasAttribute('data-help-id')) build(holder);
    const id = holder.getAttribute('data-help-id');
    // Controls a re-render makes anew (the LoRA module boxes) are described again here.
    holder.querySelectorAll('input, select, textarea').forEach(function (control) {
      const given = control.getAttribute('aria-describedby') || '';
      if (given.split(' ').indexOf(id) < 0) control.setAttribute('aria-describedby', (given ? given + ' ' : '') + id);
    });
  });
}

/** Shows or hides the line a "?" controls. */
function toggleHelp(button) {
  const text = document.getElementById(button.getAttribute('aria-controls'));
  if (!text) return;
  const open = button.getAttribute('aria-expanded') !== 'true';
  button.setAttribute('aria-expanded', String(open));
  text.hidden = !open;
}

document.addEventListener('click', function (e) {
  const button = e.target && e.target.closest ? e.target.closest('.help-toggle') : null;
  if (button) toggleHelp(button);
});

// After a run, only when a control was added to the form since the last look (a link's unknown
// task, the LoRA boxes rebuilt): walking every holder costs ~1 ms of each input change.
let watcher = null;
function controlsAdded() {
  if (!watcher) {
    watcher = new MutationObserver(function () {}); // read with takeRecords(): the run is synchronous
    FORMS.forEach(function (f) { const n = document.querySelector(f); if (n) watcher.observe(n, { childList: true, subtree: true }); });
    return true;
  }
  return watcher.takeRecords().some(function (m) {
    return Array.prototype.some.call(m.addedNodes, function (n) {
      return n.nodeType === 1 && (/^(INPUT|SELECT|TEXTAREA)$/.test(n.nodeName) || Boolean(n.querySelector('input, select, textarea')));
    });
  });
}

onResult(function () { if (controlsAdded()) renderHelp(); }, 'form');
