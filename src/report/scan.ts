// What `scans wait` and `scans create --wait` report once the scan is final (cli-contract.md §2, §8, §9): the
// scan summary (table, json, ndjson, csv) or its findings as a report (sarif, junit, github, html), every
// --report from the same read, a one-line summary, the step summary, and the --fail-on gate.
//
// The gate is decided one of three ways, by what the scan's findings must go through: with --baseline, a
// comparison; with an ignore file that has entries, or --report files, one read of every finding; otherwise the
// service's counts (no read at all). Whichever it is, one Conclusion comes out, and one ending turns it into
// the line, the step summary and the outcome — the front end maps that to exit 9 or 10.
import type { Finding, Scan, Severity } from '../api/findings-types.js';
import { SEVERITIES } from '../api/findings-types.js';
import type { FindingsOutput, Outcome, Output, Result } from './result.js';
import type { Context } from '../core/context.js';
import { formatWait } from '../core/durations.js';
import type { ApiClient } from '../core/http/client.js';
import type { ReportAbout } from '../core/format.js';
import type { ListSource } from '../core/output/index.js';
import { findingColumnsShowingIgnored } from './columns.js';
import { diffReport } from './diff-report.js';
import type { DiffCounts } from './diff.js';
import type { ReportSpec } from './exporter.js';
import {
  GateTally,
  countsForGate,
  gateFromCounts,
  knownCounts,
  trustedCount,
  verdictOf,
  type Gate,
  type SeverityCounts,
} from './gate.js';
import { anyKeepsIgnored, reportIgnore } from './ignore/index.js';
import { applyIgnore, ignoredOf, type IgnoreRules } from './ignore/stage.js';
import { isReportFormat } from './registry.js';
import { scanFields, scanShown } from './scan-fields.js';
import { countFindings } from './sources/count.js';
import { scanFindings } from './sources/findings.js';
import { loadBase, type Ref } from './sources/refs.js';
import type { StepSummary } from './step-summary.js';
import { workspaceAbout } from './about.js';

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

/** What the findings came to, however they were counted. */
interface Conclusion {
  gate?: Gate;
  /** By severity: the findings that count (the ignore file's accepted risks left out). */
  counts: SeverityCounts;
  /** How many findings count in all, when known (severities cssctl does not know included). */
  total?: number;
  /** What the gate line counts ("new or raised findings" in a comparison). */
  what?: string;
  /** More for the one-line summary (`against scan scn_1: 3 new, …`, `2 ignored by .cssctl-ignore.yaml`). */
  more: string[];
  /** `none new or raised at or above high`, when the gate passed. */
  passed?: string;
  /** For the step summary. */
  diff?: StepSummary['diff'];
  ignored?: number[];
  /** The comparison's counts (for the MCP server's and the Action's outputs). */
  states?: DiffCounts['n'];
}

/** How the findings are read: what they give the writers, and what they came to once read. */
interface Reading {
  findings?: FindingsOutput;
  conclude(): Promise<Conclusion>;
}

/**
 * The report of a final scan as a result: its output (the findings report and --report files, or the scan
 * summary), then its outcome (the gate, exit 9 for a failed scan, the step summary).
 */
export async function scanReport(ctx: Context, client: ApiClient, r: ScanReport): Promise<Result> {
  const { scan, failed } = r;
  // A failed scan writes no CI report (cli-contract.md §12): an empty SARIF saying the run succeeded, uploaded by a
  // later step, would close every open alert; JUnit would pass, and annotations would look like a result.
  if (failed && NO_REPORT_WHEN_FAILED.has(r.format))
    return { finish: () => conclude(ctx, r, r.format, { conclude: async () => ({ counts: {}, more: [] }) }) };
  const report = isReportFormat(r.format) ? r.format : undefined;
  const about: ReportAbout = { ...(await workspaceAbout(ctx)), subject: `scan ${scan.scan_id}` };
  let reading: Reading;
  if (!failed && r.baseline) reading = await againstBaseline(ctx, client, r, r.baseline, report, about);
  else if (!failed && ((r.ignore && r.ignore.file.entries.length > 0) || r.reports?.length))
    reading = readOnce(ctx, client, r, report, about);
  else reading = await fromCounts(ctx, client, r, report, about);

  const output: Output[] = [];
  if (reading.findings) output.push(reading.findings);
  if (report === undefined)
    output.push({
      kind: 'record',
      // A table shows a failed scan's counts as — and the risk with one decimal, as scans list does.
      value: r.format === 'table' ? scanShown(scan) : (scan as Record<string, unknown>),
      format: r.format,
      fields: scanFields,
      outputFile: r.outputFile,
    });
  return { output, finish: () => conclude(ctx, r, report, reading) };
}

