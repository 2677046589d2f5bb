// What `scans wait` and `scans create --wait` print once the scan is final, and the --fail-on gate.
import { SEVERITIES, type Finding, type Scan, type Severity } from '../../api/findings-types.js';
import { listFindings } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import { formatWait } from '../../core/context.js';
import { ExitCode, ExitError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http/client.js';
import { writeList, writeObject, type ListSource } from '../../core/output/index.js';
import { findingColumns } from '../findings/columns.js';
import { REPORT_FORMATS, loadFindingFormat } from '../findings/formats/index.js';
import { allSeverities } from '../findings/merge.js';
import { atOrAbove } from '../findings/severity.js';
import { allPages } from '../shared/list.js';
import { scanFields } from './columns.js';
import { writeStepSummary } from './step-summary.js';
import { isFailed, waitCommand } from './wait.js';

export interface ScanReport {
  /** The final scan. */
  scan: Scan;
  /** How long cssctl waited. */
  elapsedMs: number;
  format: string;
  failOn?: Severity;
  /** Narrows the report (never the gate). */
  severity?: Severity[];
  /** false with --no-step-summary. */
  stepSummary?: boolean;
}

export interface Gate {
  threshold: Severity;
  met: boolean;
  /** Findings counted per severity at or above the threshold, as far as the check went. */
  counts: Partial<Record<Severity, number>>;
}

/**
 * --fail-on: met when the scan has a finding at or above the threshold, counted over all of its findings
 * (cli-contract.md §2): `critical_count` for critical, otherwise GET /findings?scan_id&severity&limit=1 per
 * severity, reading `total`. Stops at the first severity that meets it.
 */
export async function checkFailOn(client: ApiClient, scan: Scan, threshold: Severity): Promise<Gate> {
  const counts: Partial<Record<Severity, number>> = {};
  for (const severity of atOrAbove(threshold)) {
    let n: number;
    if (severity === 'critical' && typeof scan.critical_count === 'number') n = scan.critical_count;
    else {
      const page = await listFindings(client, { scanId: scan.scan_id, severity, limit: 1 });
      n = page.total ?? page.items.length;
    }
    counts[severity] = n;
    if (n > 0) return { threshold, met: true, counts };
  }
  return { threshold, met: false, counts };
}

function countsText(scan: Scan): string | undefined {
  const parts = SEVERITIES.flatMap((s) => {
    const n = scan[`${s}_count`];
    return typeof n === 'number' ? [`${n} ${s}`] : [];
  });
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function gateText(gate: Gate): string {
  const found = Object.entries(gate.counts)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  return `findings at or above ${gate.threshold}: ${found} (--fail-on ${gate.threshold})`;
}

/** The scan's findings (narrowed only by --severity) as a stream, most severe first when several are asked. */
function scanFindings(ctx: Context, client: ApiClient, r: ScanReport): ListSource<Finding> {
  const scanId = r.scan.scan_id;
  const severities = r.severity ?? [];
  const source =
    severities.length > 1
      ? allSeverities(
          ctx,
          severities,
          (severity, offset, limit) => listFindings(client, { scanId, severity, offset, limit }),
          {},
        )
      : allPages(
          ctx,
          {
            fetch: (offset, limit) =>
              listFindings(client, { scanId, severity: severities[0], offset, limit }),
            idOf: (f) => idOfObject(f),
          },
          {},
        );
  // A report is read whole: an interrupted one is redone by waiting again (the scan is already final).
  return {
    [Symbol.asyncIterator]: () => source[Symbol.asyncIterator](),
    resume: () => waitCommand(ctx.argv, scanId),
  };
}

/**
 * Prints the report of a final scan: the scan summary (table, json, ndjson, csv) or its findings as a CI
 * report (sarif, junit, github); then a one-line summary on stderr; then applies the gate: exit 9 for a
 * failed scan, 10 when --fail-on is met.
 */
export async function reportScan(ctx: Context, client: ApiClient, r: ScanReport): Promise<Gate | undefined> {
  const { scan } = r;
  const failed = isFailed(scan.status);
  const gate = !failed && r.failOn ? await checkFailOn(client, scan, r.failOn) : undefined;

  if (REPORT_FORMATS.includes(r.format)) {
    await writeList(ctx.io, scanFindings(ctx, client, r), {
      format: r.format,
      formats: await loadFindingFormat(r.format),
      columns: findingColumns,
      noun: 'findings',
      failOn: r.failOn,
      signal: ctx.signal,
      about: { workspace: (await ctx.settings()).workspace, subject: `scan ${scan.scan_id}` },
    });
  } else {
    await writeObject(ctx.io, r.format, scan as Record<string, unknown>, scanFields);
  }

  await writeStepSummary(ctx, r, {
    scan,
    counts: gate?.counts,
    gate: r.failOn ? { failOn: r.failOn, met: gate?.met ?? false } : undefined,
    failed,
    waitedMs: r.elapsedMs,
  });

  if (failed) {
    const why = typeof scan.error === 'string' && scan.error ? `: ${scan.error}` : '';
    throw new ExitError(`scan ${scan.scan_id} ${scan.status}${why}`, ExitCode.scanFailed);
  }
  const counts = countsText(scan);
  const total = typeof scan.total_findings === 'number' ? `${scan.total_findings} findings` : 'done';
  let line = `Scan ${scan.scan_id} ${scan.status}: ${total}${counts ? ` (${counts})` : ''}`;
  if (gate && !gate.met) line += `; none at or above ${gate.threshold}`;
  if (r.elapsedMs >= 1000) line += `; waited ${formatWait(r.elapsedMs)}`;
  ctx.io.success(line);
  if (gate?.met) throw new ExitError(`scan ${scan.scan_id} has ${gateText(gate)}`, ExitCode.failOn);
  return gate;
}
