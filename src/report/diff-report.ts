// The report of a comparison (cli-contract.md §8), for `findings diff` and `--baseline`: the base is held, the
// head streamed through it; one tally feeds the gate and the counts; --state and --severity narrow only what
// is shown; the exporter writes it in any format.
import type { Finding, Severity } from '../api/findings-types.js';
import type { Context } from '../core/context.js';
import type { Column, ReportAbout } from '../core/format.js';
import type { ListSource } from '../core/output/index.js';
import { findingColumns as baseFindingColumns, ignoredColumn } from './columns.js';
import { BaseIndex, DIFF, DiffCounts, compare, diffOf, type DiffFinding, type DiffState } from './diff.js';
import type { ExportOptions, ReportSpec } from './exporter.js';
import { anyKeepsIgnored } from './ignore/index.js';
import { markIgnored, type IgnoreRules } from './ignore/stage.js';
import { GateTally, countsForGate, verdictOf, type Gate } from './gate.js';
import { rankOf } from './severity.js';

export interface DiffReportOptions {
  /** Undefined: nothing is written (the comparison still decides the gate and the counts). */
  format?: string;
  failOn?: Severity;
  /** Only these states are shown (all by default). */
  states?: readonly DiffState[];
  /** Only these severities are shown (never the gate). */
  severities?: readonly Severity[];
  /** The command that redoes the report after an interruption. */
  resume?: string;
  /** Counts line on stderr (`3 new, 1 updated, 5 fixed, 120 unchanged`). */
  countsLine?: boolean;
  /** The ignore file's rules, when one applies. */
  ignore?: IgnoreRules;
  /** --output-file and --report (cli-contract.md §9). */
  outputFile?: string;
  reports?: readonly ReportSpec[];
  showIgnored?: boolean;
  /** What is compared, for a report's header (html). */
  about?: ReportAbout;
}

export interface DiffResult {
  counts: DiffCounts;
  /** By severity, the head's findings that count (new, updated, unchanged); for the step summary. */
  headTally: GateTally;
  gate?: Gate;
}

const STATE_ORDER: Record<DiffState, number> = { new: 0, updated: 1, fixed: 2, unchanged: 3 };

/**
 * Table: the STATE column first; csv: state and fingerprint first (cli-contract.md §8). With --show-ignored, an
 * IGNORED column as `findings list` has it (the diff shows every fingerprint already).
 */
export function diffColumns(format: string, showIgnored = false): Column<Finding>[] {
  const ignored = showIgnored ? [ignoredColumn] : [];
  // A fixed finding is shown with the base's data, whose status (`open`) no longer describes it: a table
  // shows — there (STATE says fixed); csv and json keep the base's data as it was.
  const findingColumns = baseFindingColumns.map((c) =>
    c.header === 'STATUS'
      ? { ...c, tableValue: (f: Finding) => (diffOf(f)?.state === 'fixed' ? '—' : f.status) }
      : c,
  );
  const state: Column<Finding> = {
    header: 'STATE',
    field: 'state',
    value: (f) => diffOf(f)?.state,
    style: (t, f, color) =>
      diffOf(f)?.state === 'new' ? color.bold(t) : diffOf(f)?.state === 'fixed' ? color.green(t) : t,
  };
  const previous: Column<Finding> = {
    header: 'PREVIOUS',
    field: 'previous_severity',
    value: (f) => diffOf(f)?.previous_severity,
    optional: true,
  };
  if (format === 'csv')
    return [
      state,
      { header: 'FINGERPRINT', field: 'fingerprint', value: (f) => diffOf(f)?.fingerprint },
      ...findingColumns,
      previous,
      ...ignored,
    ];
  return [
    state,
    ...findingColumns.slice(0, 1),
    previous,
    ...findingColumns.slice(1),
    ...ignored,
    {
      header: 'FINGERPRINT',
      field: 'fingerprint',
      value: (f) => diffOf(f)?.fingerprint?.slice(0, 12),
      style: (t, _f, color) => color.dim(t),
    },
  ];
}

/** A table lists new, updated, fixed, unchanged, most severe first within each: it is sorted whole. */
function sortedForTable(source: AsyncIterable<DiffFinding>): ListSource<Finding> {
  return {
    async *[Symbol.asyncIterator]() {
      const all: DiffFinding[] = [];
      for await (const f of source) all.push(f);
      all.sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || rankOf(a) - rankOf(b));
      yield* all;
    },
  };
}

