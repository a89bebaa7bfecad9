// SPDX-License-Identifier: MIT
// The single file's Content-Security-Policy (issue 10 item 3): its scripts and its stylesheet
// are inline, so the policy names each one by its SHA-256 hash instead of allowing
// 'unsafe-inline'; Embind needs no 'unsafe-eval' (the module is linked with
// -sDYNAMIC_EXECUTION=0), WebAssembly compilation needs 'wasm-unsafe-eval'.
//
//   require('./dist_csp.cjs')(distDir)  rewrites every self-contained .html file under distDir
//                                        (no <script src>, no stylesheet link) that has inline
//                                        <script> or <style> elements; dist/site is left to the
//                                        server's header (an inline element there is reported)
// Run it as the very last step of make_dist: any later change to an inline element breaks its
// hash (the browser then refuses the element). The policy replaces the file's own
// <meta http-equiv="Content-Security-Policy"> (its other directives are kept) or, if there is
// none, is put right after <meta charset>.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

// What a file with no policy of its own gets besides script-src and style-src: nothing may be
// fetched, posted or loaded; images only from data: and blob: URIs (the print report, a logo a
// host passes in); nothing fetched (the packed loader decodes its module from its own text).
const BASE_POLICY = [
  "default-src 'none'",
  'img-src data: blob:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
];

const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/i;
// An inline element: <script> or <style> with no src attribute. make_dist escapes every
// "</script" inside inlined JS and "</style" inside CSS, so the first closing tag ends it.
const INLINE = /<(script|style)(\s[^>]*)?>([\s\S]*?)<\/\1>/gi;

function hash(text) {
  return "'sha256-" + crypto.createHash('sha256').update(text, 'utf8').digest('base64') + "'";
}

/** The policy for one HTML text: {html, scripts, styles} or null if it has no inline element. */
function withPolicy(html) {
  const scripts = [];
  const styles = [];
  for (const m of html.matchAll(INLINE)) {
    const attrs = m[2] || '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    if (m[1].toLowerCase() === 'script' && /\stype\s*=\s*"(?!text\/javascript|module)/i.test(attrs)) continue; // data blocks do not run
    (m[1].toLowerCase() === 'script' ? scripts : styles).push(hash(m[3]));
  }
  if (!scripts.length && !styles.length) return null;
  const old = META.exec(html);
  const kept = (old ? old[1].split(';') : BASE_POLICY).map((d) => d.trim()).filter(Boolean)
    .filter((d) => !/^(script-src|style-src|script-src-elem|style-src-elem|script-src-attr|style-src-attr)\s/i.test(d));
  const unique = (list) => Array.from(new Set(list));
  const directives = kept.concat([
    'script-src ' + unique(scripts).concat(["'wasm-unsafe-eval'"]).join(' '),
    'style-src ' + (styles.length ? unique(styles).join(' ') : "'none'"),
  ]);
  const meta = '<meta http-equiv="Content-Security-Policy" content="' + directives.join('; ') + '">';
  let out;
  if (old) {
    out = html.replace(META, () => meta);
  } else {
    const charset = /<meta charset="utf-8">/i;
    if (!charset.test(html)) throw new Error('no <meta charset="utf-8"> to put the policy after');
    out = html.replace(charset, (c) => c + '\n' + meta);
  }
  return { html: out, scripts: scripts.length, styles: styles.length };
}

function htmlFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return htmlFiles(p);
    return e.isFile() && e.name.endsWith('.html') ? [p] : [];
  });
}

// A page that loads its scripts or stylesheets from files (dist/site): its policy is the server's
// header (scripts/serve.cjs, script-src 'self'), not a <meta> here; an inline element in it would
// need 'unsafe-inline' or the host's header to carry the hash, so it is reported.
const EXTERNAL = /<script\s[^>]*\bsrc\s*=|<link\s[^>]*\brel="stylesheet"/i;

module.exports = function applyCsp(distDir) {
  const done = [];
  for (const file of htmlFiles(distDir)) {
    const html = fs.readFileSync(file, 'utf8');
    if (EXTERNAL.test(html)) {
      const inline = Array.from(html.matchAll(INLINE)).filter((m) => !/\ssrc\s*=/i.test(m[2] || '') && !/\stype\s*=\s*"(?!text\/javascript|module)/i.test(m[2] || ''));
      if (inline.length) process.stdout.write('dist_csp: WARNING ' + path.relative(distDir, file) + ' loads files and has ' + inline.length + ' inline <script>/<style>: under the site\'s policy (style-src \'self\') they are refused; put them in files\n');
      continue;
    }
    const r = withPolicy(html);
    if (!r) continue;
    fs.writeFileSync(file, r.html);
    done.push(path.relative(distDir, file) + ' (' + r.scripts + ' scripts, ' + r.styles + ' styles)');
  }
  process.stdout.write('dist_csp: hashed ' + (done.join(', ') || 'nothing') + '\n');
  return done;
};
module.exports.withPolicy = withPolicy;
