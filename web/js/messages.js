// SPDX-License-Identifier: MIT
// The message syntax of data/messages/<lang>.json, a subset of ICU MessageFormat (the same subset
// cli/messages.cpp renders for the CLI; docs/languages.md):
//   {name}                                   a parameter
//   {name, number, style}                    a number in a named style (cny, percent, tokens, ...)
//   {name, plural, one {...} other {...}}    =N, one, other (English: one is exactly 1)
//   {name, select, key {...} other {...}}    the branch named by the value; a parameter that is
//                                            missing, empty, false or 0 selects `0`
// Text outside braces is literal (no apostrophe quoting; a message holds no literal brace).

const cache = new Map();

/** The parts of a message: strings and {name, type, style, branches} nodes; throws on bad syntax. */
export function parseMessage(text) {
  let tree = cache.get(text);
  if (!tree) {
    const state = { s: String(text), i: 0 };
    tree = parseSequence(state, false);
    cache.set(text, tree);
  }
  return tree;
}

function fail(state, why) {
  throw new Error('message syntax: ' + why + ' at ' + state.i + ' in ' + JSON.stringify(state.s));
}

function parseSequence(state, inBranch) {
  const parts = [];
  let text = '';
  while (state.i < state.s.length) {
    const c = state.s[state.i];
    if (c === '}') {
      if (!inBranch) fail(state, 'unmatched }');
      break;
    }
    if (c === '{') {
      if (text) parts.push(text);
      text = '';
      parts.push(parseArgument(state));
    } else {
      text += c;
      state.i++;
    }
  }
  if (text) parts.push(text);
  return parts;
}

function word(state) {
  const m = /^\s*([=\w]+)\s*/.exec(state.s.slice(state.i));
  if (!m) fail(state, 'a name expected');
  state.i += m[0].length;
  return m[1];
}

function parseArgument(state) {
  state.i++; // {
  const node = { name: word(state), type: null, style: null, branches: null };
  if (state.s[state.i] === ',') {
    state.i++;
    node.type = word(state);
    if (state.s[state.i] === ',') {
      state.i++;
      if (node.type === 'number') node.style = word(state);
      else node.branches = parseBranches(state);
    }
  }
  if (state.s[state.i] !== '}') fail(state, '} expected');
  state.i++;
  if ((node.type === 'plural' || node.type === 'select') && !(node.branches && node.branches.other)) fail(state, 'no other branch');
  return node;
}

function parseBranches(state) {
  const branches = {};
  while (state.i < state.s.length && state.s[state.i] !== '}') {
    const key = word(state);
    if (state.s[state.i] !== '{') fail(state, '{ expected after ' + key);
    state.i++;
    branches[key] = parseSequence(state, true);
    if (state.s[state.i] !== '}') fail(state, 'unclosed branch ' + key);
    state.i++;
    while (/\s/.test(state.s[state.i] || '')) state.i++;
  }
  return branches;
}

/** The key a select compares: "0" for a parameter missing, empty, false or 0. */
export function selectKey(value) {
  if (value === undefined || value === null || value === '' || value === false || value === 0) return '0';
  if (value === true) return '1';
  return typeof value === 'object' ? 'other' : String(value);
}

/** The parameter names a message uses, sorted (the registry test compares both languages). */
export function messageParams(text) {
  const names = new Set();
  const walk = (parts) => parts.forEach(function (p) {
    if (typeof p === 'string') return;
    names.add(p.name);
    Object.keys(p.branches || {}).forEach(function (k) { walk(p.branches[k]); });
  });
  walk(parseMessage(text));
  return Array.from(names).sort();
}

/**
 * The message's pieces in order: text and whatever `arg(name, value, style)` returns for each
 * parameter (a string or a DOM node). `count(value)` reads a plural's number; `lang` picks the
 * plural rule. A parameter not in `vars` stays as {name}.
 */
export function formatMessage(text, vars, arg, count, lang) {
  const out = [];
  const walk = function (parts) {
    parts.forEach(function (p) {
      if (typeof p === 'string') { out.push(p); return; }
      const has = Object.prototype.hasOwnProperty.call(vars || {}, p.name);
      const value = has ? vars[p.name] : undefined;
      if (p.branches) { walk(p.branches[branchOf(p, value, count, lang)] || p.branches.other); return; }
      out.push(has ? arg(p.name, value, p.style) : '{' + p.name + '}');
    });
  };
  walk(parseMessage(text));
  return out;
}

function branchOf(node, value, count, lang) {
  if (node.type === 'select') return node.branches[selectKey(value)] ? selectKey(value) : 'other';
  const n = count(value);
  if (n !== null && node.branches['=' + n]) return '=' + n;
  return lang === 'en' && n === 1 && node.branches.one ? 'one' : 'other';
}
