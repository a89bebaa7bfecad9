// SPDX-License-Identifier: MIT
// Compares two JSON values key by key and number by number: the same keys on both sides, the
// same array lengths, equal strings/booleans/nulls, and numbers within a relative tolerance.
// Used by the golden results and the wasm-vs-native check.
'use strict';

// Doubles computed by the same code on x86-64 and wasm32 agree except where libm differs.
const RELATIVE_TOLERANCE = 1e-9;

function differences(a, b, where = '', out = [], tolerance = RELATIVE_TOLERANCE) {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (Math.abs(a - b) / scale > tolerance) out.push(`${where}: ${a} vs ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${where}: length ${a.length} vs ${b.length}`);
    else a.forEach((v, i) => differences(v, b[i], `${where}/${i}`, out, tolerance));
  } else if (a && b && typeof a === 'object' && typeof b === 'object' &&
             !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const pointer = `${where}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!(k in a)) out.push(`${pointer}: only in the second`);
      else if (!(k in b)) out.push(`${pointer}: only in the first`);
      else differences(a[k], b[k], pointer, out, tolerance);
    }
  } else if (a !== b) {
    out.push(`${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  }
  return out;
}

module.exports = { differences, RELATIVE_TOLERANCE };
