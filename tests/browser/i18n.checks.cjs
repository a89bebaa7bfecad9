// SPDX-License-Identifier: MIT
// Both languages whole (issue 10 item 5): in several states of the page (the default; each
// scenario preset; every panel open; an error) all visible text and the title / aria-label /
// placeholder attributes are collected. In zh-CN mode no run of English words may remain outside
// a short allow-list (GPU and model names from the catalog, units, product names); in en mode no
// CJK character may appear outside the language switch; in both no raw i18n key (`a.b_c.d`).
// Each state reports how many untranslated strings it found (the numbers in the README).
'use strict';

// Words a Chinese page legitimately shows in Latin letters: units, product and framework names,
// abbreviations, the names of formats. GPU and model names come from the catalog at run time.
const ALLOW = new Set((
  'GPU GPUs CPU NPU GB GiB MB MiB TB TiB KB kB GB/s TB/s Gbit Gbit/s Gbps Mbps TFLOPS TFLOP FLOPs FLOP GFLOP PFLOPS MFU ' +
  'TP PP DP EP SP ZeRO ZeRO-1 ZeRO-2 ZeRO-3 FSDP LoRA QLoRA NF4 AWQ GPTQ FP8 FP16 BF16 FP32 FP4 INT8 INT4 TF32 ' +
  'bf16 fp16 fp8 fp32 int8 int4 nf4 awq gptq fp4 KV HBM HBM2e HBM3 HBM3e GDDR6 GDDR6X GDDR7 ECC ' +
  'NVLink NVSwitch NVL PCIe SXM OAM HGX DGX MGX InfiniBand IB RoCE RDMA Ethernet NDR HDR XDR RoCEv2 ' +
  'NVIDIA AMD Intel Huawei Ascend Hygon Cambricon Kunlun Moore Threads MetaX Biren Iluvatar ' +
  'vLLM SGLang TensorRT TensorRT-LLM TRT-LLM LLM LMDeploy TGI Megatron Megatron-LM DeepSpeed PyTorch CUDA NCCL RCCL HCCL ' +
  'nccl-tests FlashAttention MLPerf Llama Qwen DeepSeek Mistral Mixtral Gemma Yi GLM ChatGLM Baichuan InternLM MoE ' +
  'PUE IDC kW kWh MW W TCO CNY USD RMB JSON CSV URL PDF HTML API SLA TTFT tokens/s token tokens MoE ' +
  'GitHub Hugging Face HuggingFace ModelScope AutoDL AliCloud Alibaba Cloud Tencent Baidu Volcano Engine ' +
  'Blackwell Hopper Ampere Ada Lovelace Volta Turing CDNA MI300X MI325X MI250X ' +
  'GPU Advisor English A4 PaLM Chinchilla 1F1B ECS root rocm cann cuda musa cuBLAS cuDNN logits eager ' +
  'torchtitan Fabric Manager ConnectX FlashAttention Transformers PEFT Korthikanti Megatron busbw ' +
  // training and serving stacks (/stack)
  'LLaMA-Factory Unsloth torchtune torch.compile llama.cpp llama-server Trainer TRL FSDP2 NeMo DualPipe ' +
  // the capacity CSV's column names, which a user types as they are
  'job gpus hours month date'
).split(/\s+/).map((w) => w.toLowerCase()));

/** Collects every visible string of the page (text and title/aria-label/placeholder attributes). */
async function visibleStrings(page) {
  return page.evaluate(() => {
    const out = [];
    // Inside a closed <details> only its summary shows (Chromium still gives the rest client rects).
    const folded = (el) => {
      for (let d = el.closest('details:not([open])'); d; d = d.parentElement && d.parentElement.closest('details:not([open])')) {
        const summary = el.closest('summary');
        if (!summary || summary.parentElement !== d) return true;
      }
      return false;
    };
    const visible = (el) => el && !folded(el) && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    // Code (scripts, JSON, commands) is the same in every language.
    const skip = (el) => el.closest('script, style, noscript, .lang-switch, pre, code, kbd, samp, textarea');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.nodeValue.replace(/\s+/g, ' ').trim();
      if (!text || !el || skip(el) || !visible(el)) continue;
      // One entry per element, its whole text (so a sentence split by <b> stays one string).
      const holder = el.closest('li, td, th, p, dd, dt, label, button, h1, h2, h3, h4, summary, figcaption, caption, option, a, span, div') || el;
      if (seen.has(holder)) continue;
      seen.add(holder);
      out.push({ where: holder.tagName.toLowerCase() + (holder.id ? '#' + holder.id : '') + (holder.className && typeof holder.className === 'string' ? '.' + holder.className.split(' ')[0] : ''),
        text: holder.innerText ? holder.innerText.replace(/\s+/g, ' ').trim() : text });
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (skip(el) || !visible(el)) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v && v.trim()) out.push({ where: el.tagName.toLowerCase() + '[' + a + ']', text: v.trim() });
      }
    }
    out.push({ where: 'document.title', text: document.title });
    return out;
  });
}

