// The findings-only report formats (cli-contract.md §3, "CI reports"): the single place that lists them.
// Each is one file exporting a FormatterFactory<Finding>, loaded only when chosen. `findings list` and the
// scan report of `scans wait` / `scans create --wait` offer every format named here.
import type { Finding } from '../../../api/findings-types.js';
import type { FormatterFactory } from '../../../core/format.js';
import { WIDE_LIST_OFFER, type Offer } from '../../../core/output/offer.js';

export const findingFormats: Readonly<Record<string, () => Promise<FormatterFactory<Finding>>>> = {
  sarif: async () => (await import('./sarif.js')).sarif,
  junit: async () => (await import('./junit.js')).junit,
  github: async () => (await import('./github.js')).github,
  html: async () => (await import('../../../report/html.js')).html,
};

export const REPORT_FORMATS = Object.keys(findingFormats);

/** What `findings list` offers: the standard four, wide and the reports. */
export const FINDINGS_OFFER: Offer = {
  names: [...WIDE_LIST_OFFER.names, ...REPORT_FORMATS],
  default: 'table',
};

/** Loads the chosen report format (undefined for the standard ones). */
export async function loadFindingFormat(name: string): Promise<Record<string, FormatterFactory<Finding>>> {
  const load = findingFormats[name];
  return load ? { [name]: await load() } : {};
}
