// The GitHub Action's main step (action.yml, cli-contract.md §12): the same logic as the CLI, in process. It logs
// in with the login verb, runs the verb of `scans create --wait` or `scans wait`, renders its result with the
// terminal's renderer (`-o github` annotations on stdout, every report file through the one exporter, the step
// summary), and reads the outcome — the gate as src/report/gate.ts decided it, the counts, the failure — for the
// step's outputs. Nothing here decides a gate or an exit code: outcomeError() and exitCodeFor() do, as for the CLI.
//
// The step fails (exit 1, and the CLI's one-line message as its `::error::`) on the gate (exit 10) and on every
// error. The session lives in a folder of the runner's temporary folder, named in GITHUB_STATE for the post step
// (post.ts), which removes it when the job ends.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SEVERITIES } from '../api/findings-types.js';
import { login } from '../commands/auth/login.js';
import { create } from '../commands/scans/create.js';
import { wait } from '../commands/scans/wait.js';
import { CliError, ExitCode, exitCodeFor } from '../core/errors.js';
import type { Gate, SeverityCounts } from '../report/gate.js';
import type { Outcome } from '../report/result.js';
import { formatCommand } from '../report/formats/github.js';
import { errorLine } from '../core/error-line.js';
import { outcomeError, render } from '../cli/render.js';
import { VERSION } from '../version.js';
import { actionContext, ActionIO, SESSION_PREFIX, SESSION_STATE, type StepWorld } from './context.js';

export type { StepWorld } from './context.js';
import {
  commandLine,
  equivalentArgv,
  passwordInput,
  readInputs,
  REPORT_INPUTS,
  type ActionInputs,
} from './inputs.js';
import { Annotations } from './annotations.js';
import { commentError, keepComment, pullRequestOf, type CommentFacts } from './comment.js';
import { prepareReportFolders, removeEmpty } from './paths.js';
import { appendFileCommand, readInput } from './runner.js';

/** What the step came to: the CLI's exit code, and the outputs. */
export interface StepResult {
  exitCode: number;
  outputs: Record<string, string>;
}

/**
 * The main step. Resolves to 0 (the step succeeded) or 1 (it failed: the gate was met, or an error); it never
 * throws and never exits the process (the entry does, so a keep-alive socket cannot hold the step open).
 */
export async function runMain(world: StepWorld): Promise<number> {
  const { env } = world;
  const io = new ActionIO(world);
  // Before anything else runs: nothing the step prints may show the password (or the token), whatever fails next.
  io.mask(passwordInput(env));
  io.mask(readInput(env, 'github-token'));
  const signal = world.signal ?? new AbortController().signal;
  const warn = (message: string) => io.out(`${formatCommand('warning', message)}\n`);
  let result: StepResult;
  let sessionDir: string | undefined;
  let made: string[] = [];
  let inputs: ActionInputs | undefined;
  let comment: CommentFacts | undefined;
  const annotations = new Annotations();
  try {
    inputs = readInputs(env);
    made = prepareReportFolders(
      inputs.reports.map((r) => ({
        ...r,
        input: (inputs!.args.extra.report ?? []).includes(r) ? 'args' : r.format,
      })),
      env,
    );
    sessionDir = newSessionDir(env);
    const argv = equivalentArgv(inputs);
    io.notice(`cssctl ${VERSION}: ${commandLine(argv)}`);
    const make = (output: string) =>
      actionContext({ world, io, signal, inputs: inputs!, sessionDir: sessionDir!, output, argv });

    let created: unknown;
    let outcome: Outcome = {};
    let failure: unknown;
    let rendered = false;
    try {
      const loginCtx = make('table');
      await render(loginCtx, await login(loginCtx, { email: inputs.email }));

      const ctx = make('github');
      const { extra } = inputs.args;
      const opts = {
        failOn: inputs.failOn,
        waitTimeout: inputs.waitTimeout,
        baseline: inputs.baseline,
        ignoreFile: inputs.ignoreFile,
        ignore: extra.ignore,
        showIgnored: extra.showIgnored,
        severity: extra.severity,
        stepSummary: extra.stepSummary,
        report: inputs.reports.length > 0 ? inputs.reports : undefined,
      };
      const before = reportStats(inputs);
      try {
        const verb =
          inputs.connection !== undefined
            ? await create(ctx, {
                ...opts,
                connection: inputs.connection,
                wait: true,
                onCreated: (scan) => (created = scan.scan_id),
              })
            : await wait(ctx, opts, [inputs.scanId!]);
        outcome = await render(ctx, annotations.take(verb));
        rendered = true;
        failure = outcomeError(outcome);
      } catch (err) {
        failure = err;
      }
      result = {
        exitCode: failure === undefined ? ExitCode.ok : exitCodeFor(failure),
        outputs: outputsOf(outcome, inputs, before, warn, created),
      };
    } catch (err) {
      // The login failed: no scan.
      failure = err;
      result = { exitCode: exitCodeFor(err), outputs: {} };
    }
    // Annotations once the findings are read and the scan did not fail (a failed scan's findings are no result).
    if (rendered && outcome.failure === undefined)
      io.out(
        annotations.lines(
          inputs.reports.map((r) => r.path),
          inputs.args.extra.stepSummary !== false && Boolean(env.GITHUB_STEP_SUMMARY),
        ),
      );
    if (failure !== undefined) fail(io, failure);
    if (inputs.prComment && result.exitCode !== ExitCode.interrupted)
      comment = commentFacts(inputs, outcome, failure, result.outputs, annotations);
  } catch (err) {
    result = { exitCode: exitCodeFor(err), outputs: {} };
    fail(io, err);
  }
  if (comment && inputs?.prComment)
    await writeComment(io, env, inputs.prComment.token, comment, signal, warn);
  const unwritten = await io.finishOutput();
  // Without a runner to run the post step (no GITHUB_STATE), the session is removed now.
  if (sessionDir && !env.GITHUB_STATE) rmSync(sessionDir, { recursive: true, force: true });
  // Folders made for reports that were not written (a failed scan) do not stay behind.
  removeEmpty(made);
  try {
    appendFileCommand(env, 'OUTPUT', {
      ...emptyOutputs(),
      ...result.outputs,
      'exit-code': String(result.exitCode),
    });
  } catch (err) {
    world.stderr.write(
      `${formatCommand('error', `could not write the step's outputs to ${env.GITHUB_OUTPUT} (GITHUB_OUTPUT): ${fileError(err)}`)}\n`,
    );
    return 1;
  }
  // stdout could not be written (the annotations are incomplete): never a success; said where it can be read.
  if (unwritten && result.exitCode === ExitCode.ok) {
    world.stderr.write(`${formatCommand('error', oneLine(unwritten))}\n`);
    return 1;
  }
  return result.exitCode === ExitCode.ok ? 0 : 1;
}

