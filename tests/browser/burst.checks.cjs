// SPDX-License-Identifier: MIT
// The page's postMessage API under a burst (issue 23 item 7): 200 set-request messages used to
// cost 200 form fills and runs, an 18 s frozen frame. A host on its own origin frames the page
// (dist/widget/gpu-advisor.html, served by scripts/serve.cjs on another port) and, once it is
// ready, posts a request of another schema version (refused with an error at /schema), then
// BURST requests in a row with a get-result halfway and one at the end. The page must coalesce:
// at most one run per frame, the last request wins, and each get-result is answered with the
// state after the latest request.
'use strict';

const http = require('http');
const path = require('path');

const BURST = 200;
// One run per frame: the burst arrives within a few frames, so a handful of runs at most.
const BURST_RUNS_MAX = 5;
const FIRST = 1000; // the requests' sequence lengths: FIRST + 1 .. FIRST + BURST

const HOST_JS = `'use strict';
window.__messages = [];
const frame = document.getElementById('advisor');
const ask = function (i) { return { schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: ${FIRST} + i } }; };
window.addEventListener('message', function (e) {
  if (e.source !== frame.contentWindow) return;
  window.__messages.push(JSON.parse(JSON.stringify(e.data)));
  if (e.data && e.data.type === 'gpu-advisor:ready') {
    window.__burstAt = window.__messages.length;
    const newer = ask(0);
    newer.schema = 2;
    frame.contentWindow.postMessage({ type: 'gpu-advisor:set-request', request: newer }, e.origin);
    for (let i = 1; i <= ${BURST}; i++) {
      frame.contentWindow.postMessage({ type: 'gpu-advisor:set-request', request: ask(i) }, e.origin);
      if (i === ${BURST / 2}) frame.contentWindow.postMessage({ type: 'gpu-advisor:get-result', id: 'mid' }, e.origin);
    }
    frame.contentWindow.postMessage({ type: 'gpu-advisor:get-result', id: 'last' }, e.origin);
  }
});
`;

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return 'http://127.0.0.1:' + server.address().port;
}

module.exports = async function burstChecks(T) {
  const { assert, browser, check, siteDir } = T;
  const { createServer } = require('../../scripts/serve.cjs');
  const widget = createServer(path.dirname(siteDir));
  const widgetOrigin = await listen(widget);
  const host = http.createServer((req, res) => {
    const self = 'http://' + req.headers.host;
    if (req.url === '/host.js') { res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(HOST_JS); return; }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>burst</title></head><body>
<iframe id="advisor" title="advisor" src="${widgetOrigin}/widget/gpu-advisor.html?embed=1&amp;origin=${self}" width="900" height="600"></iframe>
<script src="host.js"></script></body></html>`);
  });
  const hostOrigin = await listen(host);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await check('postMessage: a burst of ' + BURST + ' set-request messages is coalesced (at most one run per frame, the last wins; get-result answers with the latest state); another schema version is refused', async () => {
      const p = await context.newPage();
      const errors = [];
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto(hostOrigin + '/');
      await p.waitForFunction(() => window.__messages.some((m) => m.id === 'last'), null, { timeout: 60000 });
      const msgs = await p.evaluate(() => window.__messages.slice(window.__burstAt));
      const seq = (m) => m && m.request && m.request.training && m.request.training.sequence_length;
      const runs = msgs.filter((m) => m.type === 'gpu-advisor:result' && m.id === undefined);
      assert(runs.length >= 1 && runs.length <= BURST_RUNS_MAX, runs.length + ' runs for ' + BURST + ' messages');
      const last = msgs.find((m) => m.id === 'last');
      const mid = msgs.find((m) => m.id === 'mid');
      assert(last.type === 'gpu-advisor:result' && seq(last) === FIRST + BURST, 'get-result after the burst: ' + JSON.stringify(last).slice(0, 160));
      assert(mid && seq(mid) >= FIRST + BURST / 2, 'get-result halfway answered with an older state: ' + seq(mid));
      const refused = msgs.find((m) => m.type === 'gpu-advisor:error');
      assert(refused && refused.error.path === '/schema', 'the schema 2 request was not refused: ' + JSON.stringify(refused));
      assert(!runs.some((m) => m.request.schema !== 1), 'a request was sent with another schema');
      const frame = await (await p.locator('#advisor').elementHandle()).contentFrame();
      const shown = await frame.evaluate(() => ({ seq: window.gpuAdvisor.lastRequest.training.sequence_length, state: document.body.getAttribute('data-state') }));
      assert(shown.seq === FIRST + BURST && shown.state === 'ready', 'the frame shows ' + JSON.stringify(shown));
      assert(!errors.length, 'script errors: ' + errors.join('; '));
      await p.close();
    });
  } finally {
    await context.close();
    widget.close();
    host.close();
  }
};
