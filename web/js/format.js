// SPDX-License-Identifier: MIT
// Number formatting: bytes as GiB, tokens, money, seconds, percent. Units only, never a new figure.
import { lang, t } from './i18n.js';

const GIB = 1024 * 1024 * 1024;

// One Intl.NumberFormat per language and options: constructing one costs about a hundred
// format() calls, and a render formats thousands of figures (issue 13: one frame per change).
const formatters = new Map();
export function formatter(options) {
  const locale = lang === 'en' ? 'en-US' : 'zh-CN';
  const key = locale + JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/**
 * Builds the formatter a render uses first while the page waits (js/app.js: an idle moment while
 * the module loads). A page's first Intl object costs 10-20 ms here (ICU starting; four times
 * that on a mid phone), which the first render would pay in the takeover's task
 * (bench/RESULTS.md, 2026-12-05 night).
 */
export function warmFormatters() { integer(0); }

export function numberFormat(value, decimals) {
  return formatter({
    minimumFractionDigits: decimals, maximumFractionDigits: decimals,
  }).format(value);
}

/** bytes -> GiB text: 1 decimal from 100 GiB, 2 below, 4 under 0.01 GiB, "0" for zero. */
export function gib(bytes) {
  const v = bytes / GIB;
  const a = Math.abs(v);
  if (v === 0) return '0';
  return numberFormat(v, a >= 100 ? 1 : a >= 0.01 ? 2 : 4);
}

export function integer(n) { return numberFormat(n, 0); }

/** A capacity in GiB without trailing zeros ("80", "94", "141"). */
export function gibCompact(bytes) {
  return formatter({ maximumFractionDigits: 2 })
    .format(bytes / GIB);
}

/** parameter count -> "8.03" (billions) or "13.6M" style text */
export function params(n) {
  if (n === null || n === undefined) return '—';
  if (Math.abs(n) >= 1e9) return numberFormat(n / 1e9, 2) + 'B';
  if (Math.abs(n) >= 1e6) return numberFormat(n / 1e6, 1) + 'M';
  if (Math.abs(n) >= 1e3) return numberFormat(n / 1e3, 1) + 'K';
  return integer(n);
}

export function billions(n) { return numberFormat(n / 1e9, 2); }

export function isNum(v) { return typeof v === 'number' && isFinite(v); }

/** Significant-figure style: 3 significant digits below 1000, integers above. */
export function num3(v) {
  if (!isNum(v)) return '—';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1000) return integer(v);
  if (a >= 100) return numberFormat(v, 0);
  if (a >= 10) return numberFormat(v, 1);
  if (a >= 1) return numberFormat(v, 2);
  return numberFormat(v, 3);
}

export function percent(v, decimals) {
  return isNum(v) ? numberFormat(v * 100, decimals === undefined ? 1 : decimals) + '%' : '—';
}

/** seconds -> "339 ms" / "29.1 s" */
export function seconds(v) {
  if (!isNum(v)) return '—';
  if (v === 0) return '0 s';
  if (Math.abs(v) < 1) return numberFormat(v * 1000, v * 1000 < 10 ? 2 : 0) + ' ms';
  return num3(v) + ' s';
}

/** hours -> "30.8 h", plus days or years for long runs */
export function hoursText(v) {
  if (!isNum(v)) return '—';
  let s = num3(v) + ' h';
  if (v >= 48 && v < 24 * 365 * 2) s += ' ≈ ' + t('unit.days', { n: num3(v / 24) });
  else if (v >= 24 * 365 * 2) s += ' ≈ ' + t('unit.years', { n: numberFormat(v / 24 / 365, 1) });
  return s;
}

/** A run's length in words: "45 分钟" / "35 小时" / "14.6 天" ("45 min", "35 h", "14.6 days"). */
export function duration(v) {
  if (!isNum(v)) return '—';
  const a = Math.abs(v);
  if (a < 1) return t('unit.minutes', { n: num3(v * 60) });
  if (a < 48) return t('unit.hours', { n: num3(v) });
  if (a < 24 * 365 * 2) return t('unit.days', { n: num3(v / 24) });
  return t('unit.years', { n: numberFormat(v / 24 / 365, 1) });
}

