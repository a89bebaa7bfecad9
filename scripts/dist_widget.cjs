// SPDX-License-Identifier: MIT
// The widget folder of the dist (issue 10 item 1):
//   <distDir>/widget/gpu-advisor.js    the one script a provider adds (web/widget/gpu-advisor.js)
//   <distDir>/widget/gpu-advisor.html  the page the widget frames: the single file, as built
//   <distDir>/widget/index.html        an example host page (a provider's sales page) with
//   <distDir>/widget/example.css       its stylesheet (the theme variables) and
//   <distDir>/widget/example.js        its script (events, setRequest, getResult)
//   <distDir>/widget/provider-example.json  the example provider catalog (data/examples), which
//                                      the example page's compact card (mode="card") uses
// The example page carries the strict policy a host can use: nothing inline, scripts, styles and
// frames from its own origin only.
//
//   require('./dist_widget.cjs')(distDir, singleFilePath)
// Call it after the single file is written and before dist_csp (which hashes the copy too).
'use strict';

const fs = require('fs');
const path = require('path');

const WIDGET_SOURCE = path.resolve(__dirname, '..', 'web', 'widget', 'gpu-advisor.js');

// The example host's own policy (a meta element: a static host may have no header of its own).
const HOST_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "frame-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HOST_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>示例算力云 · GPU Advisor widget example</title>
<link rel="stylesheet" href="example.css">
<script src="gpu-advisor.js"></script>
<script src="example.js" defer></script>
</head>
<body>
<header class="host-header">
  <strong class="host-brand">示例算力云 · Example GPU Cloud</strong>
  <span class="host-tag">H100 / H20 / 4090 租用与托管 · rental and colocation</span>
</header>
<main class="host-main">
  <h1>选卡与成本顾问 · Which GPUs, and what will it cost?</h1>
  <p>This page shows how a provider embeds the advisor: one script and one element. The element below
    is <code>&lt;gpu-advisor lang="zh-CN"&gt;</code>; its colours and font come from the CSS custom
    properties in example.css. The buttons use the element's JS API.</p>
  <div class="host-controls">
    <button type="button" id="ask-lora">LoRA · Qwen2.5-7B</button>
    <button type="button" id="ask-pretrain">Pretrain 7B · 1T tokens</button>
    <button type="button" id="ask-lang">English / 中文</button>
    <button type="button" id="ask-result">getResult()</button>
  </div>
  <p class="host-status" id="host-status" role="status">loading…</p>
  <gpu-advisor id="advisor" lang="zh-CN"></gpu-advisor>
  <h2>紧凑卡片 · The compact card</h2>
  <p><code>&lt;gpu-advisor mode="card" catalog="provider-example.json"&gt;</code>: the answer and its reasons, the inputs a
    buyer changes, the provider's offers and a link to the full advisor, priced by the provider's catalog from the first paint.</p>
  <gpu-advisor id="card" mode="card" lang="zh-CN" catalog="provider-example.json"></gpu-advisor>
  <h2>Event log</h2>
  <ol class="host-log" id="host-log"></ol>
