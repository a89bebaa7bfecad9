// SPDX-License-Identifier: MIT
// Panel: the request as sent, for reproducing with the CLI.
import { copyText, h } from '../dom.js';
import { t } from '../i18n.js';

function renderRequest(body, r, ctx) {
  const text = JSON.stringify(ctx.request, null, 2);
  const details = h('details', { class: 'request' },
    h('summary', { text: t('request.hint') }),
    h('pre', { class: 'request-json', text: text }));
  ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('request.copy'),
    onclick: function () { copyText(text, t('toast.request_copied'), t('toast.copy_failed_text')); } }));
  body.appendChild(details);
}

export default { id: 'request', titleKey: 'panel.request', collapsed: true, render: renderRequest };
