import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server.js';

/**
 * What the end-to-end tests run: the checkout's built bin/cssctl.cjs under the Node running the tests, or
 * CSSCTL_TEST_BIN: another cssctl (an installed package's bin/cssctl.cjs, run by the `node` first on PATH as
 * its shebang says, or the single executable). scripts/test-installed runs the suite that way.
 */
export const BIN =
  process.env.CSSCTL_TEST_BIN ?? fileURLToPath(new URL('../../bin/cssctl.cjs', import.meta.url));
/**
 * The program and the arguments before cssctl's own that run BIN: CSSCTL_TEST_NODE (another Node, for an
 * installed package's bin/cssctl.cjs) when set.
 */
export const CLI: readonly [string, ...string[]] = process.env.CSSCTL_TEST_NODE
  ? [process.env.CSSCTL_TEST_NODE, BIN]
  : process.env.CSSCTL_TEST_BIN
    ? [BIN]
    : [process.execPath, BIN];
/** CLI as one shell word list (for tests that run cssctl through a shell, tmux or a script). */
export const CLI_SHELL = CLI.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
/** Spawn arguments for `cssctl <args>`. */
export function cliSpawn(args: readonly string[]): [string, string[]] {
  return [CLI[0], [...CLI.slice(1), ...args]];
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the run in ms. */
  ms: number;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Another program to run instead of CLI (an installed cssctl). */
  command?: string;
  cwd?: string;
}

/**
 * Runs the built bin/cssctl.cjs as a subprocess with a clean environment: nothing from the developer's
 * shell (proxies, tokens, D-Bus) leaks in unless a test passes it.
 */
export function runCli(
  args: string[],
  baseEnv: Record<string, string | undefined>,
  opts: RunOptions = {},
): Promise<CliResult> {
  // Every run gets a private cache folder unless the test names one: the code cache bin/cssctl.cjs writes on a
  // first run (docs/shipping.md) never goes to the user's own ~/.cache.
  const env: Record<string, string> = {};
  const merged = { XDG_CACHE_HOME: testCacheHome(), ...baseEnv, ...opts.env };
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) env[k] = v;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [file, argv] = opts.command ? [opts.command, args] : cliSpawn(args);
    const child = spawn(file, argv, { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`cssctl ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 20_000} ms\n${stderr}`),
      );
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    // A command that exits before reading its input (an error found first) closes the pipe: the write then
    // fails with EPIPE, which says nothing about the test; the exit code and output do.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    child.stdin.end(opts.input ?? '');
  });
}

let cacheHome: string | undefined;
/** One cache folder for the test file's runs (each first run there writes the code cache; later ones read it). */
export function testCacheHome(): string {
  if (!cacheHome) {
    cacheHome = mkdtempSync(join(tmpdir(), 'cssctl-e2e-cache-'));
    process.once('exit', () => rmSync(cacheHome!, { recursive: true, force: true }));
  }
  return cacheHome;
}

/** A sandbox plus a private config folder and HOME: one isolated user of cssctl. */
export class World {
  readonly dir: string;
  readonly configDir: string;
  readonly home: string;
  env: Record<string, string | undefined>;

  private constructor(readonly sandbox: Sandbox) {
    this.dir = mkdtempSync(join(tmpdir(), 'cssctl-e2e-'));
    this.configDir = join(this.dir, 'config');
    this.home = join(this.dir, 'home');
    this.env = {
      PATH: process.env.PATH,
      HOME: this.home,
      XDG_CACHE_HOME: testCacheHome(),
      LANG: 'C.UTF-8',
      CSSCTL_CONFIG_DIR: this.configDir,
      // Back-off of 2 s then 4 s scaled down (the unit tests check the real schedule on a fake clock).
      CSSCTL_RETRY_BASE_MS: '20',
    };
  }

  static async start(opts: Partial<SandboxOptions> = {}): Promise<World> {
    return new World(await startSandbox({ port: 0, ...opts }));
  }

  get url(): string {
    return this.sandbox.url;
  }

  run(args: string[], opts: RunOptions = {}): Promise<CliResult> {
    return runCli(args, this.env, opts);
  }

  /**
   * Adds a profile to this world's config.json, as a login would leave it but without a session (only login
   * creates a profile through cssctl, cli-contract.md §2).
   */
  addProfile(name: string, fields: Record<string, string> = {}): void {
    const file = join(this.configDir, 'config.json');
    mkdirSync(this.configDir, { recursive: true, mode: 0o700 });
    const config = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as {
      profiles?: Record<string, Record<string, string>>;
    };
    config.profiles = { ...config.profiles, [name]: { ...config.profiles?.[name], ...fields } };
    writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  }

  cred(workspace = 'acme', role: 'owner' | 'read_only' = 'owner') {
    const c = this.sandbox.credentials.find((x) => x.workspace === workspace && x.role === role);
    if (!c) throw new Error(`no seeded ${role} in ${workspace}`);
    return c;
  }

  /** Logs in with --password-stdin; returns the run. */
  async login(
    workspace = 'acme',
    role: 'owner' | 'read_only' = 'owner',
    extra: string[] = [],
    opts: RunOptions = {},
  ) {
    const c = this.cred(workspace, role);
    const res = await this.run(
      ['login', '--base-url', this.url, '-w', workspace, '--email', c.email, '--password-stdin', ...extra],
      { ...opts, input: `${c.password}\n` },
    );
    if (res.code !== 0) throw new Error(`login failed (${res.code}): ${res.stderr}`);
    return res;
  }

  async close(): Promise<void> {
    await this.sandbox.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Requests the sandbox received under /api/v1<prefix>. */
export function received(sandbox: Sandbox, prefix: string, method?: string) {
  return sandbox.requests.filter(
    (r) => r.path.startsWith(`/api/v1${prefix}`) && (!method || r.method === method),
  );
}

let keytarState: { missing: string | undefined } | undefined;

/**
 * Why the tests of the real OS keychain cannot run here: keytar, an optional dependency that builds only
 * where libsecret-1-dev is installed, does not load (scripts/test rebuilds it once libsecret is there). Under
 * CI=true, which installs libsecret, there is no such reason: the tests run, and fail if keytar is missing.
 */
export function keytarMissing(): string | undefined {
  if (!keytarState) {
    let missing: string | undefined;
    try {
      execFileSync(process.execPath, ['-e', "require('keytar')"], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        stdio: 'ignore',
      });
    } catch {
      missing =
        process.env.CI === 'true'
          ? undefined
          : 'keytar is not built (install libsecret-1-dev, then run scripts/test again)';
    }
    keytarState = { missing };
  }
  return keytarState.missing;
}

/** Whether a program is on PATH (secret-tool, tmux…). */
export function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

/** The contract's error form: exactly one stderr line, starting `error: `, and no stack trace. */
export function errorLine(res: CliResult): string {
  const all = lines(res.stderr);
  expect(all, res.stderr).toHaveLength(1);
  expect(all[0]).toMatch(/^error: /);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  return all[0]!;
}
