// Kept apart from the formatters: the command tree imports it at start-up.
import { UsageError } from '../errors.js';
import { STANDARD_FORMATS } from './formats.js';

export { STANDARD_FORMATS } from './formats.js';

/**
 * The formats a command offers (by -o name) and the one it uses when -o is not given. Commands declare this
 * at registration (lazy() rejects an -o they do not offer before anything is sent) and when choosing.
 */
export interface Offer {
  names: readonly string[];
  default: string;
}

export const LIST_OFFER: Offer = { names: STANDARD_FORMATS, default: 'table' };

/**
 * What the list commands offer (those with withListOptions): the standard formats and `wide`, a table with
 * every column, uncut.
 */
export const WIDE_LIST_OFFER: Offer = { names: ['table', 'wide', 'json', 'ndjson', 'csv'], default: 'table' };

export function unofferedFormat(format: string, offer: Offer, command: string): UsageError {
  return new UsageError(`-o ${format} is not available for "${command}": use ${offer.names.join(', ')}`);
}
