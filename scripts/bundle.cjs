#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The page's scripts are ES modules (web/js/main.js and what it imports, the message tables of
// data/messages/); esbuild (an npm devDependency, build time only) bundles them into one classic
// script, so that the page opens from file:// and inlines into the single file.
//
//   node scripts/bundle.cjs [--watch]   writes web/bundle.js (git-ignored; not minified, with a
//                                       source map) for working on web/index.html without make_dist
//   require('./bundle.cjs').bundlePage({minify, leaveOut}) -> a promise of the bundle's text
//                                       (scripts/make_dist.cjs)
'use strict';

const path = require('path');

const WEB = path.resolve(__dirname, '..', 'web');
const ENTRY = path.join(WEB, 'js', 'main.js');
const OUT = path.join(WEB, 'bundle.js'); // the name web/index.html loads

function options(minify) {
  return {
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',      // one classic script: no module loader, no import at run time
    target: 'es2020',    // what the page's code is written in (Chromium, Firefox, Safari of 2020 on)
    platform: 'browser',
    charset: 'utf8',     // the Chinese strings as UTF-8, not \u escapes (a third of the size)
    legalComments: 'none',
    minify: Boolean(minify),
    banner: { js: '"use strict";' },
    logLevel: 'silent',
  };
}

const MESSAGES = path.resolve(__dirname, '..', 'data', 'messages');

/**
 * The message tables as columns: every key once, then each bundled language's words in the keys'
 * order, rebuilt into tables when the bundle runs (`words`). The languages share their keys, and
 * gzip's 32 KB window cannot reach from one 140 KB table to the other: with the keys written once,
 * the single file is ~12 KB smaller gzipped (bench/RESULTS.md, 2026-12-05 late). The tables of
 * `leaveOut` are not bundled: their import is null, and the page loads them when asked
 * (web/js/i18n.js loadLang, from messages/<lang>.json beside it).
 */
function messageColumns(leaveOut) {
  const table = (code) => JSON.parse(require('fs').readFileSync(path.join(MESSAGES, code + '.json'), 'utf8'));
  return {
    name: 'message-columns',
    setup(build) {
      build.onLoad({ filter: /[\\/]data[\\/]messages[\\/][^\\/]+\.json$/ }, (args) => {
        const code = path.basename(args.path, '.json');
        if (leaveOut.includes(code)) return { contents: 'null', loader: 'json' };
        return { contents: 'import { words } from "messages:columns"; export default words(' + JSON.stringify(code) + ');', loader: 'js', resolveDir: MESSAGES };
      });
      build.onResolve({ filter: /^messages:columns$/ }, () => ({ path: 'columns', namespace: 'messages' }));
      build.onLoad({ filter: /.*/, namespace: 'messages' }, () => {
        const codes = require('fs').readdirSync(MESSAGES).filter((f) => f.endsWith('.json'))
          .map((f) => path.basename(f, '.json')).filter((code) => !leaveOut.includes(code)).sort();
        const tables = codes.map(table);
        const keys = [...new Set(tables.flatMap(Object.keys))].sort();
        const columns = {};
        codes.forEach((code, i) => { columns[code] = keys.map((k) => (k in tables[i] ? tables[i][k] : null)); });
        return {
          contents: 'const keys = ' + JSON.stringify(keys) + ';\nconst columns = ' + JSON.stringify(columns) + ';\n' +
            'export function words(code) {\n  const table = {};\n  columns[code].forEach(function (w, i) { if (w !== null) table[keys[i]] = w; });\n  return table;\n}\n',
          loader: 'js',
          watchFiles: codes.map((code) => path.join(MESSAGES, code + '.json')),
        };
      });
    },
  };
}

/**
 * The bundle's text (a promise); rejects with esbuild's messages when a module does not build, or
 * when modules import each other in a circle (web/README.md, contract rule 5). `leaveOut`: the
 * languages whose words are not bundled (the site's second language).
 */
async function bundlePage(opts) {
  const esbuild = require('esbuild');
  const out = await esbuild.build(Object.assign(options(opts && opts.minify), {
    write: false, metafile: true, plugins: [messageColumns((opts && opts.leaveOut) || [])],
  }));
  const cycle = importCycle(out.metafile);
  if (cycle) throw new Error('modules import each other in a circle: ' + cycle.join(' -> '));
  return out.outputFiles[0].text;
}

/** The first import cycle among the bundle's inputs (a list of paths), or null. */
function importCycle(metafile) {
  const inputs = metafile.inputs;
  const state = new Map(); // path -> 1 (on the current path) | 2 (done)
  const visit = (file, trail) => {
    state.set(file, 1);
    for (const dep of (inputs[file] ? inputs[file].imports : []).map((i) => i.path)) {
      if (state.get(dep) === 1) return trail.slice(trail.indexOf(dep)).concat([dep]);
      if (!state.has(dep)) {
        const found = visit(dep, trail.concat([dep]));
        if (found) return found;
      }
    }
    state.set(file, 2);
    return null;
  };
  for (const file of Object.keys(inputs)) {
    const found = !state.has(file) && visit(file, [file]);
    if (found) return found;
  }
  return null;
}

async function main() {
  const esbuild = require('esbuild');
  const config = Object.assign(options(false), { outfile: OUT, sourcemap: 'inline', logLevel: 'info' });
  if (process.argv.includes('--watch')) {
    const ctx = await esbuild.context(config);
    await ctx.watch();
    process.stdout.write('bundle: watching web/js and data/messages (Ctrl-C to stop)\n');
  } else {
    await esbuild.build(config);
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write('bundle: ' + (e && e.message || e) + '\n');
    process.exit(1);
  });
}

module.exports = { bundlePage, ENTRY };
