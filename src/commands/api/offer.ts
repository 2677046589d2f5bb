import type { Offer } from '../../core/output/offer.js';

/** `api` prints JSON: the answer as it is, or with --paginate the items as one array or one per line. */
export const API_OFFER: Offer = { names: ['json', 'ndjson'], default: 'json' };
