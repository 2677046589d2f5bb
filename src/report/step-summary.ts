// The GitHub Actions step summary of `scans wait` and `scans create --wait` (cli-contract.md §3): when
// GITHUB_STEP_SUMMARY names a file, a Markdown section is appended to it — scan id, connection, final status,
// duration, finding counts by severity and the --fail-on verdict. `--no-step-summary` turns it off.
//
// The file is shared by every step of the job: it is opened in append mode (O_APPEND) and written in one call,
// so what earlier steps wrote is never truncated or overwritten. Only a regular file is appended to: a FIFO, a
// folder or a device is a warning, and the file is opened with O_NONBLOCK so that a FIFO swapped in at the
// last moment can never block the process (a blocked open in libuv's thread pool would also keep Ctrl-C from
// ending it). Failing to write it is a warning, never the command's failure: the scan result and the gate's
// exit code matter more than the summary.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { SEVERITIES, type Scan, type Severity } from '../api/findings-types.js';
import { gateSeverities, knownCounts } from './gate.js';
import { markdownText, neutraliseControls } from './text.js';

export interface StepSummary {
  scan: Scan;
  /**
   * Counts by severity as the gate counted them; they take precedence over the scan record's `<severity>_count`
   * fields, which fill in the rest only where they are counts that can be true.
   */
  counts?: Partial<Record<Severity, number>>;
  /** The gate: absent when no --fail-on was given. `met` means findings at or above `failOn` exist (exit 10). */
  gate?: { failOn: Severity; met: boolean };
  /**
   * With --baseline: what the scan was compared with (undefined on a first run, when there was nothing), the
   * counts by state for each severity rank (0 critical … 4 info), the ignored findings per rank, and the gate's
   * own counts (new and raised findings only).
   */
  /** With an ignore file: the findings it accepted, by severity rank (0 critical … 4 info). */
  ignored?: number[];
  /** Warnings to show under the table (expired ignore entries). */
  warnings?: string[];
  diff?: {
    baseline?: string;
    byRank: Record<'new' | 'updated' | 'unchanged' | 'fixed', number>[];
    ignored?: number[];
    gateCounts?: Partial<Record<Severity, number>>;
  };
  /** The scan ended failed (exit 9); by default when its status is `failed`. */
  failed?: boolean;
  /** The wait ended because --wait-timeout passed, before the scan did (exit 9). */
  timedOut?: boolean;
  /** How long cssctl waited: shown as the duration when the scan's timestamps do not give one. */
  waitedMs?: number;
}

