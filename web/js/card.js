// SPDX-License-Identifier: MIT
// The compact card (issue 29 item 1; ?embed=card, <gpu-advisor mode="card">): around the answer
// panel and the few inputs a buyer changes (style.css lays them out; everything else is hidden),
// a head with the host's logo and the provider's name, and a foot with the provider's offers and
// a link to the full advisor showing the same request.
// Every text of the provider's is set with textContent (h(..., {text})); the logo is an <img>
// whose src is a data:image URL js/embed.js has already checked (the frame loads nothing else).
import { clear, h } from './dom.js';
import { cnyExact } from './format.js';
import { fullLink } from './hash.js';
import { t } from './i18n.js';
import { CARD } from './mode.js';
import { providerGpuName } from './provider.js';
import { lastRun, onResult } from './run.js';

const MAX_OFFERS = 5;
const LOGO = /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,][^"\\\s]*$/i;

let logo = '';

/** The host's logo (a data:image URL from set-theme), or '' for none. */
export function setCardLogo(url) {
  logo = typeof url === 'string' && LOGO.test(url) ? url : '';
  if (CARD) renderCard();
}

function node(id, before) {
  let n = document.getElementById(id);
  if (n) return n;
  const results = document.getElementById('results');
  if (!results) return null;
  n = h('div', { id: id, class: id });
  results.insertBefore(n, before ? results.firstChild : null);
  return n;
}

function offerLine(o, recommended) {
  const prices = [];
  if (typeof o.price_cny_per_gpu_hour === 'number') prices.push(t('card.per_gpu_hour', { v: cnyExact(o.price_cny_per_gpu_hour) }));
  if (typeof o.price_cny_per_gpu_month === 'number') prices.push(t('card.per_gpu_month', { v: cnyExact(o.price_cny_per_gpu_month) }));
  if (typeof o.price_cny_per_node_month === 'number') prices.push(t('card.per_node_month', { v: cnyExact(o.price_cny_per_node_month), gpus: o.gpus_per_node }));
  const facts = [];
  // The offer's kind, its network between hosts and its shortest term, as the plan's card names them.
  if (typeof o.kind === 'string') facts.push(t('offer_kind.' + o.kind));
  if (typeof o.network === 'string' && o.network !== 'none') facts.push(t('card.offer_network', { network: o.network }));
  if (typeof o.minimum_term_months === 'number' && o.minimum_term_months > 1) facts.push(t('card.offer_term', { months: o.minimum_term_months }));
  facts.push(t('provider.availability.' + o.availability));
  if (typeof o.region === 'string' && o.region) facts.push(o.region);
  return h('li', { class: 'card-offer' + (recommended ? ' recommended' : ''), dataset: { offer: String(o.offer), gpu: String(o.gpu) } },
    h('span', { class: 'card-offer-gpu', text: providerGpuName(o.gpu) }),
    h('span', { class: 'card-offer-price', text: prices.join(' · ') }),
    h('span', { class: 'card-offer-facts muted', text: facts.join(' · ') }),
    recommended ? h('span', { class: 'card-offer-tag', text: t('card.offer_used') }) : null);
}

/** The head (logo, provider name and date) and the foot (offers, the link), from the last run. */
export function renderCard() {
  if (!CARD) return;
  const r = lastRun();
  const p = r.result && r.result.provider;
  const head = node('card-head', true);
  const foot = node('card-foot', false);
  if (!head || !foot) return;
  clear(head);
  clear(foot);
  if (logo) head.appendChild(h('img', { class: 'card-logo', src: logo, alt: p && typeof p.name === 'string' ? p.name : '' }));
  if (p) {
    head.appendChild(h('div', { class: 'card-provider' },
      h('strong', { class: 'card-provider-name', text: String(p.name) }),
      h('span', { class: 'card-provider-date muted', text: t('card.as_of', { date: String(p.as_of) }) })));
  }
  head.hidden = !logo && !p;
  if (p && Array.isArray(p.offers_used) && p.offers_used.length) {
    const rec = p.recommended_offer;
    const hourly = function (o) { return typeof o.price_cny_per_gpu_hour === 'number' ? o.price_cny_per_gpu_hour : Infinity; };
    // One line per GPU: the offer behind the answer first, then each other part's cheapest.
    const seen = Object.create(null);
    const offers = p.offers_used.filter(function (o) { return o && o.availability !== 'sold_out'; }).slice().sort(function (a, b) {
      if ((a.offer === rec) !== (b.offer === rec)) return a.offer === rec ? -1 : 1;
      return hourly(a) - hourly(b);
    }).filter(function (o) {
      if (seen[o.gpu]) return false;
      seen[o.gpu] = true;
      return true;
    }).slice(0, MAX_OFFERS);
    foot.appendChild(h('section', { class: 'card-offers', 'aria-labelledby': 'card-offers-title' },
      h('h2', { class: 'card-offers-title', id: 'card-offers-title', text: t('card.offers', { name: String(p.name) }) }),
      h('ul', { class: 'card-offer-list' }, offers.map(function (o) { return offerLine(o, o.offer === rec); }))));
  }
  if (r.request) {
    foot.appendChild(h('p', { class: 'card-link' },
      h('a', { class: 'card-full-link', id: 'card-full-link', href: fullLink(r.request), target: '_blank', rel: 'noopener', text: t('card.open_full') })));
  }
}

if (CARD) onResult(renderCard);
