// Every -o name cssctl knows, in one list (cli-contract.md §1, §3). The standard four are offered by every list
// and record command; `wide` by tables of lists; the report formats by findings and scan reports, each one file
// that src/report/registry.ts loads by this name (a name without a loader there is a compile error). config.json's
// `output`, the command tree, completion and the exporter all read these lists; the launcher needs none.
export const STANDARD_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

/** The findings-only report formats, in the order help and completion list them. */
export const REPORT_FORMATS = ['sarif', 'junit', 'github', 'html', 'ocsf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Every -o value: the standard four, `wide` (tables of list commands), then the reports. */
export const ALL_FORMATS = [...STANDARD_FORMATS, 'wide', ...REPORT_FORMATS] as const;
export type OutputFormat = (typeof ALL_FORMATS)[number];

export function isReportFormat(name: string | undefined): name is ReportFormat {
  return (REPORT_FORMATS as readonly (string | undefined)[]).includes(name);
}
