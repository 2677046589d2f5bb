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

/** What a report format is, said once, beside its loader: everything else (the ignore stage, --jq, the Action) reads it. */
export interface ReportFormatDescriptor {
  /**
   * Whether it keeps the findings the ignore file accepted whatever --show-ignored says, marked as such: junit (as
   * skipped test cases), html (marked rows, counted apart: §8), ocsf (status Suppressed with the reason: §14, so a
   * security lake learns the risk was accepted rather than losing the finding). The others keep them only with
   * --show-ignored.
   */
  keepsIgnored: boolean;
  /** How `--jq` treats it: `ndjson` filters each line as it streams (ocsf: one event a line); none refuses --jq. */
  jq?: 'ndjson';
  /** Whether the GitHub Action offers it as an input of its name (action.yml: the report's path, and an output). */
  actionInput: boolean;
  load: () => Promise<FormatterFactory<Finding>>;
}

export const reportFormats = {
  sarif: {
    keepsIgnored: false,
    actionInput: true,
    load: async () => (await import('./formats/sarif.js')).sarif,
  },
  junit: {
    keepsIgnored: true,
    actionInput: true,
    load: async () => (await import('./formats/junit.js')).junit,
  },
  // The Action writes `-o github` itself (annotations on stdout): no input.
  github: {
    keepsIgnored: false,
    actionInput: false,
    load: async () => (await import('./formats/github.js')).github,
  },
  html: { keepsIgnored: true, actionInput: true, load: async () => (await import('./html.js')).html },
  ocsf: {
    keepsIgnored: true,
    jq: 'ndjson',
    actionInput: true,
    load: async () => (await import('./formats/ocsf.js')).ocsf,
  },
} as const satisfies Record<ReportFormat, ReportFormatDescriptor>;

/** The descriptor of a report format, or undefined for any other -o name. */
export function reportFormat(name: string | undefined): ReportFormatDescriptor | undefined {
  return isReportFormat(name) ? reportFormats[name] : undefined;
}

/** A report format the Action offers as an input. */
export type ActionReportFormat = {
  [K in ReportFormat]: (typeof reportFormats)[K]['actionInput'] extends true ? K : never;
}[ReportFormat];

/** The report formats the Action offers as inputs, in the order of REPORT_FORMATS. */
export const ACTION_REPORT_FORMATS: readonly ActionReportFormat[] = REPORT_FORMATS.filter(
  (f): f is ActionReportFormat => reportFormats[f].actionInput,
);

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
  return isReportFormat(name) ? { [name]: await reportFormats[name].load() } : {};
}
