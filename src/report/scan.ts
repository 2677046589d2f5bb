// What `scans wait` and `scans create --wait` print once the scan is final, and the --fail-on gate: the scan
// summary (table, json, ndjson, csv) or its findings as a report (sarif, junit, github); a one-line summary on
// stderr; the step summary; then exit 9 for a failed scan, 10 when --fail-on is met.
import type { Scan, Severity } from '../api/findings-types.js';
import type { Context } from '../core/context.js';
import { formatWait } from '../core/context.js';
import { ExitCode, ExitError } from '../core/errors.js';
import type { ApiClient } from '../core/http/client.js';
import { writeObject } from '../core/output/index.js';
import { SEVERITIES } from '../api/findings-types.js';
import { scanFields } from './scan-fields.js';
import { exportFindings } from './exporter.js';
import { enforceGate, gateFromCounts, knownCounts, trustedCount, type Gate } from './gate.js';
import { isReportFormat } from './registry.js';
import { countFindings } from './sources/count.js';
import { scanFindings } from './sources/findings.js';
import { writeStepSummary } from './step-summary.js';

export interface ScanReport {
  /** The final scan. */
  scan: Scan;
  /** Whether its status is a failure (exit 9). */
  failed: boolean;
  /** How long cssctl waited. */
  elapsedMs: number;
  format: string;
  failOn?: Severity;
  /** Narrows the report (never the gate). */
  severity?: Severity[];
  /** false with --no-step-summary. */
  stepSummary?: boolean;
  /** The command that redoes the report after an interruption (`cssctl scans wait <id> …`). */
  resume: string;
}

function countsText(scan: Scan, gate: Gate | undefined): string | undefined {
  const counts = knownCounts(scan, gate?.counts);
  const parts = SEVERITIES.flatMap((s) => (counts[s] === undefined ? [] : [`${counts[s]} ${s}`]));
  return parts.length > 0 ? parts.join(', ') : undefined;
}

export async function reportScan(ctx: Context, client: ApiClient, r: ScanReport): Promise<Gate | undefined> {
  const { scan, failed } = r;
  // No ignore file and no baseline: the gate is counted from the service's totals, not from a read.
  const gate =
    !failed && r.failOn
      ? await gateFromCounts(scan, r.failOn, (severity) => countFindings(ctx, client, scan.scan_id, severity))
      : undefined;

  if (isReportFormat(r.format)) {
    const source = scanFindings(ctx, client, scan.scan_id, r.severity ?? [], r.resume);
    await exportFindings(ctx, source, { format: r.format, failOn: r.failOn });
  } else {
    await writeObject(ctx.io, r.format, scan as Record<string, unknown>, scanFields);
  }

  await writeStepSummary(ctx, r, {
    scan,
    counts: knownCounts(scan, gate?.counts),
    gate: r.failOn ? { failOn: r.failOn, met: gate?.met ?? false } : undefined,
    failed,
    waitedMs: r.elapsedMs,
  });

  if (failed) {
    const why = typeof scan.error === 'string' && scan.error ? `: ${scan.error}` : '';
    throw new ExitError(`scan ${scan.scan_id} ${scan.status}${why}`, ExitCode.scanFailed);
  }
  const counts = countsText(scan, gate);
  const totalCount = trustedCount(scan.total_findings);
  const total = totalCount !== undefined ? `${totalCount} findings` : 'done';
  let line = `Scan ${scan.scan_id} ${scan.status}: ${total}${counts ? ` (${counts})` : ''}`;
  if (gate && !gate.met) line += `; none at or above ${gate.threshold}`;
  if (r.elapsedMs >= 1000) line += `; waited ${formatWait(r.elapsedMs)}`;
  ctx.io.success(line);
  enforceGate(`scan ${scan.scan_id}`, gate);
  return gate;
}