/** A difference with its sign: "+2.5 小时" / "−1,200 元". */
export function signed(format) {
  return function (v) {
    if (!isNum(v)) return '—';
    if (v === 0) return format(0);
    return (v > 0 ? '+' : '−') + format(Math.abs(v));
  };
}

/** A count of tokens: 1e9 -> "10 亿" / "1 B", 6e7 -> "6,000 万" / "60 M" (no trailing zeros). */
export function tokensText(v) {
  if (!isNum(v)) return '—';
  const f = function (x, d) { return formatter({ maximumFractionDigits: d }).format(x); };
  if (lang === 'en') {
    if (v >= 1e12) return f(v / 1e12, 2) + ' T';
    if (v >= 1e9) return f(v / 1e9, 2) + ' B';
    if (v >= 1e6) return f(v / 1e6, 1) + ' M';
    return integer(v);
  }
  if (v >= 1e12) return f(v / 1e12, 2) + ' 万亿';
  if (v >= 1e8) return f(v / 1e8, 2) + ' 亿';
  if (v >= 1e4) return f(v / 1e4, 1) + ' 万';
  return integer(v);
}

/** CNY: "90.39 万元" / "¥903,937" */
export function cny(v) {
  if (!isNum(v)) return '—';
  const neg = v < 0 ? '−' : '';
  const a = Math.abs(v);
  if (lang === 'en') return neg + '¥' + (a >= 100 ? integer(a) : numberFormat(a, 2));
  if (a >= 1e8) return neg + numberFormat(a / 1e8, 2) + ' 亿元';
  if (a >= 1e4) return neg + numberFormat(a / 1e4, 2) + ' 万元';
  return neg + numberFormat(a, a >= 100 ? 0 : 2) + ' 元';
}

/** Axis labels for money: "120万" / "¥1.2M" */
export function cnyTick(v) {
  if (v === 0) return '0';
  if (lang === 'en') {
    if (Math.abs(v) >= 1e6) return '¥' + numberFormat(v / 1e6, Math.abs(v) >= 1e7 ? 0 : 1) + 'M';
    if (Math.abs(v) >= 1e3) return '¥' + numberFormat(v / 1e3, 0) + 'k';
    return '¥' + integer(v);
  }
  if (Math.abs(v) >= 1e8) return numberFormat(v / 1e8, 1) + '亿';
  if (Math.abs(v) >= 1e4) return numberFormat(v / 1e4, Math.abs(v) >= 1e5 ? 0 : 1) + '万';
  return integer(v);
}

