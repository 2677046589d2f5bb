// Kept apart from the verb: the command tree imports it at start-up.
import type { Offer } from '../../core/output/offer.js';

/** `findings summary` prints a table or one JSON document. */
export const SUMMARY_OFFER: Offer = { names: ['table', 'json'], default: 'table' };