/** Words in the catalog's GPU, model and vendor names (they are names in either language). */
async function catalogWords(page) {
  const names = await page.evaluate(() => {
    const c = (window.gpuAdvisor && window.gpuAdvisor.internals.catalog) || {};
    const out = [];
    for (const g of c.gpus || []) out.push(g.name, g.id, g.vendor, g.short_name || '', g.memory_type || '');
    for (const m of c.models || []) out.push(m.name, m.id, m.family || '');
    return out.filter(Boolean);
  });
  const words = new Set();
  for (const n of names) for (const w of String(n).split(/[\s()/,]+/)) if (w) words.add(w.toLowerCase());
  return words;
}

const KEY_RE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*){1,}\b/g;
const CJK_RE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** A string a key-like match is allowed to be: numbers, versions, file names, model ids, hosts. */
function keyAllowed(m, words) {
  if (/\d/.test(m) && /^[a-z0-9.\-]+$/.test(m) && !/_/.test(m)) return true;   // qwen2.5, v1.2
  if (/\.(json|csv|html|js|sh|md|pdf|png|py)$/.test(m)) return true;           // file names
  if (/^(www\.|[a-z0-9-]+\.(com|org|io|cn|net|ai|dev)$)/.test(m)) return true;    // hosts
  if (/^(e\.g|i\.e|etc|vs)\b/.test(m)) return true;
  if (words.has(m)) return true;
  return false;
}

