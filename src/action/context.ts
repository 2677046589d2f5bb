// The context the Action's verbs run in: the terminal's own (ProcessContext), with the session kept in a folder
// of the runner's temporary folder, the file credential store (a runner has no keychain), the inputs as the
// global options, and an IO that masks in the job's log every secret the core learns (the tokens a login or a
// refresh brings), on top of redacting it from stderr as it always does.
import { PassThrough, type Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { IO } from '../core/io.js';
import { ProcessContext } from '../core/process-context.js';
import type { Context } from '../core/context.js';
import type { Clock } from '../core/clock.js';
import type { Send } from '../core/http/types.js';
import type { ActionInputs } from './inputs.js';
import { maskCommands } from './runner.js';

/** Where a step runs: the runner's environment and streams. */
export interface StepWorld {
  /** The runner's environment: INPUT_*, GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY, RUNNER_TEMP. */
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable;
  /** Aborted when the runner cancels the step (SIGINT, then SIGTERM). */
  signal?: AbortSignal;
  /** Tests: the layer under the verbose log in place of undici, and a fake clock. */
  transport?: Send;
  clock?: Clock;
}

/**
 * Whether workflow commands reach a runner, which hides them: a mask printed anywhere else would show the very
 * secret it hides. The runner sets GITHUB_ACTIONS=true for every step.
 */
export function underRunner(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** The masks of a secret, or nothing where no runner reads them. */
export function masks(env: NodeJS.ProcessEnv, secret: string): string {
  return underRunner(env) ? maskCommands(secret) : '';
}

/** The session folder's name starts so (the post step removes nothing else). */
export const SESSION_PREFIX = 'cssctl-action-';
/** The state that names it, for the post step. */
export const SESSION_STATE = 'session-dir';

/**
 * Variables of the job's environment that would make the verbs log in elsewhere, use another session or
 * store, or another profile than the inputs say: the action reads its inputs only. (CSSCTL_IGNORE_FILE,
 * CSSCTL_DEBUG, the proxies and the rest stay.)
 */
const REPLACED = [
  'CSSCTL_TOKEN',
  'CSSCTL_PROFILE',
  'CSSCTL_BASE_URL',
  'CSSCTL_WORKSPACE',
  'CSSCTL_EMAIL',
  'CSSCTL_PASSWORD',
  'CSSCTL_CONFIG_DIR',
  'CSSCTL_CREDENTIAL_STORE',
];

export class ActionIO extends IO {
  static readonly noColor = new Chalk({ level: 0 });
  private readonly runnerEnv: NodeJS.ProcessEnv;

  constructor(world: Pick<StepWorld, 'env' | 'stdout' | 'stderr'>) {
    // No terminal, and nothing to read: a login never prompts, a wait shows no spinner.
    super(
      { stdin: new PassThrough().end(), stdout: world.stdout, stderr: world.stderr },
      { env: world.env, verbose: world.env.RUNNER_DEBUG === '1' || world.env.CSSCTL_DEBUG === '1' },
    );
    this.runnerEnv = world.env;
  }

  private readonly masked = new Set<string>();

  /**
   * Masks a secret in the job's log (once; nothing where no runner reads the log). Written through stdout's
   * sink, after the data before it, so a mask never splits an annotation's line.
   */
  mask(value: string): void {
    if (value === '' || this.masked.has(value)) return;
    this.masked.add(value);
    this.out(masks(this.runnerEnv, value));
  }

  /** A secret the core learns (a token from a login or a refresh) is masked, then redacted from stderr as always. */
  override addSecret(value: string | undefined): void {
    if (value) this.mask(value);
    super.addSecret(value);
  }
}

/** The environment the verbs see: the runner's, without the inputs, state and variables the inputs replace. */
export function actionEnv(base: NodeJS.ProcessEnv, sessionDir: string, password: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (k.startsWith('INPUT_') || k.startsWith('STATE_') || REPLACED.includes(k)) continue;
    env[k] = v;
  }
  env.CSSCTL_CONFIG_DIR = sessionDir;
  env.CSSCTL_CREDENTIAL_STORE = 'file';
  env.CSSCTL_PASSWORD = password;
  return env;
}

export function actionContext(o: {
  world: StepWorld;
  io: ActionIO;
  signal: AbortSignal;
  inputs: ActionInputs;
  sessionDir: string;
  output: string;
  argv: string[];
}): Context {
  return new ProcessContext({
    io: o.io,
    env: actionEnv(o.world.env, o.sessionDir, o.inputs.password),
    globals: {
      baseUrl: o.inputs.baseUrl,
      workspace: o.inputs.workspace,
      output: o.output,
      maxWait: o.inputs.maxWait,
    },
    signal: o.signal,
    clock: o.world.clock,
    argv: o.argv,
    transport: o.world.transport,
  });
}

/** The context of the post step: the session folder's store, to log out of it. */
export function sessionContext(world: StepWorld, io: IO, sessionDir: string): Context {
  return new ProcessContext({
    io,
    env: { ...actionEnv(world.env, sessionDir, ''), CSSCTL_PASSWORD: undefined },
    globals: { output: 'table' },
    signal: new AbortController().signal,
  });
}