/** The CI reports a failed scan never writes (to stdout or --output-file). */
const NO_REPORT_WHEN_FAILED: ReadonlySet<string> = new Set(['sarif', 'junit', 'github']);

/** The one ending: the ignore file's notices, the line, the step summary and the outcome. */
async function conclude(
  ctx: Context,
  r: ScanReport,
  report: string | undefined,
  reading: Reading,
): Promise<Outcome> {
  const { scan, failed } = r;
  const c = await reading.conclude();
  // One line says how many were ignored — the summary line below, and only when some were.
  if (!failed && r.ignore && r.ignore.ignored > 0 && c.more.some((m) => m.includes('ignored by')))
    r.ignore.countTold();
  const text = failed
    ? undefined
    : await reportIgnore(ctx, r.ignore, {
        format: report,
        complete: true,
        showIgnored: r.showIgnored,
        connection: scan.connection_alias,
      });
  const stepSummary: StepSummary | undefined =
    r.stepSummary === false
      ? undefined
      : {
          scan,
          counts: knownCounts(scan, c.counts),
          gate: r.failOn ? { failOn: r.failOn, met: c.gate?.met ?? false } : undefined,
          failed,
          waitedMs: r.elapsedMs,
          ignored: c.ignored,
          diff: c.diff,
          warnings: r.ignore?.messages({ complete: false }).warnings.map((w) => w.text),
        };
  const data = {
    scan,
    gate: c.gate,
    counts: knownCounts(scan, c.counts),
    ...(c.states ? { states: c.states } : {}),
  };
  if (failed) {
    const why = typeof scan.error === 'string' && scan.error ? `: ${scan.error}` : '';
    return {
      text,
      stepSummary,
      data,
      failure: { kind: 'scan-failed', message: `scan ${scan.scan_id} ${scan.status}${why}` },
    };
  }
  const counts = knownCounts(scan, c.counts);
  const parts = SEVERITIES.flatMap((s) => (counts[s] === undefined ? [] : [`${counts[s]} ${s}`]));
  const total = c.total !== undefined ? `${c.total} findings` : 'done';
  let line = `Scan ${scan.scan_id} ${scan.status}: ${total}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
  for (const more of c.more) line += `; ${more}`;
  if (c.gate && !c.gate.met) line += `; ${c.passed ?? `none at or above ${c.gate.threshold}`}`;
  if (r.elapsedMs >= 1000) line += `; waited ${formatWait(r.elapsedMs)}`;
  ctx.io.success(line);
  return {
    text,
    stepSummary,
    data,
    gate: c.gate && { gate: c.gate, subject: `scan ${scan.scan_id}`, what: c.what },
  };
}

/**
 * No ignore file and no baseline: the gate is counted from the service's totals, not from a read; a report
 * format reads the scan's findings (narrowed by --severity at the service).
 */
async function fromCounts(
  ctx: Context,
  client: ApiClient,
  r: ScanReport,
  report: string | undefined,
  about: ReportAbout,
): Promise<Reading> {
  const { scan } = r;
  // Counted before anything is written: a gate that cannot count is an error, with nothing printed.
  const gate =
    !r.failed && r.failOn
      ? await gateFromCounts(scan, r.failOn, (severity) => countFindings(ctx, client, scan.scan_id, severity))
      : undefined;
  const findings: FindingsOutput | undefined =
    report === undefined
      ? undefined
      : {
          kind: 'findings',
          source: scanFindings(ctx, client, scan.scan_id, r.severity ?? [], r.resume),
          options: {
            format: report,
            failOn: r.failOn,
            outputFile: r.outputFile,
            about: { ...about, verdict: () => verdictOf(gate) },
          },
        };
  return {
    findings,
    conclude: async () => {
      const total = trustedCount(scan.total_findings);
      return { gate, counts: gate?.counts ?? {}, total, more: [] };
    },
  };
}

/**
 * An ignore file (and no baseline), or reports that must hold what the gate decided on: the scan's findings are
 * read once, the ignored ones left out of the gate, and the gate, the counts and every report come from that read.
 */
function readOnce(
  ctx: Context,
  client: ApiClient,
  r: ScanReport,
  report: string | undefined,
  about: ReportAbout,
): Reading {
  const { scan } = r;
  const rules = r.ignore;
  const counted = new GateTally();
  const gateTally = new GateTally();
  const severities = r.severity && r.severity.length > 0 ? new Set<string>(r.severity) : undefined;
  const keep = anyKeepsIgnored(report, r.reports, r.showIgnored);
  let started = false;
  async function* stream(): AsyncGenerator<Finding> {
    started = true;
    const all = scanFindings(ctx, client, scan.scan_id, [], r.resume);
    const kept = rules ? applyIgnore(all, rules, { keep, show: r.showIgnored === true }) : all;
    for await (const f of kept) {
      if (f === null || typeof f !== 'object') continue;
      if (!ignoredOf(f)) counted.add(f);
      if (r.failOn && countsForGate(f, r.failOn)) gateTally.add(f);
      // --severity narrows the report, never the gate.
      if (severities && !severities.has(String(f.severity ?? '').toLowerCase())) continue;
      yield f;
    }
  }
  const source: ListSource<Finding> = {
    [Symbol.asyncIterator]: () => stream()[Symbol.asyncIterator](),
    resume: () => r.resume,
  };
  const findings: FindingsOutput | undefined =
    report !== undefined || r.reports?.length
      ? {
          kind: 'findings',
          source,
          options: {
            format: report,
            outputFile: report === undefined ? undefined : r.outputFile,
            reports: r.reports,
            failOn: r.failOn,
            showIgnored: r.showIgnored,
            about: { ...about, verdict: () => (r.failOn ? verdictOf(gateTally.gate(r.failOn)) : undefined) },
            ...(rules && r.showIgnored ? { columns: () => findingColumnsShowingIgnored } : {}),
          },
        }
      : undefined;
  return {
    findings,
    conclude: async () => {
      if (!started) for await (const f of source) void f;
      const total = SEVERITIES.reduce((a, s) => a + counted.counts[s], 0) + counted.other;
      return {
        gate: r.failOn ? gateTally.gate(r.failOn) : undefined,
        counts: counted.counts,
        total,
        more:
          rules && rules.ignored > 0
            ? [`${rules.ignored} ignored by ${rules.file.display} (--no-ignore to show them)`]
            : [],
        ignored: rules?.ignoredByRank,
      };
    },
  };
}

/**
 * --baseline: the report, the gate and the step summary are those of `findings diff --base <baseline> --head
 * <the scan>` (cli-contract.md §8). Stdout keeps the scan summary unless -o asks for a report.
 */
async function againstBaseline(
  ctx: Context,
  client: ApiClient,
  r: ScanReport,
  ref: Ref,
  report: string | undefined,
  about: ReportAbout,
): Promise<Reading> {
  const { scan } = r;
  const base = await loadBase(ctx, async () => client, ref, scan, '--baseline', r.resume);
  if (base.label === undefined)
    ctx.io.notice(
      `no earlier completed scan of connection ${scan.connection_alias ?? '?'}: a first run, every finding is new`,
    );
  const diff = diffReport(ctx, base.index, scanFindings(ctx, client, scan.scan_id, [], r.resume), {
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
      ...about,
      subject: `scan ${scan.scan_id} against ${base.label ?? 'no baseline (first run)'}`,
      fixSeen: scan.completed_at ?? scan.created_at,
    },
  });
  return {
    findings: diff.writes ? { kind: 'findings', source: diff.source, options: diff.options } : undefined,
    conclude: async () => {
      const result = await diff.conclude();
      const counted = result.headTally.counts;
      const gate = result.gate;
      return {
        gate,
        counts: counted,
        total: SEVERITIES.reduce((a, s) => a + counted[s], 0) + result.headTally.other,
        what: 'new or raised findings',
        more: [`against ${base.label ?? 'no baseline'}: ${result.counts.toString()}`],
        passed: gate && `none new or raised at or above ${gate.threshold}`,
        diff: {
          baseline: base.label,
          byRank: result.counts.byRank,
          gateCounts: gate?.counts,
          ignored: r.ignore?.ignoredByRank,
        },
        states: { ...result.counts.n },
      };
    },
  };
}