/** GB/s, switching to MB/s or kB/s for the trickles a data path needs. */
export function gbps(v) {
  if (!isNum(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1 || a === 0) return num3(v) + ' GB/s';
  if (a >= 1e-3) return num3(v * 1e3) + ' MB/s';
  return num3(v * 1e6) + ' kB/s';
}

/** Axis tick text: no trailing zeros. */
export function tickNum(v) {
  return formatter({ maximumFractionDigits: Math.abs(v) < 1 ? 3 : Math.abs(v) < 10 ? 1 : 0 }).format(v);
}

export function watts(v) {
  if (!isNum(v)) return '—';
  return v >= 1000 ? numberFormat(v / 1000, 2) + ' kW' : integer(v) + ' W';
}

/** A number as an editable string: no float noise (0.26599999999999996 -> 0.266). */
export function editable(v) {
  return isNum(v) ? String(Number(v.toPrecision(10))) : '';
}

/** Marks a format whose input is a byte count: fig() then writes the raw value as data-bytes. */
export function asBytes(format) {
  format.bytes = true;
  return format;
}
asBytes(gib);
asBytes(gibCompact);
/** |bytes| as GiB (a shortfall is shown as a positive amount next to "short by"). */
export const gibAbs = asBytes(function (bytes) { return gib(Math.abs(bytes)); });

/** A number as written, grouped, up to 6 decimals (ranges, placeholders). */
export function plain(v) {
  return formatter({ maximumFractionDigits: 6 }).format(v);
}

// Format factories for fig(): fixed(3) -> "0.612", pct(0) -> "61%".
export function fixed(decimals) { return function (v) { return numberFormat(v, decimals); }; }
export function pct(decimals) { return function (v) { return percent(v, decimals); }; }
/** A number with at most `decimals` decimals and no trailing zeros ("4.33", "4"). */
export function upTo(decimals) { return function (v) { return formatter({ maximumFractionDigits: decimals }).format(v); }; }


// ---------------------------------------------------------------- reading what a user typed

// Multipliers a number may carry: Chinese 万 / 亿 (万亿 = 10^12), and the k/M/B/T the page shows
// in English ("300 B tokens"). Percent is separate: "60%" is 0.6 only where the field is a share.
const SCALE = { '万亿': 1e12, '亿': 1e8, '千万': 1e7, '百万': 1e6, '万': 1e4, '千': 1e3, k: 1e3, K: 1e3, M: 1e6, B: 1e9, G: 1e9, T: 1e12 };
// Money (a field in yuan, schema unit "cny"): a yuan sign before the figure, 元 / 块 after it, or
// CNY / RMB either side, as people write prices ("¥50,000", "5万元", "RMB 1.2M"). Another
// currency is refused, never converted.
const YUAN_BEFORE = /^(¥|￥|CNY|RMB|人民币)/i;
const YUAN_AFTER = /(元人民币|人民币|元|块钱|块|CNY|RMB)$/i;
const OTHER_CURRENCY = /[$€£₩]|USD|EUR|HKD|美元|美金|欧元|港币|港元|日元/i;
const SIGNIFICANT = 15; // digits kept after scaling (3.3万 is 33000, not 33000.000000000004)
// Durations typed into a field in hours: a number, then its unit in Chinese or English.
const HOURS_IN = { h: 1, hr: 1, hrs: 1, hour: 1, hours: 1, '小时': 1, '个小时': 1, '时': 1,
  d: 24, day: 24, days: 24, '天': 24, '日': 24, w: 168, wk: 168, week: 168, weeks: 168, '周': 168, '星期': 168, '个星期': 168,
  // A month is 730 hours (8,760 / 12), the month the core's costs use (docs/cost.md).
  mo: 730, month: 730, months: 730, '个月': 730, '月': 730 };
const DURATION = /^(.+?)(hours|hour|hrs|hr|h|days|day|d|weeks|week|wk|w|months|month|mo|个小时|小时|时|天|日|个星期|星期|周|个月|月)$/i;

// A cadence typed into a field in runs per month (schema unit "per_month"): how many months one
// period is, and the period's words in Chinese and English.
const PER_MONTH = { '天': 365 / 12, '日': 365 / 12, day: 365 / 12, '周': 52 / 12, '星期': 52 / 12, week: 52 / 12,
  '月': 1, month: 1, '季度': 1 / 3, '季': 1 / 3, quarter: 1 / 3, '年': 1 / 12, year: 1 / 12 };
const EVERY_EN = { daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annually: 'year' };
const ZH_COUNT = { '一': 1, '两': 2, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9, '十': 10 };
const PERIOD = '(天|日|星期|周|月|季度|季|年|day|week|month|quarter|year)';
const CADENCE = [
  new RegExp('^(?:每|一)' + PERIOD + '(?:(.*?)次)?$', 'i'),           // 每周一次, 每周2次, 每天
  new RegExp('^(.+?)次?/' + PERIOD + '$', 'i'),                        // 2/周, 2次/周, 3/week
  new RegExp('^(.+?)(?:times?)?(?:per|a|every)' + PERIOD + 's?$', 'i'), // 3 per week, 2 times a month
];

/** Runs per month from a cadence ("每周一次", "2/周", "3 per week", "weekly"), or null. */
function cadencePerMonth(s) {
  const every = EVERY_EN[s.toLowerCase()];
  if (every) return PER_MONTH[every];
  for (let i = 0; i < CADENCE.length; i++) {
    const m = CADENCE[i].exec(s);
    if (!m) continue;
    const period = i === 0 ? m[1] : m[2];
    const countText = i === 0 ? m[2] : m[1];
    let count = 1;
    if (countText) {
      const n = ZH_COUNT[countText] !== undefined ? { value: ZH_COUNT[countText] } : parseNumberInput(countText);
      if (n.error) return null;
      count = n.value;
    }
    return count * PER_MONTH[period.toLowerCase()];
  }
  return null;
}

// Chinese numerals below 10,000 ("三千", "两", "十二", "一百五十", "三千零五"): digits and the
// 十/百/千 places. 万 and 亿 stay units after the figure (SCALE), so "三千亿" is 三千 × 亿. A
// mixed colloquial form ("五万五", "一万五千") is not read (as "5万5" is not): ambiguous.
const ZH_DIGIT = { '零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9 };
const ZH_PLACE = { '十': 10, '百': 100, '千': 1000 };

/** A Chinese numeral below 10,000 as digits ("三千" -> "3000"), or the text unchanged. */
function zhNumeral(s) {
  if (!/^[零〇一二两三四五六七八九十百千]+$/.test(s)) return s;
  let total = 0, digit = null, lastPlace = 10000;
  for (const c of s) {
    if (ZH_DIGIT[c] !== undefined) {
      if (digit !== null) return s;                        // "三五": two digits in a row
      if (ZH_DIGIT[c] === 0 && s.length > 1) {              // "三千零五": 零 only marks a gap
        if (lastPlace === 10000) return s;
        continue;
      }
      digit = ZH_DIGIT[c];
      continue;
    }
    const place = ZH_PLACE[c];
    if (place >= lastPlace) return s;                     // places go down: 千 then 百 then 十
    total += (digit === null ? (place === 10 ? 1 : NaN) : digit) * place; // "十二" = 12; "百" alone is not read
    digit = null;
    lastPlace = place;
  }
  if (digit !== null) total += digit;
  return isFinite(total) ? String(total) : s;
}

/** Full-width digits and punctuation (０-９ ． ， ％ ＋ － ｅ, ideographic space) as ASCII. */
export function halfWidth(text) {
  return String(text).replace(/[\uff01-\uff5e]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0xfee0); })
    .replace(/\u3000/g, ' ').replace(/[\u3001]/g, ',').replace(/\u3002/g, '.');
}

