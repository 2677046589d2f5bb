// How each report format is loaded, by its name in the one list of format names (src/core/output/formats.ts),
// and what findings and scan reports offer. This module is loaded at start-up: it loads none of the formats.
//
// Adding a report format is one file in ./formats/ exporting a FormatterFactory, its name in formats.ts, and one
// line below (the map must have a loader for every name: a compile error otherwise).
import type { Finding } from '../api/findings-types.js';
import type { FormatterFactory } from '../core/format.js';
import {
  REPORT_FORMATS,
  STANDARD_FORMATS,
  isReportFormat,
  type ReportFormat,
} from '../core/output/formats.js';
import { WIDE_LIST_OFFER, type Offer } from '../core/output/offer.js';

export { ALL_FORMATS, REPORT_FORMATS, isReportFormat, type ReportFormat } from '../core/output/formats.js';

export const reportFormats = {
  sarif: async () => (await import('./formats/sarif.js')).sarif,
  junit: async () => (await import('./formats/junit.js')).junit,
  github: async () => (await import('./formats/github.js')).github,
  html: async () => (await import('./html.js')).html,
  ocsf: async () => (await import('./formats/ocsf.js')).ocsf,
} satisfies Record<ReportFormat, () => Promise<FormatterFactory<Finding>>>;

/**
 * What findings commands offer, and the scan report of `scans wait` / `scans create --wait`: the standard four
 * (for a scan report, the scan summary) and the reports (the scan's findings).
 */
export const FINDINGS_OFFER: Offer = {
  names: [...WIDE_LIST_OFFER.names, ...REPORT_FORMATS],
  default: 'table',
};
export const SCAN_REPORT_OFFER: Offer = { names: [...STANDARD_FORMATS, ...REPORT_FORMATS], default: 'table' };

/** Loads the chosen report format (nothing for the standard ones). */
export async function loadReportFormat(name: string): Promise<Record<string, FormatterFactory<Finding>>> {
  return isReportFormat(name) ? { [name]: await reportFormats[name]() } : {};
}
