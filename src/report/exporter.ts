// The one exporter: a findings stream written in the format -o names, whichever command produced it. It owns
// the format names (through registry.ts) and leaves out items that are not findings, for every format.
import type { Finding, Severity } from '../api/findings-types.js';
import type { Context } from '../core/context.js';
import type { Column } from '../core/format.js';
import { standardFormats, writeList, type ListSource } from '../core/output/index.js';
import { findingColumns } from './columns.js';
import { loadReportFormat } from './registry.js';
import { objectsOnly } from './stages.js';

export interface ExportOptions {
  format: string;
  /** The gate, for formats that mark what meets it (junit failures). */
  failOn?: Severity;
  /** Table and csv columns (default: the finding's own). */
  columns?: Column<Finding>[];
}

/** Writes the stream to stdout in the chosen format; returns how many findings were written. */
export async function exportFindings(
  ctx: Pick<Context, 'io' | 'signal'>,
  source: ListSource<Finding>,
  opts: ExportOptions,
): Promise<number> {
  const formats = { ...standardFormats<Finding>(), ...(await loadReportFormat(opts.format)) };
  return writeList(ctx.io, objectsOnly(ctx.io, source), {
    format: opts.format,
    formats,
    columns: opts.columns ?? findingColumns,
    noun: 'findings',
    failOn: opts.failOn,
    signal: ctx.signal,
  });
}