</main>
</body>
</html>
`;

const EXAMPLE_CSS = `/* The host's own styles. The widget's look is set only through these custom properties. */
#card { max-width: 720px; }
gpu-advisor {
  --gpu-advisor-accent: #0b6e4f;
  --gpu-advisor-bg: #f4f7f5;
  --gpu-advisor-text: #14211b;
  --gpu-advisor-font: "Segoe UI", "PingFang SC", "Microsoft YaHei", system-ui, sans-serif;
  margin: 16px 0;
  border: 1px solid #cfd8d3;
  border-radius: 8px;
  overflow: hidden;
}
body { margin: 0; font: 15px/1.5 Georgia, "Songti SC", serif; color: #222; background: #fff; }
.host-header { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; padding: 12px 20px; background: #0b6e4f; color: #fff; }
.host-brand { font-size: 18px; }
.host-main { max-width: 1280px; margin: 0 auto; padding: 8px 16px 32px; }
.host-main h1 { font-size: 22px; }
.host-controls { display: flex; flex-wrap: wrap; gap: 8px; }
.host-controls button { font: inherit; padding: 6px 12px; border: 1px solid #0b6e4f; background: #fff; color: #0b6e4f; border-radius: 4px; cursor: pointer; }
.host-controls button:focus-visible { outline: 3px solid #0b6e4f; outline-offset: 2px; }
.host-status { color: #333; min-height: 1.5em; overflow-wrap: anywhere; }
.host-log { font: 13px/1.4 Menlo, Consolas, monospace; color: #333; overflow-wrap: anywhere; }
`;

const EXAMPLE_JS = `// The example host's script: the widget's JS API (see gpu-advisor.js for the full list).
'use strict';
(function () {
  const advisor = document.getElementById('advisor');
  const status = document.getElementById('host-status');
  const log = document.getElementById('host-log');

  function note(text) {
    const li = document.createElement('li');
    li.textContent = new Date().toLocaleTimeString() + '  ' + text;
    log.insertBefore(li, log.firstChild);
    while (log.children.length > 12) log.removeChild(log.lastChild);
  }

  function describe(result) {
    const best = result && result.recommendation && result.recommendation.best;
    if (!best) return 'no plan meets the goal';
    return 'recommended: ' + best.gpus + ' × ' + best.name + ', ' + best.deployment + (best.cost && best.cost.cny !== null ? ', CNY ' + Math.round(best.cost.cny).toLocaleString() + ' (' + best.cost.basis + ')' : '');
  }

  advisor.addEventListener('ready', function (e) {
    status.textContent = 'ready (core ' + e.detail.version + ')';
    note('ready ' + JSON.stringify(e.detail));
  });
  advisor.addEventListener('result', function (e) {
    status.textContent = describe(e.detail.result);
    note('result: ' + e.detail.request.task + ' / ' + JSON.stringify(e.detail.request.model) + ' -> ' + describe(e.detail.result));
  });
  advisor.addEventListener('error', function (e) {
    status.textContent = 'error: ' + e.detail.message;
    note('error ' + JSON.stringify(e.detail));
  });

  document.getElementById('ask-lora').addEventListener('click', function () {
    advisor.setRequest({ schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' }, training: { sequence_length: 2048, tokens: 1e8 } });
  });
  document.getElementById('ask-pretrain').addEventListener('click', function () {
    advisor.setRequest({ schema: 1, task: 'pretrain', model: { preset: 'llama-2-7b' }, training: { sequence_length: 4096, tokens: 1e12 } });
  });
  document.getElementById('ask-lang').addEventListener('click', function () {
    advisor.setAttribute('lang', advisor.getAttribute('lang') === 'en' ? 'zh-CN' : 'en');
  });
  document.getElementById('ask-result').addEventListener('click', function () {
    advisor.getResult().then(function (r) { note('getResult: ' + describe(r.result)); },
      function (e) { note('getResult failed: ' + e.code + ' ' + e.message); });
  });
})();
`;

module.exports = function writeWidget(distDir, singleFile) {
  const dir = path.join(distDir, 'widget');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(WIDGET_SOURCE, path.join(dir, 'gpu-advisor.js'));
  fs.copyFileSync(singleFile, path.join(dir, 'gpu-advisor.html'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dir, 'example.css'), EXAMPLE_CSS);
  fs.writeFileSync(path.join(dir, 'example.js'), EXAMPLE_JS);
  fs.copyFileSync(path.resolve(__dirname, '..', 'data', 'examples', 'provider-example.json'), path.join(dir, 'provider-example.json'));
  process.stdout.write('dist_widget: ' + path.relative(process.cwd(), dir) + '/ (widget script, framed page, example host)\n');
};