/** English runs in one string: two or more Latin words in a row that are not allowed. */
function englishRuns(text, allow) {
  const runs = [];
  // Split at anything that is not a Latin word, a space or light punctuation between words.
  const segments = text.split(/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef:：;；·•|=×%]+/);
  for (const seg of segments) {
    const words = seg.match(/[A-Za-z][A-Za-z0-9'’._\-]*/g) || [];
    let run = [];
    const flush = () => {
      if (run.length >= 2 || (run.length === 1 && run[0].length >= 4 && /^[a-z]+$/.test(run[0]))) runs.push(run.join(' '));
      run = [];
    };
    for (const w of words) {
      const lw = w.toLowerCase().replace(/[’']s$/, '').replace(/[.\-]+$/, '');
      // Identifiers (ids, file names, field names, versions) are names in either language.
      const ident = /[0-9_]/.test(lw) || /\.[a-z]/.test(lw);
      const ok = ident || allow.has(lw) || lw.length <= 2 || /^[A-Z0-9\-]+$/.test(w) && w.length <= 5;
      if (ok) flush(); else run.push(w);
    }
    flush();
  }
  return runs;
}

module.exports = async function i18nChecks(T) {
  const { assert, check, context, settle, url, waitReady, watch } = T;
  const page = await context.newPage();
  watch(page, 'i18n');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(url);
  await waitReady(page);
  const words = await catalogWords(page);
  const allow = new Set([...ALLOW, ...words]);
  const counts = [];

  async function scan(label, lang) {
    // Every fold open (assumption lists, script texts, rejected GPUs), except the ones that hold a
    // quotation in its original language behind an "original note" label: a data file's basis
    // sentence (.basis-note) and the core's own error sentence (.core-message), and a technical
    // detail (.tech-detail: an error's code, pointer and the core's sentence).
    await page.evaluate(() => document.querySelectorAll('details:not(.basis-note):not(.core-message):not(.tech-detail)').forEach((d) => { d.open = true; }));
    const strings = await visibleStrings(page);
    const bad = [];
    for (const raw of strings) {
      // A link's address and a host name are names in either language.
      // So is a request field (a JSON pointer) and the command line that runs the advisor.
      const s = { where: raw.where, text: raw.text.replace(/https?:\/\/\S+/g, ' ').replace(/\b[\w-]+(\.[\w-]+)*\.(com|org|io|cn|net|ai|dev|uk|gov)(\.cn)?\b/g, ' ')
        .replace(/(^|[\s（(“"'，,：:])\/[\w~.\-/[\]]+/g, '$1 ').replace(/gpu-advisor \w+/g, ' ') };
      const why = [];
      if (lang === 'zh-CN') {
        const runs = englishRuns(s.text, allow);
        if (runs.length) why.push('English "' + runs.slice(0, 3).join('", "') + '"');
      } else if (CJK_RE.test(s.text)) {
        why.push('CJK');
      }
      for (const m of s.text.match(KEY_RE) || []) {
        if (!keyAllowed(m, words) && /_|\.[a-z]+\.[a-z]/.test(m)) why.push('raw key "' + m + '"');
      }
      if (why.length) bad.push(s.where + ': ' + why.join('; ') + ' in "' + s.text.slice(0, 160) + '"');
    }
    if (process.env.I18N_DUMP) require('fs').appendFileSync(process.env.I18N_DUMP, '== ' + label + ' [' + lang + ']\n' + bad.join('\n') + '\n');
    counts.push(label + ' [' + lang + ']: ' + bad.length);
    return bad;
  }

  async function setLang(lang) {
    await page.evaluate((l) => window.gpuAdvisor.setLanguage(l), lang);
    await page.waitForTimeout(50);
  }

  async function both(label) {
    for (const lang of ['zh-CN', 'en']) {
      await check('i18n: ' + label + ' in ' + lang + ' shows no untranslated text', async () => {
        await setLang(lang);
        const bad = await scan(label, lang);
        assert(!bad.length, bad.length + ' untranslated strings:\n       ' + bad.slice(0, 25).join('\n       '));
      });
    }
    await setLang('zh-CN');
  }

  await both('default, every panel open');
  const scenarios = await page.evaluate(() => window.gpuAdvisor.internals.scenarios);
  for (const id of scenarios) {
    await page.evaluate((s) => window.gpuAdvisor.applyScenario(s), id);
    await page.waitForFunction(() => window.gpuAdvisor && !window.gpuAdvisor.pending, null, { timeout: 10000 });
    await page.evaluate(() => window.gpuAdvisor.expandAll());
    await both('scenario ' + id);
  }
  // Requests no preset reaches, opened as shared links: a job history (capacity), a monthly demand
  // with the hybrid plan, an office room and a flat tariff, a DualPipe run no GPU can hold.
  const fs = require('fs');
  const path = require('path');
  for (const name of ['cost_capacity_hybrid', 'capacity_dated_csv_multi', 'inference_llama31_8b_l4_flat_tariff',
    'pretrain_deepseek_v3_dualpipe']) {
    const request = fs.readFileSync(path.join(__dirname, '../golden', name + '.request.json'), 'utf8');
    const hash = '#req=' + Buffer.from(JSON.stringify(JSON.parse(request)), 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    await page.goto('about:blank');
    await page.goto(url + hash);
    await waitReady(page);
    await page.evaluate(() => window.gpuAdvisor.expandAll());
    await both('shared link ' + name);
  }
  await page.goto('about:blank');
  await page.goto(url);
  await waitReady(page);

  // An error: a value the core rejects, typed into the form.
  await page.click('#btn-reset');
  await settle(page, (r) => r.task === 'full_finetune' && !r.inference);
  await page.evaluate(() => window.gpuAdvisor.expandAll());
  const field = await page.$('#inputs input[data-path="/training/sequence_length"], #inputs input[name="sequence_length"], #in-seq');
  if (field) {
    await field.fill('12abc');
    await field.dispatchEvent('input');
    await page.waitForTimeout(400);
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
    await both('error state');
  }
  // What a Chinese user types reaches the request as the number it means.
  const typed = async (selector, text) => {
    await page.fill(selector, text);
    await page.dispatchEvent(selector, 'input');
    await page.dispatchEvent(selector, 'change');
    await page.waitForTimeout(400);
    await page.waitForFunction(() => !window.gpuAdvisor.pending, null, { timeout: 10000 });
    return page.evaluate(() => window.gpuAdvisor.lastRequest);
  };
  await page.click('#btn-reset');
  await settle(page, (r) => r.task === 'full_finetune' && !r.inference);
  await check('i18n: number boxes read 60%, 3000亿, ７万 and １，２３４ as the numbers they mean', async () => {
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    let r = await typed('#in-util', '60%');
    assert(r.cost && r.cost.utilization === 0.6, '60% -> ' + JSON.stringify(r.cost && r.cost.utilization));
    r = await typed('#in-tokens', '3000亿');
    assert(r.training && r.training.tokens === 3e11, '3000亿 -> ' + JSON.stringify(r.training && r.training.tokens));
    r = await typed('#in-tokens', '７万');
    assert(r.training.tokens === 7e4, '７万 -> ' + r.training.tokens);
    r = await typed('#in-seq', '１，２３４');
    assert(r.training.sequence_length === 1234, '１，２３４ -> ' + r.training.sequence_length);
    const err = await page.evaluate(() => window.gpuAdvisor.lastError);
    assert(!err, 'the page reports an error: ' + JSON.stringify(err));
  });
  await check('i18n: text still unreadable gets a located message at the field, in the current language', async () => {
    for (const lang of ['zh-CN', 'en']) {
      await setLang(lang);
      await typed('#in-seq', '四千多');
      const s = await page.evaluate(() => {
        const f = document.querySelector('.field.invalid[data-path="/training/sequence_length"] .field-error');
        return f ? { text: f.innerText, typed: (f.querySelector('.field-error-typed') || {}).textContent || '' } : null;
      });
      assert(s, lang + ': no message at the sequence-length box');
      assert(s.typed.includes('四千多'), lang + ': the message does not repeat what was typed: ' + s.text);
      if (lang === 'zh-CN') assert(!englishRuns(s.text.replace(/\/[\w/]+/g, ' '), allow).length, 'zh-CN message has English: ' + s.text);
      else assert(!CJK_RE.test(s.text.replace('四千多', '')), 'en message has Chinese: ' + s.text);
    }
    await setLang('zh-CN');
    await typed('#in-seq', '4096');
  });
  console.log('i18n untranslated strings per state: ' + counts.join('; '));
  await page.close();
};

module.exports.englishRuns = englishRuns;
module.exports.ALLOW = ALLOW;
