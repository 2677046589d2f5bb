// What `scans wait` and `scans create --wait` print once the scan is final, and the --fail-on gate: the scan
// summary (table, json, ndjson, csv) or its findings as a report (sarif, junit, github); a one-line summary on
// stderr; the step summary; then exit 9 for a failed scan, 10 when --fail-on is met.
import type { Finding, Scan, Severity } from '../api/findings-types.js';
import { PassThrough, Writable } from 'node:stream';
import type { Context } from '../core/context.js';
import type { ReportAbout } from '../core/format.js';
import { writeFileAtomic } from '../core/files.js';
import { IO } from '../core/io.js';
import { formatWait } from '../core/context.js';
import { ExitCode, ExitError } from '../core/errors.js';
import type { ApiClient } from '../core/http/client.js';
import { writeObject } from '../core/output/index.js';
import { SEVERITIES } from '../api/findings-types.js';
import { scanFields } from './scan-fields.js';
import { findingColumnsShowingIgnored } from './columns.js';
import { exportFindings, type ReportSpec } from './exporter.js';
import { workspaceAbout } from './about.js';
import {
  GateTally,
  enforceGate,
  gateFromCounts,
  knownCounts,
  trustedCount,
  verdictOf,
  type Gate,
} from './gate.js';
import { anyKeepsIgnored, reportIgnore } from './ignore/index.js';
import { applyIgnore, ignoredOf, type IgnoreRules } from './ignore/stage.js';
import { isReportFormat } from './registry.js';
import { countFindings } from './sources/count.js';
import { scanFindings } from './sources/findings.js';
import { writeStepSummary } from './step-summary.js';
import { reportDiff } from './diff-report.js';
import { loadBase, type Ref } from './sources/refs.js';

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
  /** --baseline, parsed (and its file checked) before any request. */
  baseline?: Ref;
  /** The ignore file's rules (loaded and checked before any request), when one applies. */
  ignore?: IgnoreRules;
  showIgnored?: boolean;
  /** -o's output to this file (atomically) instead of stdout. */
  outputFile?: string;
  /** --report: findings reports from the same read as the gate. */
  reports?: readonly ReportSpec[];
}

function countsText(scan: Scan, gate: Gate | undefined): string | undefined {
  const counts = knownCounts(scan, gate?.counts);
  const parts = SEVERITIES.flatMap((s) => (counts[s] === undefined ? [] : [`${counts[s]} ${s}`]));
  return parts.length > 0 ? parts.join(', ') : undefined;
}

