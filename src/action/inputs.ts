// The action's inputs (action.yml, cli-contract.md §12), read and checked before any request: a bad one is the
// step's error (exit 2), naming the input. Each maps to the flag of `cssctl scans create --wait` or `scans wait`
// that means the same; equivalentArgv() gives that command line, for the log and the resume line.
import { SEVERITIES, type Severity } from '../api/findings-types.js';
import { validateEmail, validateWorkspace } from '../core/config.js';
import { CliError, UsageError } from '../core/errors.js';
import { shellQuote } from '../core/resume.js';
import { normalizeBaseUrl } from '../core/url.js';
import { ACTION_REPORT_FORMATS, type ActionReportFormat } from '../report/registry.js';
import type { ReportSpec } from '../report/report-spec.js';
import { parseArgs, type ExtraArgs } from './args.js';
import { readInput } from './runner.js';

/**
 * The report inputs, in the order they are written and listed: the report formats whose descriptor offers them
 * to the Action (src/report/registry.ts; action.yml names the same, which a unit test checks).
 */
export const REPORT_INPUTS = ACTION_REPORT_FORMATS;
export type ReportInput = ActionReportFormat;

export interface ActionInputs {
  baseUrl: string;
  workspace: string;
  email: string;
  password: string;
  /** Exactly one of connection (create a scan and wait) and scanId (wait for one). */
  connection?: string;
  scanId?: string;
  failOn?: Severity;
  baseline?: string;
  /** Seconds. */
  waitTimeout?: number;
  /** Seconds, as --max-wait takes them. */
  maxWait?: string;
  reports: ReportSpec[];
  /** --ignore-file. */
  ignoreFile?: string;
  /** `args`: its words (for the command line shown) and the flags they give. */
  args: { words: string[]; extra: ExtraArgs };
  /** Keep one comment on the pull request (`pr-comment: true`), with this token. */
  prComment?: { token: string };
}

/** A bad input: exit 2, naming it as the workflow does. */
function invalid(name: string, why: string): UsageError {
  return new UsageError(`input ${name}: ${why}`);
}

function checked<T>(name: string, value: string, check: (v: string) => T): T {
  try {
    return check(value);
  } catch (err) {
    if (err instanceof CliError) throw invalid(name, err.message);
    throw err;
  }
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = readInput(env, name);
  if (value === '') throw invalid(name, 'required, and not given');
  return value;
}

function seconds(env: NodeJS.ProcessEnv, name: string, min: 'above 0' | '0 or more'): string | undefined {
  const raw = readInput(env, name);
  if (raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || (min === 'above 0' ? n <= 0 : n < 0))
    throw invalid(name, `"${raw}" is not a number of seconds ${min}`);
  return raw;
}

/**
 * The password as the workflow gave it: not trimmed (spaces may belong to it), only the line end that a YAML
 * block scalar (`password: |`) adds is taken off, as `--password-stdin` takes off the line end.
 */
export function passwordInput(env: NodeJS.ProcessEnv): string {
  return readInput(env, 'password', false).replace(/\r?\n$/, '');
}

/** Every input, checked; throws the first problem as a UsageError naming its input. */
export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const baseUrl = checked('base-url', required(env, 'base-url'), normalizeBaseUrl);
  const workspace = checked('workspace', required(env, 'workspace'), validateWorkspace);
  const email = checked('email', required(env, 'email'), validateEmail);
  const password = passwordInput(env);
  if (password.trim() === '') throw invalid('password', 'required, and not given');

  const connection = readInput(env, 'connection') || undefined;
  const scanId = readInput(env, 'scan-id') || undefined;
  if (connection !== undefined && scanId !== undefined)
    throw new UsageError(
      'inputs connection and scan-id: give one, not both (connection creates a scan and waits for it; scan-id waits for a scan already started)',
    );
  if (connection === undefined && scanId === undefined)
    throw new UsageError(
      'inputs connection and scan-id: give one (connection creates a scan and waits for it; scan-id waits for a scan already started)',
    );

  const failOnRaw = readInput(env, 'fail-on').toLowerCase();
  if (failOnRaw !== '' && !(SEVERITIES as readonly string[]).includes(failOnRaw))
    throw invalid('fail-on', `unknown severity "${readInput(env, 'fail-on')}": use ${SEVERITIES.join(', ')}`);
  const waitTimeout = seconds(env, 'wait-timeout', 'above 0');
  const maxWait = seconds(env, 'max-wait', '0 or more');

  const reports: ReportSpec[] = [];
  for (const format of REPORT_INPUTS) {
    const path = readInput(env, format);
    if (path === '') continue;
    if (/[\r\n]/.test(path)) throw invalid(format, 'a path on one line is expected');
    reports.push({ format, path });
  }

  const ignoreFile = readInput(env, 'ignore-file') || undefined;
  if (ignoreFile !== undefined && /[\r\n]/.test(ignoreFile))
    throw invalid('ignore-file', 'a path on one line is expected');
  const args = parseArgs(readInput(env, 'args'));
  for (const r of args.extra.report ?? []) {
    if (reports.some((given) => given.format === r.format))
      throw invalid('args', `--report ${r.format}= is the input ${r.format} (give one)`);
    reports.push(r);
  }

  const prComment = booleanInput(env, 'pr-comment');
  const token = readInput(env, 'github-token');
  if (prComment && token === '')
    throw invalid('github-token', 'required with pr-comment: true (the workflow gives ${{ github.token }})');

  return {
    baseUrl,
    workspace,
    email,
    password,
    connection,
    scanId,
    failOn: failOnRaw === '' ? undefined : (failOnRaw as Severity),
    baseline: readInput(env, 'baseline') || undefined,
    waitTimeout: waitTimeout === undefined ? undefined : Number(waitTimeout),
    maxWait,
    reports,
    ignoreFile,
    args,
    prComment: prComment ? { token } : undefined,
  };
}

/** A boolean input as @actions/core getBooleanInput reads it (YAML 1.2's core schema); empty is false. */
function booleanInput(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = readInput(env, name);
  if (raw === '') return false;
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  throw invalid(name, `"${raw}" is not true or false`);
}

/**
 * The cssctl command line that does what these inputs ask (after `cssctl`; never the password, which travels
 * in the context's environment): shown in the log, and the ground of the resume line of an interrupted wait.
 */
export function equivalentArgv(inputs: ActionInputs): string[] {
  const argv =
    inputs.connection !== undefined
      ? ['scans', 'create', '--connection', inputs.connection, '--wait']
      : ['scans', 'wait', inputs.scanId!];
  if (inputs.failOn) argv.push('--fail-on', inputs.failOn);
  if (inputs.baseline !== undefined) argv.push('--baseline', inputs.baseline);
  if (inputs.waitTimeout !== undefined) argv.push('--wait-timeout', String(inputs.waitTimeout));
  if (inputs.maxWait !== undefined) argv.push('--max-wait', inputs.maxWait);
  if (inputs.ignoreFile !== undefined) argv.push('--ignore-file', inputs.ignoreFile);
  argv.push('-o', 'github');
  const fromArgs = new Set(inputs.args.extra.report ?? []);
  for (const r of inputs.reports) if (!fromArgs.has(r)) argv.push('--report', `${r.format}=${r.path}`);
  argv.push(...inputs.args.words);
  return argv;
}

/** The command line, quoted for a shell, as the log shows it. */
export function commandLine(argv: readonly string[]): string {
  return ['cssctl', ...argv].map(shellQuote).join(' ');
}
