// SPDX-License-Identifier: MIT
// The page's ES modules in Node, for tests that check the page's own code or data without a
// browser (its string tables, number reading, note rendering, scenario presets):
//
//   loadWebModules(['js/i18n.js', 'js/notes.js']) -> the named exports of those web/ files
//
// esbuild (the devDependency that bundles the page, scripts/bundle.cjs) bundles them with what
// they import into one CommonJS text, run in a fresh context. A module whose top level needs the
// DOM cannot be loaded this way; those the tests load need none.
'use strict';

const path = require('path');
const vm = require('vm');

const WEB = path.resolve(__dirname, '..', '..', 'web');

function loadWebModules(files, globals) {
  const esbuild = require('esbuild');
  const entry = files.map((f) => 'export * from ' + JSON.stringify('./' + f) + ';').join('\n');
  const out = esbuild.buildSync({
    stdin: { contents: entry, resolveDir: WEB, sourcefile: 'test-entry.js' },
    bundle: true, format: 'cjs', platform: 'neutral', charset: 'utf8', write: false, logLevel: 'silent',
  });
  const module = { exports: {} };
  vm.runInNewContext(out.outputFiles[0].text, Object.assign({ module, exports: module.exports, Intl, console }, globals || {}),
    { filename: 'web/' + files.join('+') });
  return module.exports;
}

module.exports = { loadWebModules, WEB };