/**
 * What a user typed into a number box, read as a Chinese or English user writes it: "60%"
 * (0.6 where the field is a fraction), "3000亿", "三千亿", "３千亿", "7万", "1.5 B", "１，２３４", "1,234.5",
 * "2e9";
 * with opts.money (a field in yuan) also "¥50,000", "￥5万", "50000元", "5万元", "RMB 1.2M"; with
 * opts.hours (a field in hours) also "36h", "60天", "2周", "2个月", "1.5 days", "3 weeks", "2 months"
 * (a month = 730 h); with
 * opts.perMonth (runs per month) also "每周一次", "每周2次", "2/周", "3 per week", "weekly", "每天".
 * Returns {value} or {error: code} (empty | percent_not_share | not_cny | unreadable); the page
 * shows the error at the field in the current language.
 */
export function parseNumberInput(raw, opts) {
  const fraction = Boolean(opts && opts.fraction);
  const money = Boolean(opts && opts.money);
  let s = halfWidth(raw).trim();
  if (s === '') return { error: 'empty' };
  s = s.replace(/[\s_]/g, '');
  // A duration (a field in hours, schema unit "hours"): "36h", "60天", "2周", "3 days", "2 weeks".
  if (opts && opts.hours) {
    const d = DURATION.exec(s);
    if (d) {
      const n = parseNumberInput(d[1]);
      return n.error ? n : { value: Number((n.value * HOURS_IN[d[2].toLowerCase()]).toPrecision(SIGNIFICANT)) };
    }
  }
  // A cadence (a field in runs per month, schema unit "per_month"): "每周一次", "2/周", "weekly".
  if (opts && opts.perMonth) {
    const runs = cadencePerMonth(s);
    if (runs !== null) return isFinite(runs) ? { value: Number(runs.toPrecision(SIGNIFICANT)) } : { error: 'unreadable' };
  }
  if (money) {
    if (OTHER_CURRENCY.test(s)) return { error: 'not_cny' };
    s = s.replace(YUAN_BEFORE, '').replace(YUAN_AFTER, '');
    if (s === '') return { error: 'unreadable' };
  }
  // Thousands separators: a comma between digit groups of three.
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d*)?/.test(s)) s = s.replace(/,(?=\d{3}(\D|$))/g, '');
  let percent = false;
  if (/%$/.test(s)) { percent = true; s = s.slice(0, -1); }
  let scale = 1;
  const unit = /(万亿|亿|千万|百万|万|千|[kKMBGT])$/.exec(s);
  if (unit && !percent) { scale = SCALE[unit[1]]; s = s.slice(0, -unit[1].length); }
  s = zhNumeral(s);
  // A figure in digits with a place before 万 / 亿: "3千亿", "２百万" is in SCALE already.
  const place = scale >= 1e4 ? /^(\d+\.?\d*)(千|百|十)$/.exec(s) : null;
  if (place) { scale *= ZH_PLACE[place[2]]; s = place[1]; }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return { error: 'unreadable' };
  let v = Number(s) * scale;
  if (percent) {
    if (!fraction) return { error: 'percent_not_share' };
    v = Number(s) / 100;
  }
  if (!isFinite(v)) return { error: 'unreadable' };
  return { value: Number(v.toPrecision(SIGNIFICANT)) };
}

