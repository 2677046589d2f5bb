import type { Offer } from '../../core/output/offer.js';

/**
 * `api` prints JSON: the answer as it is, or with --paginate the items as one array or one per line. A module
 * of its own so the command tree (index.ts) and the verb (api.ts) both import it without importing each other.
 */
export const API_OFFER: Offer = { names: ['json', 'ndjson'], default: 'json' };
