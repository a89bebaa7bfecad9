// SPDX-License-Identifier: MIT
// Panel: warnings, each with its translated meaning, the core's text and where it points.
import { fig, h } from '../dom.js';
import { fieldForPath, focusField } from '../errors.js';
import { hasString, t } from '../i18n.js';
import { hiddenWarning } from '../mode.js';
import { noteNode } from '../notes.js';

function renderWarnings(body, r) {
  const warnings = r.warnings || [];
  // In a provider's page the "confirm with the provider" notice is the host's to show (js/mode.js).
  if (!warnings.some(function (w) { return !hiddenWarning(w.code); })) {
    body.appendChild(h('p', { class: 'muted', text: t('warnings.none') }));
    return;
  }
  const list = h('ul', { class: 'warnings' });
  warnings.forEach(function (w, i) {
    if (hiddenWarning(w.code)) return;
    const field = fieldForPath(w.path);
    const known = hasString('warning.' + w.code);
    list.appendChild(fig(h('li', { class: 'warning' }), r, '/warnings/' + i + '/code', function () {
      return [h('div', { class: 'warning-head' },
        h('span', { class: 'warn-icon', 'aria-hidden': 'true', text: '!' }),
        // A code this page has no words for falls back to the core's English message.
        known ? h('span', { class: 'warning-text', text: t('warning.' + w.code) })
          : h('span', { class: 'warning-text', lang: 'en', text: String(w.message || w.code) }),
        h('code', { class: 'warning-code', text: String(w.code) })),
      // The message with its figures, from warnmsg.<code> (the core's English without a template).
      known ? noteNode('p', 'warnmsg.', { code: w.code, params: w.params, text: w.message || '' }, { class: 'warning-msg' }) : null,
      w.path ? h('div', { class: 'warning-path' }, t('warnings.path') + ' ',
        field ? h('button', { type: 'button', class: 'link-btn', onclick: function () { focusField(field); } }, h('code', { text: String(w.path) }))
          : h('code', { text: String(w.path) })) : null];
    }));
  });
  body.appendChild(list);
}

export default { id: 'warnings', titleKey: 'panel.warnings', render: renderWarnings };
