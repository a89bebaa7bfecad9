#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Functions a reader holds at once: no function body in core/, cli/ or wasm/ runs past
// kMaxLines lines, except the ones named in tests/function_length_exceptions.txt (each with
// why it stays long). A function here is a definition that starts at column 0 (or at two
// spaces inside a struct or class) and ends at the closing brace at the same indentation.
//
//   node tests/js/function_length.cjs <repository root>
'use strict';

const fs = require('fs');
const path = require('path');

const kMaxLines = 80;
const root = path.resolve(process.argv[2] || path.join(__dirname, '..', '..'));

function sources(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.cpp') || e.name.endsWith('.hpp')) out.push(p);
  }
  return out;
}

// A definition starts at column 0 (or 2, inside a struct or class) with a name and "(", not a
// keyword or a type definition, and its signature (perhaps wrapped) ends in "{".
const kSignature = /^( {0,2})(?!(?:namespace|class|struct|enum|union|extern|template|using|typedef|return|if|for|while|switch|do|else|case|static_assert)\b)[A-Za-z~][^;]*\(/;
const kMaxSignatureLines = 12;

function longFunctions(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; ++i) {
    const m = kSignature.exec(lines[i]);
    if (!m || /;\s*$/.test(lines[i])) continue;
    let k = i;
    // A signature ends at its body's "{"; ";" (a declaration) or "}" (a one-line body) ends it.
    while (k < lines.length && k < i + kMaxSignatureLines && !/[{;}]\s*$/.test(lines[k])) ++k;
    if (k >= lines.length || !/\{\s*$/.test(lines[k]) || /=\s*\{\s*$/.test(lines[k])) continue;
    const name = (lines[i].match(/([A-Za-z_][A-Za-z_0-9:~]*)\s*\(/) || [])[1] || lines[i].trim();
    const close = m[1] + '}';
    let j = k + 1;
    while (j < lines.length && !(lines[j] === close || lines[j].startsWith(close + ' ') ||
                                 lines[j] === close + ';')) ++j;
    const body = j - k - 1;
    if (body > kMaxLines) found.push({ name, body, line: i + 1 });
    i = j;
  }
  return found;
}

const listed = new Map();
const listFile = path.join(root, 'tests', 'function_length_exceptions.txt');
for (const raw of fs.readFileSync(listFile, 'utf8').split('\n')) {
  const line = raw.trim();
  if (!line || line.startsWith('#')) continue;
  const [where, ...why] = line.split(/\s+--\s+/);
  if (!why.length) throw new Error(`${listFile}: "${line}" needs " -- why it stays long"`);
  listed.set(where.trim(), why.join(' -- '));
}

let failures = 0;
const seen = new Set();
for (const dir of ['core', 'cli', 'wasm']) {
  for (const file of sources(path.join(root, dir))) {
    const rel = path.relative(root, file);
    for (const f of longFunctions(file)) {
      const key = `${rel} ${f.name}`;
      seen.add(key);
      if (listed.has(key)) continue;
      ++failures;
      console.log(`FAIL ${rel}:${f.line} ${f.name}: ${f.body} lines (limit ${kMaxLines}); ` +
                  'split it, or name it in tests/function_length_exceptions.txt with why');
    }
  }
}
for (const key of listed.keys()) {
  if (!seen.has(key)) {
    ++failures;
    console.log(`FAIL ${key}: listed as long but is not (any more): take it off the list`);
  }
}
console.log(`function_length: ${seen.size} long function(s), ${listed.size} listed, ${failures} failure(s)`);
process.exit(failures ? 1 : 0);