/** Service text in a Markdown table cell or heading: one line, no control characters, no Markdown. */
export function cell(v: unknown): string {
  const s = v === undefined || v === null || v === '' ? '—' : String(v);
  return markdownText(neutraliseControls(s).replace(/\s*[\r\n]+\s*/g, ' '));
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

function scanDurationMs(scan: Scan): number | undefined {
  const start = Date.parse(String(scan.started_at ?? scan.created_at ?? ''));
  const end = Date.parse(String(scan.completed_at ?? ''));
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? end - start : undefined;
}

function countsOf(s: StepSummary): Partial<Record<Severity, number>> {
  return knownCounts(s.scan, s.counts);
}

function verdict(s: StepSummary, counts: Partial<Record<Severity, number>>): string {
  if (s.gate === undefined) return 'none (no `--fail-on`)';
  const flag = `\`--fail-on ${s.gate.failOn}\``;
  if (s.timedOut) return `${flag} not decided: the wait timed out (exit 9)`;
  if (s.failed ?? String(s.scan.status).toLowerCase() === 'failed')
    return `${flag} not decided: the scan failed (exit 9)`;
  const atOrAbove = gateSeverities(s.gate.failOn);
  const gateCounts = s.diff ? (s.diff.gateCounts ?? {}) : counts;
  const known = atOrAbove.every((sev) => gateCounts[sev] !== undefined);
  const n = known ? atOrAbove.reduce((a, sev) => a + (gateCounts[sev] ?? 0), 0) : undefined;
  const noun = s.diff ? 'new or raised finding' : 'finding';
  if (s.gate.met) {
    const what = n === undefined ? `${noun}s` : `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
    return `❌ ${flag} met: ${what} at or above ${s.gate.failOn} (exit 10)`;
  }
  return `✅ ${flag} passed: no ${noun}s at or above ${s.gate.failOn}`;
}

/** The Markdown section, starting with a blank line so it never runs into what the previous step wrote. */
export function renderStepSummary(s: StepSummary): string {
  const counts = countsOf(s);
  const scanMs = scanDurationMs(s.scan);
  const duration =
    scanMs !== undefined
      ? formatDuration(scanMs)
      : s.waitedMs !== undefined
        ? `${formatDuration(s.waitedMs)} (waited)`
        : '—';
  const status = s.timedOut ? `${cell(s.scan.status)} (the wait timed out)` : cell(s.scan.status);
  const lines = [
    '',
    `### cssctl scan ${cell(s.scan.scan_id)}`,
    '',
    '| | |',
    '|---|---|',
    `| Scan | ${cell(s.scan.scan_id)} |`,
    `| Connection | ${cell(s.scan.connection_alias)} |`,
    `| Status | ${status} |`,
    ...(s.scan.error ? [`| Error | ${cell(s.scan.error)} |`] : []),
    `| Duration | ${duration} |`,
    ...(s.diff
      ? [
          `| Baseline | ${s.diff.baseline === undefined ? 'none (a first run): every finding is new' : cell(s.diff.baseline)} |`,
        ]
      : []),
    `| Gate | ${verdict(s, counts)} |`,
    '',
  ];
  const fmt = (n: number | undefined) => n?.toLocaleString('en-US') ?? '—';
  if (s.diff) {
    const { byRank, ignored } = s.diff;
    lines.push('| Severity | Findings | New | Updated | Fixed | Ignored |', '|---|---:|---:|---:|---:|---:|');
    SEVERITIES.forEach((sev, r) => {
      const c = byRank[r]!;
      lines.push(
        `| ${sev} | ${fmt(c.new + c.updated + c.unchanged)} | ${fmt(c.new)} | ${fmt(c.updated)} | ${fmt(c.fixed)} | ${fmt(ignored?.[r] ?? 0)} |`,
      );
    });
    return `${[...lines, ...warningLines(s)].join('\n')}\n`;
  }
  const ig = s.ignored;
  lines.push(
    ig ? '| Severity | Findings | Ignored |' : '| Severity | Findings |',
    ig ? '|---|---:|---:|' : '|---|---:|',
    ...SEVERITIES.map((sev, r) => `| ${sev} | ${fmt(counts[sev])} |${ig ? ` ${fmt(ig[r] ?? 0)} |` : ''}`),
  );
  const total = knownTotal(s.scan);
  // The scan's total counts every finding; with an ignore file the Findings column leaves the accepted ones
  // out, so its total does too, and the Ignored column gets its own (a row as wide as the table).
  const igTotal = ig?.reduce((a, n) => a + n, 0) ?? 0;
  if (total !== undefined && ig && total >= igTotal)
    lines.push(`| **total** | **${fmt(total - igTotal)}** | **${fmt(igTotal)}** |`);
  else if (total !== undefined && !ig) lines.push(`| **total** | **${fmt(total)}** |`);
  return `${[...lines, ...warningLines(s)].join('\n')}\n`;
}

function warningLines(s: StepSummary): string[] {
  if (!s.warnings?.length) return [];
  return ['', ...s.warnings.map((w) => `- ⚠️ ${cell(w)}`)];
}

function knownTotal(scan: Scan): number | undefined {
  const t = scan.total_findings;
  return typeof t === 'number' && Number.isSafeInteger(t) && t >= 0 ? t : undefined;
}

/**
 * Appends the summary to `path` (O_APPEND, one write) when it is a regular file. Returns whether it was
 * written; anything else — a FIFO, a folder, a device, an error — is reported through `warn`, never thrown.
 */
export async function appendStepSummary(
  path: string,
  summary: StepSummary,
  warn: (message: string) => void = () => {},
): Promise<boolean> {
  return appendMarkdown(path, renderStepSummary(summary), warn);
}

/**
 * Appends a Markdown section to `path` (O_APPEND, one write) when it is a regular file: the scan's summary, or
 * another command's (`cssctl compliance`). Returns whether it was written; anything else is a warning.
 */
export async function appendMarkdown(
  path: string,
  markdown: string,
  warn: (message: string) => void = () => {},
): Promise<boolean> {
  const where = `${neutraliseControls(path)} ($GITHUB_STEP_SUMMARY)`;
  const notFile = (what: string) => {
    warn(`did not append the step summary to ${where}: it is ${what}, not a regular file`);
    return false;
  };
  try {
    // Looked at before opening (a FIFO is never opened), and again on the open file (it may have been swapped).
    const before = await stat(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined; // created by the append, as GitHub's runner expects
      throw err;
    });
    if (before && !before.isFile()) return notFile(kindOf(before));
    const fh = await open(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK,
      0o644,
    );
    try {
      const st = await fh.stat();
      if (!st.isFile()) return notFile(kindOf(st));
      await fh.appendFile(markdown, 'utf8');
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    warn(`could not append the step summary to ${where}: ${reason}`);
    return false;
  }
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/** Where to write the step summary: $GITHUB_STEP_SUMMARY when set, unless `--no-step-summary` was given. */
export function stepSummaryPath(env: NodeJS.ProcessEnv, opts: { stepSummary?: boolean }): string | undefined {
  if (opts.stepSummary === false) return undefined;
  const p = env.GITHUB_STEP_SUMMARY;
  return p === undefined || p.trim() === '' ? undefined : p;
}

/**
 * The one call `scans wait` and `scans create --wait` make once the wait has ended (completed, failed or timed
 * out), before they exit with the gate's code: `await writeStepSummary(ctx, opts, { scan, gate, ... })`.
 * `opts.stepSummary` is commander's value for `--no-step-summary`.
 */
export async function writeStepSummary(
  ctx: { env: NodeJS.ProcessEnv; io: { warn(message: string): void } },
  opts: { stepSummary?: boolean },
  summary: StepSummary,
): Promise<void> {
  const path = stepSummaryPath(ctx.env, opts);
  if (path !== undefined) await appendStepSummary(path, summary, (m) => ctx.io.warn(m));
}
