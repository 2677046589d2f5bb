import type { Scan } from '../../api/findings-types.js';
import { getScan } from '../../api/findings.js';
import { isFailed, isFinal } from '../../api/scan-status.js';
import type { Context } from '../../core/context.js';
import { formatWait } from '../../core/durations.js';
import { CliError, DeadlineError, InterruptedError, UsageError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http/client.js';
import type { IO } from '../../core/io.js';
import { chooseFormat } from '../../core/output/index.js';
import { SCAN_REPORT_OFFER } from '../../report/registry.js';
import { scanReport } from '../../report/scan.js';
import type { Result } from '../../report/result.js';
import { openFileRefs, parseRef, type Ref } from '../../report/sources/refs.js';
import { loadIgnore } from '../../report/ignore/index.js';
import { checkDestinations } from '../../report/report-spec.js';
import type { IgnoreRules } from '../../report/ignore/stage.js';
import { shellQuote } from '../../core/resume.js';
import type { ArgsOf, OptionsOf } from '../shared/define.js';
import type { waitCommand as waitDefinition } from './wait.command.js';

/** What `scans wait` takes (wait.command.ts); `scans create` takes them too. */
export type WaitOptions = OptionsOf<typeof waitDefinition>;

/** What the report needs from files, read and checked before any request (exit 2 naming the file). */
export interface Prepared {
  baseline?: Ref;
  ignore?: IgnoreRules;
}

export async function prepareReport(ctx: Context, opts: WaitOptions): Promise<Prepared> {
  let baseline: Ref | undefined;
  if (opts.baseline !== undefined) {
    baseline = parseRef(opts.baseline, '--baseline');
    await openFileRefs(baseline);
  }
  const ignore = loadIgnore(ctx, opts);
  checkDestinations({ outputFile: opts.outputFile, reports: opts.report }, ctx.cwd);
  return { baseline, ignore };
}

export { isFinal, isFailed };

/** Statuses of a scan still on its way (the sandbox's queued and running, and the usual synonyms). */
const PENDING = new Set(['queued', 'pending', 'created', 'scheduled', 'running', 'in_progress', 'started']);

/**
 * Checks each answer of the poll (cli-contract.md §2): an answer about another scan is exit 1 naming it (never
 * gated on, never printed in the resume line); a status cssctl does not know is named in one warning, and
 * waited on until the deadline.
 */
export function pollChecks(io: Pick<IO, 'warn' | 'quotesService'>, id: string): (scan: Scan) => Scan {
  const warned = new Set<string>();
  return (scan) => {
    if (scan.scan_id !== id)
      throw new CliError(`the service answered about scan ${scan.scan_id} when asked for scan ${id}`, {
        neutral: `the service answered about another scan when asked for scan ${id}; the wait stopped`,
      });
    const status = scan.status.toLowerCase();
    if (!isFinal(status) && !PENDING.has(status) && !warned.has(status)) {
      warned.add(status);
      io.warn(
        io.quotesService
          ? `scan ${id} has the status "${scan.status}", which cssctl does not know; waiting until it is final or --wait-timeout passes`
          : `scan ${id} has a status cssctl does not know; waiting until it is final or the time-out passes`,
      );
    }
    return scan;
  };
}

export function scanIdArg(raw: string | undefined): string {
  const id = raw?.trim() ?? '';
  if (!id) throw new UsageError('a scan id is required');
  if (/[\s/?#]/.test(id) || id === '.' || id === '..') throw new UsageError(`invalid scan id "${raw}"`);
  return id;
}

/**
 * Polling: the first look after `base` ms, then 1.5× longer each time up to 7.5× base (2 s → 15 s by
 * default: at most a few requests a minute, far inside the 120/min of the workspace). CSSCTL_POLL_BASE_MS
 * scales it (tests).
 */
export function pollSchedule(env: NodeJS.ProcessEnv): { baseMs: number; maxMs: number } {
  const raw = Number(env.CSSCTL_POLL_BASE_MS);
  const baseMs = env.CSSCTL_POLL_BASE_MS && Number.isFinite(raw) && raw >= 0 ? raw : 2000;
  return { baseMs, maxMs: baseMs * 7.5 };
}

/**
 * `cssctl scans wait <id>` with the flags of the command that was running (`scans create --connection …
 * --wait` becomes `scans wait <id>`), so Ctrl-C or a timeout says exactly how to pick up the wait.
 */
export function waitCommand(argv: readonly string[], scanId: string): string {
  const out: string[] = [];
  let verbSeen = false;
  let idSeen = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!verbSeen && a === 'scans' && (argv[i + 1] === 'create' || argv[i + 1] === 'wait')) {
      verbSeen = true;
      i++;
      continue;
    }
    if (a === '--connection') {
      i++;
      continue;
    }
    if (a.startsWith('--connection=') || a === '--wait') continue;
    if (!idSeen && a === scanId) {
      idSeen = true;
      continue;
    }
    out.push(a);
  }
  return ['cssctl', 'scans', 'wait', scanId, ...out].map(shellQuote).join(' ');
}

/** How long the first look at a scan may take, however short --wait-timeout is. */
export const FIRST_LOOK_MS = 1000;

/**
 * Polls GET /scans/{id} until the status is final, backing off; a spinner with the status and elapsed time
 * on a terminal. Returns the final scan, or `final: false` when --wait-timeout passed first. The timeout is a
 * deadline for every request, retry and rate-limit wait of the poll (HttpRequest.deadline): one cut at it ends
 * the wait with `cut` saying why, and `scan` is the last answer (undefined when none came).
 */
export async function pollScan(
  ctx: Context,
  client: ApiClient,
  first: Scan | string,
  timeoutMs: number | undefined,
): Promise<{ scan?: Scan; final: boolean; elapsedMs: number; cut?: string }> {
  const { io, clock } = ctx;
  const id = typeof first === 'string' ? first : first.scan_id;
  const started = clock.now();
  const deadline = timeoutMs === undefined ? undefined : started + timeoutMs;
  const { baseMs, maxMs } = pollSchedule(ctx.env);
  let scan: Scan | undefined = typeof first === 'string' ? undefined : first;
  let status = scan?.status ?? 'unknown';
  // Where messages may not quote the service (the MCP server), a status cssctl does not know is not named.
  const shown = () =>
    io.quotesService
      ? status
      : scan === undefined
        ? 'asking the service'
        : isFinal(status.toLowerCase()) || PENDING.has(status.toLowerCase())
          ? status.toLowerCase()
          : 'a status cssctl does not know';
  const text = () => `Scan ${id}: ${shown()} (${formatWait(clock.now() - started)})`;
  const spinner = await io.spinner(text());
  const ticker = io.ticking ? setInterval(() => spinner.update(text()), 1000) : undefined;
  ticker?.unref();
  // Progress only on a terminal (cli-contract.md §3): elsewhere the wait is silent until its summary.
  const note = () => spinner.update(text());
  const left = () => (deadline ?? Infinity) - clock.now();
  const end = (final: boolean, cut?: string) => ({ scan, final, elapsedMs: clock.now() - started, cut });
  let interval = baseMs;
  const checked = pollChecks(io, id);
  try {
    if (scan) note();
    for (;;) {
      if (scan && isFinal(scan.status)) return end(true);
      if (scan) {
        if (left() <= 0) return end(false);
        await clock.sleep(Math.min(interval, left()), ctx.signal);
        interval = Math.min(interval * 1.5, maxMs);
        // A poll sent at the deadline would have no time left for its answer.
        if (left() <= 0) return end(false);
      }
      try {
        // The first look is given at least FIRST_LOOK_MS whatever the deadline: a scan that is final already
        // returns its result (`--wait-timeout 1e-9` on a completed scan is its report, not exit 9).
        const by =
          scan === undefined && deadline !== undefined
            ? Math.max(deadline, started + FIRST_LOOK_MS)
            : deadline;
        scan = checked(await getScan(client, id, by));
      } catch (err) {
        if (err instanceof DeadlineError) return end(false, err.message);
        throw err;
      }
      status = scan.status;
      note();
    }
  } catch (err) {
    if (err instanceof InterruptedError || ctx.signal.aborted)
      throw new InterruptedError(`interrupted; resume with: ${waitCommand(ctx.argv, id)}`);
    throw err;
  } finally {
    if (ticker) clearInterval(ticker);
    spinner.stop();
  }
}

/** Waits for a scan, then its report and the gate (the outcome: exit 9 failed or timed out, 10 --fail-on met). */
export async function waitAndReport(
  ctx: Context,
  client: ApiClient,
  first: Scan | string,
  opts: WaitOptions,
  format: string,
  prepared: Prepared = {},
): Promise<Result> {
  const timeoutMs = opts.waitTimeout === undefined ? undefined : opts.waitTimeout * 1000;
  const { scan, final, elapsedMs, cut } = await pollScan(ctx, client, first, timeoutMs);
  if (!final || !scan) {
    const id = typeof first === 'string' ? first : first.scan_id;
    const why = `--wait-timeout${cut ? `: ${cut}` : ''}`;
    const gate = opts.failOn ? { failOn: opts.failOn, met: false } : undefined;
    const known = scan ?? ({ scan_id: id, status: 'unknown' } as Scan);
    const message = `${scan ? `scan ${id} is still ${scan.status}` : `no answer about scan ${id}`} after ${formatWait(elapsedMs)} (${why}); resume with: ${waitCommand(ctx.argv, id)}`;
    return {
      finish: async () => ({
        stepSummary:
          opts.stepSummary === false ? undefined : { scan: known, gate, timedOut: true, waitedMs: elapsedMs },
        data: { scan: known, timed_out: true },
        failure: { kind: 'timed-out', message },
      }),
    };
  }
  return scanReport(ctx, client, {
    scan,
    failed: isFailed(scan.status),
    elapsedMs,
    format,
    resume: waitCommand(ctx.argv, scan.scan_id),
    ...opts,
    baseline: prepared.baseline,
    ignore: prepared.ignore,
    reports: opts.report,
  });
}

export async function wait(
  ctx: Context,
  opts: WaitOptions,
  [given]: ArgsOf<typeof waitDefinition>,
): Promise<Result> {
  const id = scanIdArg(given);
  const format = chooseFormat(await ctx.settings(), SCAN_REPORT_OFFER, 'scans wait');
  const prepared = await prepareReport(ctx, opts);
  const client = await ctx.api();
  return waitAndReport(ctx, client, id, opts, format, prepared);
}
