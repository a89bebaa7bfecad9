// SPDX-License-Identifier: MIT
// The first view is already in the file (issue 13 item 3): make_dist opens each built page in
// headless Chromium, lets the page's own scripts and the wasm core compute and render the default
// request (the same code a visitor runs), and writes what they rendered into the page's <body>.
// The page as written moves into <template id="pristine-body">; web/js/app.js swaps it back in,
// and renders it, in the task where the core becomes ready, so the visitor reads the answer
// while the module is still being inflated and compiled and sees no flash when it takes over.
//
//   await prerender([{file, single}, ...])  rewrites each HTML file in place (single: its
//                                  styles must be inline); returns per file the milliseconds
//                                  the render took, or throws
//
// Form state lives in properties (value, checked, selected), which outerHTML does not write:
// it is copied into attributes before the snapshot. Scripts are left where they are, after the
// template, and run once. A shared link (#req=) is not pre-rendered (its request exists only in
// the visitor's address bar): js/boot.js hides the default answer until the core has rendered
// the link's own.
'use strict';

const fs = require('fs');
const path = require('path');

const BROWSER = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
              '--disable-sync', '--no-first-run'];
const VIEWPORT = { width: 1366, height: 768 }; // the layout the README's screenshots use
const RENDER_TIMEOUT_MS = 60000;
const TEMPLATE_ID = 'pristine-body';
// Sections whose body starts further down than this many viewport heights are not pre-rendered.
const FOLD_SCREENS = 2;
const STYLE_ID = 'prerendered-style';

/** The snapshot, taken inside the page: {bodyAttrs, markup}. */
function snapshotInPage(foldScreens) {
  for (const node of document.querySelectorAll('input, textarea, select')) {
    if (node.type === 'checkbox' || node.type === 'radio') {
      if (node.checked) node.setAttribute('checked', ''); else node.removeAttribute('checked');
    } else if (node.tagName === 'SELECT') {
      for (const o of node.options) { if (o.selected) o.setAttribute('selected', ''); else o.removeAttribute('selected'); }
    } else if (node.tagName === 'TEXTAREA') {
      node.textContent = node.value;
    } else if (node.type !== 'file') {
      node.setAttribute('value', node.value);
    }
  }
  const body = document.body.cloneNode(true);
  // Folded and hidden sections show nothing until the core has taken over (which renders them
  // again): their contents stay out of the file.
  for (const b of body.querySelectorAll('section.panel.collapsed > .panel-body, section.panel[hidden] > .panel-body')) {
    b.replaceChildren();
  }
  // So do sections that start more than FOLD_SCREENS screens down (their headers stay): the core
  // has taken over long before anyone scrolls that far (the GPU table alone is ~100 KB of HTML).
  for (const live of document.querySelectorAll('section.panel > .panel-body[id]')) {
    if (live.getBoundingClientRect().top > foldScreens * innerHeight) {
      const copy = body.querySelector('#' + CSS.escape(live.id));
      if (copy) copy.replaceChildren();
    }
  }
  // The answer's headline reports when it is painted (Element Timing; bench/page_bench.cjs).
  const headline = body.querySelector('#answer-headline');
  if (headline) headline.setAttribute('elementtiming', 'first-result');
  for (const s of body.querySelectorAll('script, template#pristine-body')) s.remove();
  // Styles the scripts set through the CSSOM would come back as style attributes, which a
  // strict CSP (style-src without 'unsafe-inline') refuses: each distinct one becomes a rule of
  // one <style> element (hashed like the others) that outranks the stylesheet as inline would.
  const rules = new Map();
  for (const node of body.querySelectorAll('[style]')) {
    const decls = [];
    for (const prop of Array.from(node.style)) decls.push(prop + ':' + node.style.getPropertyValue(prop) + ' !important');
    const text = decls.join(';');
    if (!rules.has(text)) rules.set(text, rules.size);
    node.removeAttribute('style');
    node.setAttribute('data-ps', String(rules.get(text)));
  }
  const css = Array.from(rules, ([text, n]) => '[data-ps="' + n + '"]{' + text + '}').join('\n');
  const attrs = {};
  for (const a of document.body.attributes) attrs[a.name] = a.value;
  return { bodyAttrs: attrs, markup: body.innerHTML, css: css };
}

function escapeAttr(v) {
  return String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The file's text with the snapshot in its body and the written body in the template. */
function withSnapshot(html, snap, cssFile) {
  const open = /<body([^>]*)>/i.exec(html);
  if (!open) throw new Error('no <body>');
  const afterOpen = open.index + open[0].length;
  const firstScript = html.indexOf('<script', afterOpen);
  const bodyEnd = html.lastIndexOf('</body>');
  if (firstScript < 0 || bodyEnd < firstScript) throw new Error('no <script> in <body>');
  if (html.includes('id="' + TEMPLATE_ID + '"')) throw new Error('already pre-rendered');
  const written = html.slice(afterOpen, firstScript);
  if (/<template[\s>]/i.test(written)) throw new Error('the body holds a <template>: it cannot be nested');
  const attrs = Object.entries(snap.bodyAttrs).filter(([k]) => k !== 'data-prerendered')
    .map(([k, v]) => ' ' + k + '="' + escapeAttr(v) + '"').join('');
  // The written body's own attributes go with it, for app.js to restore.
  const writtenAttrs = escapeAttr(open[1].trim());
  const head = html.slice(0, open.index);
  const headEnd = head.lastIndexOf('</head>');
  if (headEnd < 0) throw new Error('no </head>');
  // Inline in the single file (its CSP hashes it); a file of its own on the site, where the
  // policy is style-src 'self'.
  let style = '';
  if (snap.css && cssFile) {
    fs.writeFileSync(cssFile, snap.css);
    style = '<link rel="stylesheet" id="' + STYLE_ID + '" href="' + path.basename(cssFile) + '">\n';
  } else if (snap.css) {
    style = '<style id="' + STYLE_ID + '">' + snap.css.replace(/<\//g, '<\\/') + '</style>\n';
  }
  return head.slice(0, headEnd) + style + head.slice(headEnd) + '<body' + attrs + ' data-prerendered>' + snap.markup +
    '\n<template id="' + TEMPLATE_ID + '" data-body-attrs="' + writtenAttrs + '">' + written + '</template>\n' +
    html.slice(firstScript);
}

async function prerender(files) {
  const { chromium } = require('playwright-core');
  if (!fs.existsSync(BROWSER)) throw new Error(BROWSER + ' not found (apt-get install chromium)');
  const browser = await chromium.launch({ executablePath: BROWSER, args: ARGS });
  const timings = [];
  try {
    for (const { file, single } of files) {
      const page = await browser.newPage({ viewport: VIEWPORT });
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      const t0 = Date.now();
      await page.goto('file://' + path.resolve(file));
      await page.waitForFunction(() => window.gpuAdvisor && window.gpuAdvisor.ready && window.gpuAdvisor.lastResult &&
                                 !window.gpuAdvisor.pending, null, { timeout: RENDER_TIMEOUT_MS });
      if (problems.length) throw new Error(file + ': ' + problems[0]);
      const snap = await page.evaluate(snapshotInPage, FOLD_SCREENS);
      await page.close();
      const cssFile = single ? null : path.join(path.dirname(file), 'prerendered.css');
      fs.writeFileSync(file, withSnapshot(fs.readFileSync(file, 'utf8'), snap, cssFile));
      timings.push({ file, ms: Date.now() - t0 });
    }
  } finally {
    await browser.close();
  }
  return timings;
}

module.exports = { prerender, withSnapshot, TEMPLATE_ID, STYLE_ID };