/**
 * What was typed into a number box, for the request: the number it reads as, undefined when the
 * box is blank, else the text as typed (the core rejects it and names the field). `opts`:
 * {fraction, money} as parseNumberInput's (a boolean: fraction alone).
 */
export function readTyped(text, opts) {
  const raw = String(text).trim();
  if (raw === '') return undefined;
  const read = parseNumberInput(raw, typeof opts === 'object' && opts ? opts : { fraction: Boolean(opts) });
  return read.error ? raw : read.value;
}

/** An amount of yuan in full, as read from a box: "¥50,000" / "50,000 元" (never rounded to 万). */
export function cnyExact(v) {
  if (!isNum(v)) return '—';
  return lang === 'en' ? (v < 0 ? '−¥' : '¥') + plain(Math.abs(v)) : plain(v) + ' 元';
}

// A share as a percent with a decimal only where it says something (12.5%, not 12.0%).
function sharePercent(v) { return percent(v, Number.isInteger(Math.round(v * 1000) / 10) ? 0 : 1); }

/**
 * The number styles of data/messages ({name, number, style}; cli/messages.cpp has the same
 * names): the message says what a figure is, so no figure's format is guessed from its name.
 */
export const NUMBER_STYLES = {
  percent: sharePercent,
  percent_whole: pct(0),
  cny: cny,
  signed_cny: signed(cny),
  duration: duration,
  signed_duration: signed(duration),
  tokens: tokensText,
  tokens_per_s: function (v) { return num3(v) + ' tok/s'; },
  gbps: function (v) { return num3(v) + ' GB/s'; },
  kw: function (v) { return num3(v) + ' kW'; },
  watts: function (v) { return num3(v / 1000) + ' kW'; },
  s: seconds,
  gib: asBytes(function (b) { return gib(b) + ' GiB'; }),
  bytes: function (v) { return Math.abs(v) >= 1048576 ? gib(v) + ' GiB' : plainNumber(v); },
};

/** A number with no style: an integer, else three significant digits, in the page's locale. */
export function plainNumber(v) {
  return Number.isInteger(v) ? integer(v) : formatter({ maximumSignificantDigits: 3 }).format(v);
}
