// SPDX-License-Identifier: MIT
// How the page is shown (issue 29 item 1), read once from its address:
//   standalone          the whole advisor with its top bar
//   ?embed=1            in a host's frame: the whole advisor
//   ?embed=card         in a host's frame: the compact card (the answer and its reasons, the
//                       inputs a buyer changes, the provider's offers, a link to the full page)
// A framed page is embedded whatever its address says. In every embed mode the application's
// own chrome is hidden unless the host asks for it with ?chrome=<parts> (space, comma or "+"
// separated; the widget's chrome attribute):
//   brand    the dark "GPU Advisor" bar with its title
//   tools    the developer buttons (导出 JSON / 恢复默认)
//   notice   the "请向供应商确认" notice (prices_need_confirmation)
// No imports: js/hash.js, js/embed.js and the panels read it before anything else runs.
const params = new URLSearchParams(location.search);
const embedParam = params.get('embed');

export const FRAMED = window.parent !== window;
export const EMBED = FRAMED || embedParam === '1' || embedParam === 'card';
export const CARD = EMBED && embedParam === 'card';

export const CHROME_PARTS = ['brand', 'tools', 'notice'];
const asked = (params.get('chrome') || '').split(/[\s,+]+/).filter(function (p) { return CHROME_PARTS.indexOf(p) >= 0; });

/** Whether a part of the application's chrome shows: always standalone, embedded only when asked. */
export function showsChrome(part) {
  return !EMBED || asked.indexOf(part) >= 0;
}

/** A warning the page does not show: the "confirm with the provider" notice, embedded without `notice`. */
export function hiddenWarning(code) {
  return code === 'prices_need_confirmation' && !showsChrome('notice');
}
