#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The wasm module's side of bench_json: advise() of ~1 MiB requests whose keys come in ascending
// or descending order (90,000 keys), and one object of 100,000 keys (refused at the limit).
//   node bench/json_keys.cjs [build-wasm/gpu_advisor.js]
'use strict';
const path = require('path');
const modulePath = path.resolve(process.argv[2] || 'build-wasm/gpu_advisor.js');

function keysText(objects, keys, descending) {
  const parts = [];
  for (let o = 0; o < objects; o++) {
    const members = [];
    for (let i = 0; i < keys; i++) members.push('"' + (descending ? keys - 1 - i : i) + '":1');
    parts.push('"o' + o + '":{' + members.join(',') + '}');
  }
  return '{' + parts.join(',') + '}';
}

require(modulePath)().then((m) => {
  const time = (label, text) => {
    const t0 = process.hrtime.bigint();
    const answer = JSON.parse(m.advise(text));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    console.log(label.padEnd(58) + ms.toFixed(1).padStart(9) + ' ms  ' + (answer.error ? answer.error.code : 'result'));
  };
  for (const descending of [false, true]) {
    const request = '{"schema": 1, "x": ' + keysText(9, 10000, descending) + '}';
    time('wasm advise() of ' + request.length + ' bytes, keys ' + (descending ? 'descending' : 'ascending'), request);
  }
  time('wasm advise(), one object of 100,000 keys', '{"schema": 1, "x": ' + keysText(1, 100000, true) + '}');
});