/** A file error in a few words: its code (EISDIR, EACCES…), never a stack. */
function fileError(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? oneLine(err);
}

/** What the pull-request comment says, from the step's outcome. */
function commentFacts(
  inputs: ActionInputs,
  outcome: Outcome,
  failure: unknown,
  outputs: Record<string, string>,
  annotations: Annotations,
): CommentFacts {
  const data = (outcome.data ?? {}) as { states?: CommentFacts['states'] };
  const counts: CommentFacts['counts'] = {};
  for (const s of SEVERITIES) if (outputs[s]) counts[s] = Number(outputs[s]);
  let verdict: CommentFacts['verdict'];
  if (outcome.failure?.kind === 'timed-out')
    verdict = { icon: '⏱️', text: `The wait timed out: ${outcome.failure.message}` };
  else if (outcome.failure) verdict = { icon: '⚠️', text: `The scan failed: ${outcome.failure.message}` };
  else if (outcome.gate?.gate.met) verdict = { icon: '❌', text: `Gate failed: ${oneLine(failure)}` };
  else if (failure !== undefined)
    verdict = { icon: '⚠️', text: `cssctl could not scan: ${oneLine(failure)}` };
  else if (outcome.gate)
    verdict = {
      icon: '✅',
      text: `Gate passed: no ${inputs.baseline !== undefined ? 'new or raised ' : ''}findings at or above ${outcome.gate.gate.threshold}`,
    };
  else verdict = { icon: 'ℹ️', text: 'Scan completed (no fail-on gate)' };
  return {
    key: inputs.connection ?? inputs.scanId!,
    scanId: outputs['scan-id'] || undefined,
    connection: inputs.connection,
    verdict,
    counts,
    states: outcome.failure ? undefined : data.states,
    findings: outcome.failure ? [] : annotations.mostSevere(),
    shown: annotations.shown,
    version: VERSION,
  };
}

/** Creates or edits the pull request's comment; anything that stops it is a warning, never the step's failure. */
async function writeComment(
  io: ActionIO,
  env: NodeJS.ProcessEnv,
  token: string,
  facts: CommentFacts,
  signal: AbortSignal,
  warn: (message: string) => void,
): Promise<void> {
  const pr = pullRequestOf(env);
  if (typeof pr === 'string') {
    io.notice(`cssctl: no pull request comment: ${pr}`);
    return;
  }
  try {
    const done = await keepComment(pr, token, facts, signal, env);
    io.notice(
      `cssctl: ${done.action} the comment on pull request #${pr.number}${done.url ? ` (${done.url})` : ''}`,
    );
  } catch (err) {
    warn(`cssctl: could not write the comment on pull request #${pr.number}: ${commentError(err)}`);
  }
}

/**
 * A folder of its own for the session, in the runner's temporary folder (emptied by the runner after each job),
 * named in GITHUB_STATE before anything is put in it, so the post step removes it whatever happens next.
 */
