// SPDX-License-Identifier: MIT
// Panel: the request as sent, for reproducing with the CLI.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const { copyText, h, t } = UI;

  function renderRequest(body, r, ctx) {
    const text = JSON.stringify(ctx.request, null, 2);
    const details = h('details', { class: 'request' },
      h('summary', { text: t('request.hint') }),
      h('pre', { class: 'request-json', text: text }));
    ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('request.copy'),
      onclick: function () { copyText(text, t('toast.request_copied'), t('toast.copy_failed_text')); } }));
    body.appendChild(details);
  }

  UI.registerPanel({ id: 'request', titleKey: 'panel.request', collapsed: true, render: renderRequest });
})();
