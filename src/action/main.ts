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
import { commandLine, equivalentArgv, passwordInput, readInputs, type ActionInputs } from './inputs.js';
import { appendFileCommand } from './runner.js';

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
  // Before anything else runs: nothing the step prints may show the password, whatever fails next.
  io.mask(passwordInput(env));
  const signal = world.signal ?? new AbortController().signal;
  let result: StepResult;
  let sessionDir: string | undefined;
  try {
    const inputs = readInputs(env);
    sessionDir = newSessionDir(env);
    const argv = equivalentArgv(inputs);
    io.notice(`cssctl ${VERSION}: ${commandLine(argv)}`);
    const make = (output: string) =>
      actionContext({ world, io, signal, inputs, sessionDir: sessionDir!, output, argv });

    const loginCtx = make('table');
    await render(loginCtx, await login(loginCtx, { email: inputs.email }));

    const ctx = make('github');
    const opts = {
      failOn: inputs.failOn,
      waitTimeout: inputs.waitTimeout,
      baseline: inputs.baseline,
      report: inputs.reports.length > 0 ? inputs.reports : undefined,
    };
    const before = reportStats(inputs);
    let outcome: Outcome = {};
    let failure: unknown;
    try {
      const verb =
        inputs.connection !== undefined
          ? await create(ctx, { ...opts, connection: inputs.connection, wait: true })
          : await wait(ctx, opts, [inputs.scanId!]);
      outcome = await render(ctx, verb);
      failure = outcomeError(outcome);
    } catch (err) {
      failure = err;
    }
    result = {
      exitCode: failure === undefined ? ExitCode.ok : exitCodeFor(failure),
      outputs: outputsOf(outcome, inputs, before),
    };
    if (failure !== undefined) fail(io, failure);
  } catch (err) {
    result = { exitCode: exitCodeFor(err), outputs: {} };
    fail(io, err);
  }
  const unwritten = await io.finishOutput();
  // Without a runner to run the post step (no GITHUB_STATE), the session is removed now.
  if (sessionDir && !env.GITHUB_STATE) rmSync(sessionDir, { recursive: true, force: true });
  try {
    appendFileCommand(env, 'OUTPUT', {
      ...emptyOutputs(),
      ...result.outputs,
      'exit-code': String(result.exitCode),
    });
  } catch (err) {
    world.stderr.write(
      `${formatCommand('error', `could not write the step's outputs: ${(err as Error).message}`)}\n`,
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
  appendFileCommand(env, 'STATE', { [SESSION_STATE]: dir });
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
    sarif: '',
    junit: '',
    html: '',
    ocsf: '',
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

/** The outputs, read from the outcome the verb came to (its `data`: the scan, the gate, the counts). */
function outputsOf(
  outcome: Outcome,
  inputs: ActionInputs,
  before: Map<string, FileStamp>,
): Record<string, string> {
  const data = (outcome.data ?? {}) as { scan?: { scan_id?: unknown }; gate?: Gate; counts?: SeverityCounts };
  const out: Record<string, string> = {};
  const id = data.scan?.scan_id;
  if (typeof id === 'string') out['scan-id'] = id;
  // The gate's verdict, as decided once (outcome.gate); none without fail-on, or when the scan failed or the
  // wait timed out before it could be decided.
  out.gate = outcome.gate ? (outcome.gate.gate.met ? 'failed' : 'passed') : 'none';
  for (const s of SEVERITIES) {
    const n = data.counts?.[s];
    out[s] = n === undefined ? '' : String(n);
  }
  // A report's path once this run wrote it (an atomic write makes a new file); '' when it did not (a failed scan).
  for (const r of inputs.reports) {
    const now = stampOf(r.path);
    const was = before.get(r.format);
    const written =
      now !== undefined && (was === undefined || now.ino !== was.ino || now.mtimeMs !== was.mtimeMs);
    out[r.format] = written ? r.path : '';
  }
  return out;
}