function newSessionDir(env: NodeJS.ProcessEnv): string {
  const parent = env.RUNNER_TEMP || tmpdir();
  let dir: string;
  try {
    dir = mkdtempSync(join(parent, SESSION_PREFIX));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError(`could not make a folder for the session in ${parent} (RUNNER_TEMP): ${why}`);
  }
  try {
    appendFileCommand(env, 'STATE', { [SESSION_STATE]: dir });
  } catch (err) {
    // No post step would find it: it goes now, and the step stops before any request.
    rmSync(dir, { recursive: true, force: true });
    throw new CliError(
      `could not write the runner's state file ${env.GITHUB_STATE} (GITHUB_STATE): ${fileError(err)}`,
    );
  }
  // The runner gives the post step, in its own process, the state as STATE_<name>. A program that runs both
  // steps in one process (GitHub's @github/local-action) passes nothing on: set here, the post step finds it.
  env[`STATE_${SESSION_STATE}`] = dir;
  return dir;
}

/** The step's error: the CLI's one line (`error: ` left out: an `::error::` says so), in the log as an annotation. */
function fail(io: ActionIO, err: unknown): void {
  io.out(`${formatCommand('error', oneLine(err))}\n`);
}

function oneLine(err: unknown): string {
  return errorLine(err, ActionIO.noColor).replace(/^error: /, '');
}

/** Every output, empty: a step that fails early still sets each one (`steps.<id>.outputs.gate` is `none`). */
function emptyOutputs(): Record<string, string> {
  return {
    'scan-id': '',
    gate: 'none',
    ...Object.fromEntries(SEVERITIES.map((s) => [s, ''])),
    ...Object.fromEntries(REPORT_INPUTS.map((f) => [f, ''])),
  };
}

type FileStamp = { ino: number; mtimeMs: number } | undefined;

/** Each report file as it is before the run: a path it names afterwards is a report only if it was written. */
function reportStats(inputs: ActionInputs): Map<string, FileStamp> {
  const stamps = new Map<string, FileStamp>();
  for (const r of inputs.reports) stamps.set(r.format, stampOf(r.path));
  return stamps;
}

function stampOf(path: string): FileStamp {
  try {
    const st = statSync(resolve(path));
    return st.isFile() ? { ino: st.ino, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** An id the step may set as an output: what a later `run:` may put in a command line without harm. */
export const OUTPUT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A value from the service, quoted and cut short for a warning (the warning's own escaping does the rest). */
function shown(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/**
 * The outputs, read from the outcome the verb came to (its `data`: the scan, the gate, the counts). Every value
 * that comes from the service is checked first — an id is OUTPUT_ID, a count a whole number — and one that is not
 * is left empty, with a warning: an output ends up in later steps' command lines (`${{ steps.scan.outputs.scan-id }}`).
 */
function outputsOf(
  outcome: Outcome,
  inputs: ActionInputs,
  before: Map<string, FileStamp>,
  warn: (message: string) => void,
  created?: unknown,
): Record<string, string> {
  const data = (outcome.data ?? {}) as { scan?: { scan_id?: unknown }; gate?: Gate; counts?: SeverityCounts };
  const out: Record<string, string> = {};
  // The scan as the outcome has it, else as it was created (a wait cancelled before the outcome).
  const id = data.scan?.scan_id ?? created ?? inputs.scanId;
  if (id !== undefined) {
    if (typeof id === 'string' && OUTPUT_ID.test(id)) out['scan-id'] = id;
    else
      warn(
        `cssctl: the scan id ${shown(id)} is not an id (${OUTPUT_ID.source}): the scan-id output is left empty`,
      );
  }
  // The gate's verdict, as decided once (outcome.gate); none without fail-on, or when the scan failed or the
  // wait timed out before it could be decided.
  out.gate = outcome.gate ? (outcome.gate.gate.met ? 'failed' : 'passed') : 'none';
  for (const s of SEVERITIES) {
    const n: unknown = data.counts?.[s];
    if (n === undefined) out[s] = '';
    else if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) out[s] = String(n);
    else {
      out[s] = '';
      warn(`cssctl: the ${s} count ${shown(n)} is not a whole number: the ${s} output is left empty`);
    }
  }
  // A report's path once this run wrote it (an atomic write makes a new file); '' when it did not (a failed scan).
  for (const r of inputs.reports) {
    if (!(REPORT_INPUTS as readonly string[]).includes(r.format)) continue;
    if ((inputs.args.extra.report ?? []).includes(r)) continue;
    const now = stampOf(r.path);
    const was = before.get(r.format);
    const written =
      now !== undefined && (was === undefined || now.ino !== was.ino || now.mtimeMs !== was.mtimeMs);
    out[r.format] = written ? r.path : '';
  }
  return out;
}