/** A comparison ready to be written: what is shown, how, and what it came to once it was read. */
export interface DiffReport {
  /** The compared findings that are shown (--state and --severity narrow it; the gate sees all). */
  source: ListSource<Finding>;
  /** For the exporter (undefined format: nothing on stdout, only --report files). */
  options: ExportOptions;
  /** Whether anything is to be written (stdout or a --report). */
  writes: boolean;
  /** Reads what no writer read (the gate and the counts need every finding), then the comparison's result. */
  conclude(): Promise<DiffResult>;
}

/**
 * The report of a comparison: the base held, the head streamed through it (cli-contract.md §8); one tally for the
 * gate, one for the counts; the ignore file's accepted risks never count. Nothing is written here: the front end
 * writes `source` with `options` (src/report/exporter.ts) and then asks `conclude()`.
 */
export function diffReport(
  ctx: Pick<Context, 'io'>,
  base: BaseIndex,
  head: AsyncIterable<Finding>,
  opts: DiffReportOptions,
): DiffReport {
  const counts = new DiffCounts();
  const gateTally = new GateTally();
  const headTally = new GateTally();
  const states = opts.states && opts.states.length > 0 ? new Set(opts.states) : undefined;
  const severities = opts.severities && opts.severities.length > 0 ? new Set(opts.severities) : undefined;
  const failOn = opts.failOn;
  const rules = opts.ignore;
  const keep = anyKeepsIgnored(opts.format, opts.reports, opts.showIgnored);
  let started = false;
  let finished = false;
  async function* stream(): AsyncGenerator<DiffFinding> {
    started = true;
    for await (let f of compare(base, head, { warn: (m) => ctx.io.warn(m) })) {
      const info = diffOf(f)!;
      // A finding the head no longer has: an entry naming it was about a connection this read covered.
      if (rules && info.state === 'fixed') rules.gone(f, info.fingerprint);
      if (rules && info.state !== 'fixed') {
        // An accepted risk never counts for the gate nor the states; it is shown only where the format keeps it.
        const r = rules.check(f);
        if (r.info) {
          if (keep) yield markIgnored(f, r.info, opts.showIgnored === true) as DiffFinding;
          continue;
        }
        if (r.expired && info.state === 'new') {
          info.why = 'ignore-expired';
          f = { ...f, why: 'ignore-expired' } as DiffFinding;
          Object.defineProperty(f, DIFF, { value: info, enumerable: false });
        }
      }
      counts.add(info, f);
      if (info.state !== 'fixed') headTally.add(f);
      if (failOn && countsForGate(f, failOn)) gateTally.add(f);
      if (states && !states.has(info.state)) continue;
      if (severities && !severities.has(rankName(f))) continue;
      yield f;
    }
    finished = true;
  }
  const shown: ListSource<Finding> =
    // A table (on stdout or in a --report) is sorted; every report of the run then has that order.
    opts.format === 'table' || opts.reports?.some((r) => r.format === 'table')
      ? sortedForTable(stream())
      : { [Symbol.asyncIterator]: () => stream()[Symbol.asyncIterator]() };
  if (opts.resume) {
    const resume = opts.resume;
    shown.resume = () => resume;
  }
  const writes = opts.format !== undefined || (opts.reports?.length ?? 0) > 0;
  return {
    source: shown,
    writes,
    options: {
      format: opts.format,
      outputFile: opts.outputFile,
      reports: opts.reports,
      failOn,
      showIgnored: opts.showIgnored,
      // Ignored rows are kept only with --show-ignored (junit keeps them as skipped test cases, without columns).
      columns: (format) => diffColumns(format, rules !== undefined && opts.showIgnored === true),
      about: { ...opts.about, verdict: () => (failOn ? verdictOf(gateTally.gate(failOn)) : undefined) },
    },
    async conclude() {
      // The gate and the counts only (a scan report whose stdout is the scan summary): read it all here.
      if (!started) for await (const f of shown) void f;
      else if (!finished) throw new Error('the comparison was not read to its end');
      // -o github says it in its own ::notice.
      if (opts.countsLine !== false && opts.format !== 'github' && opts.format !== undefined)
        ctx.io.notice(counts.toString());
      return { counts, headTally, gate: failOn ? gateTally.gate(failOn) : undefined };
    },
  };
}

function rankName(f: Finding): Severity {
  return String(f.severity ?? '').toLowerCase() as Severity;
}