export async function reportScan(ctx: Context, client: ApiClient, r: ScanReport): Promise<Gate | undefined> {
  const { scan, failed } = r;
  if (!failed && r.baseline) return reportAgainst(ctx, client, r, r.baseline);
  // An ignore file, or reports that must hold what the gate decided on: one read decides the gate.
  if (!failed && ((r.ignore && r.ignore.file.entries.length > 0) || r.reports?.length))
    return reportByReading(ctx, client, r, r.ignore);
  // No ignore file and no baseline: the gate is counted from the service's totals, not from a read.
  const gate =
    !failed && r.failOn
      ? await gateFromCounts(scan, r.failOn, (severity) => countFindings(ctx, client, scan.scan_id, severity))
      : undefined;

  if (isReportFormat(r.format)) {
    const source = scanFindings(ctx, client, scan.scan_id, r.severity ?? [], r.resume);
    await exportFindings(ctx, source, {
      format: r.format,
      failOn: r.failOn,
      outputFile: r.outputFile,
      about: { ...(await scanAbout(ctx, scan.scan_id)), verdict: () => verdictOf(gate) },
    });
  } else {
    await writeSummary(ctx, r);
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

/**
 * --baseline: the report, the gate and the step summary are those of `findings diff --base <baseline> --head
 * <the scan>` (cli-contract.md §8). Stdout keeps the scan summary unless -o asks for a report.
 */
async function reportAgainst(
  ctx: Context,
  client: ApiClient,
  r: ScanReport,
  ref: Ref,
): Promise<Gate | undefined> {
  const { scan } = r;
  const base = await loadBase(ctx, async () => client, ref, scan, '--baseline', r.resume);
  if (base.label === undefined)
    ctx.io.notice(
      `no earlier completed scan of connection ${scan.connection_alias ?? '?'}: a first run, every finding is new`,
    );
  const report = isReportFormat(r.format) ? r.format : undefined;
  const result = await reportDiff(ctx, base.index, scanFindings(ctx, client, scan.scan_id, [], r.resume), {
    format: report,
    failOn: r.failOn,
    severities: r.severity,
    resume: r.resume,
    countsLine: false,
    ignore: r.ignore,
    showIgnored: r.showIgnored,
    outputFile: report === undefined ? undefined : r.outputFile,
    reports: r.reports,
    about: {
      ...(await workspaceAbout(ctx)),
      subject: `scan ${scan.scan_id} against ${base.label ?? 'no baseline (first run)'}`,
    },
  });
  await reportIgnore(ctx, r.ignore, {
    format: report,
    complete: true,
    showIgnored: r.showIgnored,
    connection: scan.connection_alias,
  });
  if (report === undefined) await writeSummary(ctx, r);
  const counted = result.headTally.counts;
  await writeStepSummary(ctx, r, {
    scan,
    counts: counted,
    gate: r.failOn ? { failOn: r.failOn, met: result.gate?.met ?? false } : undefined,
    failed: false,
    waitedMs: r.elapsedMs,
    diff: {
      baseline: base.label,
      byRank: result.counts.byRank,
      gateCounts: result.gate?.counts,
      ignored: r.ignore?.ignoredByRank,
    },
    warnings: r.ignore?.messages({ complete: false }).warnings.map((w) => w.text),
  });
  const total = SEVERITIES.reduce((a, s) => a + counted[s], 0) + result.headTally.other;
  let line = `Scan ${scan.scan_id} ${scan.status}: ${total} findings (${SEVERITIES.map((s) => `${counted[s]} ${s}`).join(', ')})`;
  line += `; against ${base.label ?? 'no baseline'}: ${result.counts.toString()}`;
  if (result.gate && !result.gate.met) line += `; none new or raised at or above ${result.gate.threshold}`;
  if (r.elapsedMs >= 1000) line += `; waited ${formatWait(r.elapsedMs)}`;
  ctx.io.success(line);
  enforceGate(`scan ${scan.scan_id}`, result.gate, 'new or raised findings');
  return result.gate;
}

/**
 * With an ignore file (and no baseline) the gate cannot be counted from the service's totals: the scan's
 * findings are read once, the ignored ones left out of the gate, and the gate, the counts and the report all
 * come from that one read.
 */
async function reportByReading(
  ctx: Context,
  client: ApiClient,
  r: ScanReport,
  rules: IgnoreRules | undefined,
): Promise<Gate | undefined> {
  const { scan } = r;
  const report = isReportFormat(r.format) ? r.format : undefined;
  const tally = new GateTally();
  const severities = r.severity && r.severity.length > 0 ? new Set<string>(r.severity) : undefined;
  const keep = anyKeepsIgnored(report, r.reports, r.showIgnored);
  async function* stream(): AsyncGenerator<Finding> {
    const all = scanFindings(ctx, client, scan.scan_id, [], r.resume);
    const kept = rules ? applyIgnore(all, rules, { keep, show: r.showIgnored === true }) : all;
    for await (const f of kept) {
      if (f === null || typeof f !== 'object') continue;
      if (!ignoredOf(f)) tally.add(f);
      // --severity narrows the report, never the gate.
      if (severities && !severities.has(String(f.severity ?? '').toLowerCase())) continue;
      yield f;
    }
  }
  const source = { [Symbol.asyncIterator]: () => stream()[Symbol.asyncIterator](), resume: () => r.resume };
  if (report !== undefined || r.reports?.length) {
    await exportFindings(ctx, source, {
      format: report,
      outputFile: report === undefined ? undefined : r.outputFile,
      reports: r.reports,
      failOn: r.failOn,
      showIgnored: r.showIgnored,
      about: {
        ...(await scanAbout(ctx, r.scan.scan_id)),
        verdict: () => (r.failOn ? verdictOf(tally.gate(r.failOn)) : undefined),
      },
      ...(rules && r.showIgnored ? { columns: () => findingColumnsShowingIgnored } : {}),
    });
  } else {
    for await (const f of source) void f;
  }
  if (report === undefined) await writeSummary(ctx, r);
  await reportIgnore(ctx, rules, {
    format: report,
    complete: true,
    showIgnored: r.showIgnored,
    connection: scan.connection_alias,
  });
  const gate = r.failOn ? tally.gate(r.failOn) : undefined;
  await writeStepSummary(ctx, r, {
    scan,
    counts: tally.counts,
    gate: r.failOn ? { failOn: r.failOn, met: gate?.met ?? false } : undefined,
    failed: false,
    waitedMs: r.elapsedMs,
    ignored: rules?.ignoredByRank,
    warnings: rules?.messages({ complete: false }).warnings.map((w) => w.text),
  });
  const counted = tally.counts;
  const total = SEVERITIES.reduce((a, s) => a + counted[s], 0) + tally.other;
  let line = `Scan ${scan.scan_id} ${scan.status}: ${total} findings (${SEVERITIES.map((s) => `${counted[s]} ${s}`).join(', ')})`;
  if (rules) line += `; ${rules.ignored} ignored by ${rules.file.display}`;
  if (gate && !gate.met) line += `; none at or above ${gate.threshold}`;
  if (r.elapsedMs >= 1000) line += `; waited ${formatWait(r.elapsedMs)}`;
  ctx.io.success(line);
  enforceGate(`scan ${scan.scan_id}`, gate);
  return gate;
}

/** The scan summary in a standard format: on stdout, or atomically in --output-file. */
async function writeSummary(ctx: Context, r: ScanReport): Promise<void> {
  const record = r.scan as Record<string, unknown>;
  if (r.outputFile === undefined) {
    await writeObject(ctx.io, r.format, record, scanFields);
    return;
  }
  const captured = new Collected();
  const io = new IO(
    { stdin: new PassThrough(), stdout: captured, stderr: ctx.io.stderr },
    { env: {}, noColorFlag: true },
  );
  await writeObject(io, r.format, record, scanFields);
  await io.finishOutput();
  writeFileAtomic(r.outputFile, captured.text, 0o644);
}

class Collected extends Writable {
  private readonly chunks: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** The header of a scan's report (html): the workspace and the scan. */
async function scanAbout(ctx: Context, scanId: string): Promise<ReportAbout> {
  return { ...(await workspaceAbout(ctx)), subject: `scan ${scanId}` };
}
