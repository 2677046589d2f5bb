// Every format name cssctl knows, in one place (cli-contract.md §1 `-o`, §3): the standard four that every list
// and record command offers, and the report formats that findings and scan reports offer. config.ts, the
// command tree, completion and the exporter all read these lists. This module is loaded at start-up: it names
// the report formats and how to load each, and loads none of them.
//
// Adding a report format is one file in ./formats/ exporting a ReportFormatterFactory, and one line below.
import type { Finding } from '../api/findings-types.js';
import type { FormatterFactory } from '../core/format.js';
import { STANDARD_FORMATS, WIDE_LIST_OFFER, type Offer } from '../core/output/offer.js';

export const reportFormats = {
  sarif: async () => (await import('./formats/sarif.js')).sarif,
  junit: async () => (await import('./formats/junit.js')).junit,
  github: async () => (await import('./formats/github.js')).github,
  html: async () => (await import('./html.js')).html,
  ocsf: async () => (await import('./formats/ocsf.js')).ocsf,
} satisfies Record<string, () => Promise<FormatterFactory<Finding>>>;

export type ReportFormat = keyof typeof reportFormats;

/** The findings-only report formats, in the order help and completion list them. */
export const REPORT_FORMATS = Object.keys(reportFormats) as ReportFormat[];

/** Every -o value: the standard four, `wide` (tables of list commands), then the reports. */
export const ALL_FORMATS = [...STANDARD_FORMATS, 'wide', ...REPORT_FORMATS] as const;

export function isReportFormat(name: string): name is ReportFormat {
  return Object.hasOwn(reportFormats, name);
}

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
