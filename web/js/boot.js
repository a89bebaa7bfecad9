// SPDX-License-Identifier: MIT
// The first thing the page does (js/main.js), right after the body is parsed. The pre-rendered
// first view (scripts/prerender.cjs) is the answer for the default request; a shared link
// (#req=...) asks about another job, so its default answer is hidden (the loading line shows)
// until the core renders the link's own.
export function hideDefaultAnswerForLink() {
  if (document.body && document.body.hasAttribute('data-prerendered') && /(^#|&)req=/.test(location.hash)) {
    document.body.classList.add('link-pending');
  }
}
