// A Context for tests, as gh's factory with httpmock: the product's own context (settings, profiles, session,
// retry and rate-limit layers) over a scripted transport, a fake clock, IO buffers and a private config folder.
// It implements the Context interface member by member: no cast, so a member the interface gains is a compile
// error here, not a hole in every test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { onTestFinished } from 'vitest';
import type { CallContexts, CallInit, Context } from '../../src/core/context.js';
import type { ConfigStore, OutputFormat } from '../../src/core/config.js';
import { KeychainStore, type Credentials, type Tokens } from '../../src/core/credentials.js';
import type { ApiClient } from '../../src/core/http/client.js';
import type { HttpRequest, Send } from '../../src/core/http/types.js';
import type { PlainSend } from '../../src/core/http/plain.js';
import type { Session } from '../../src/core/http/session.js';
import { IO } from '../../src/core/io.js';
import { ProcessContext, type ContextInit } from '../../src/core/process-context.js';
import type { GlobalOptions, ProfileSource, Settings } from '../../src/core/settings.js';
import { FakeClock } from './fake-clock.js';
import { scripted, type Reply } from './fake-send.js';
import { Collect } from './streams.js';

export interface FakeContextInit {
  /** The service's answers, in order (a test fails on a request too many, and on a reply never used). */
  replies?: Reply[];
  /** Or the whole transport: answers every request (the service, or a webhook receiver). */
  service?: Send;
  /** Global options as commander would give them (-o, --profile…). */
  globals?: GlobalOptions;
  /**
   * Added to the defaults: a token (CSSCTL_TOKEN), the base URL, workspace `acme`, a private config folder. A
   * key given as undefined removes the default (`CSSCTL_TOKEN: undefined`: no token in the environment).
   */
  env?: NodeJS.ProcessEnv;
  argv?: string[];
  /** The working folder the verb sees (Context.cwd): the process's when not given. */
  cwd?: string;
  /** stdout (and stderr) claim to be a terminal of this many columns. */
  tty?: { columns: number };
  stdin?: ContextInit['io']['stdin'];
  connectKeychain?: ContextInit['connectKeychain'];
}

export const FAKE_BASE_URL = 'http://127.0.0.1:1';

/**
 * An OS keychain held in memory, for `connectKeychain` (with CSSCTL_CREDENTIAL_STORE auto or keychain): the
 * product's own KeychainStore over a map of account → secret. `failWith` makes every call fail with that
 * message, as a locked keyring does.
 */
export function memoryKeychain(opts: { failWith?: string } = {}): {
  connect: NonNullable<FakeContextInit['connectKeychain']>;
  entries: Map<string, string>;
} {
  const entries = new Map<string, string>();
  const check = () => {
    if (opts.failWith !== undefined) throw new Error(opts.failWith);
  };
  const keytar = {
    getPassword: async (_service: string, account: string) => {
      check();
      return entries.get(account) ?? null;
    },
    setPassword: async (_service: string, account: string, secret: string) => {
      check();
      entries.set(account, secret);
    },
    deletePassword: async (_service: string, account: string) => {
      check();
      return entries.delete(account);
    },
  };
  return { connect: async () => new KeychainStore(keytar), entries };
}

export class FakeContext implements Context, CallContexts {
  readonly stdout: Collect;
  readonly stderr: Collect;
  readonly clock = new FakeClock();
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly argv: readonly string[];
  /** Every request sent, in order, with the time it was sent. */
  readonly sent: ReturnType<typeof scripted>['sent'];
  private readonly controller = new AbortController();
  private readonly inner: ProcessContext;

  constructor(init: FakeContextInit = {}) {
    this.stdout = new Collect(init.tty !== undefined);
    this.stderr = new Collect(init.tty !== undefined);
    if (init.tty) {
      Object.assign(this.stdout, { columns: init.tty.columns });
      Object.assign(this.stderr, { columns: init.tty.columns });
    }
    const configDir = mkdtempSync(join(tmpdir(), 'cssctl-fake-'));
    try {
      onTestFinished(() => rmSync(configDir, { recursive: true, force: true }));
    } catch {
      // made outside a test (a helper's set-up): the folder stays in the temporary folder
    }
    this.env = {
      CSSCTL_TOKEN: 'test-token',
      CSSCTL_BASE_URL: FAKE_BASE_URL,
      CSSCTL_WORKSPACE: 'acme',
      CSSCTL_CONFIG_DIR: configDir,
      CSSCTL_CREDENTIAL_STORE: 'file',
      CSSCTL_POLL_BASE_MS: '1000',
      ...init.env,
    };
    for (const [k, v] of Object.entries(this.env)) if (v === undefined) delete this.env[k];
    this.globals = init.globals ?? {};
    this.argv = init.argv ?? [];
    this.io = new IO(
      { stdin: init.stdin ?? new PassThrough(), stdout: this.stdout, stderr: this.stderr },
      { env: {}, quiet: this.globals.quiet, verbose: this.globals.verbose },
    );
    const scriptedService = scripted(this.clock, init.replies ?? []);
    this.sent = scriptedService.sent;
    const given = init.service;
    const service = {
      send: given
        ? async (req: HttpRequest) => {
            this.sent.push({ req, at: this.clock.now() });
            return given(req);
          }
        : scriptedService.send,
    };
    this.inner = new ProcessContext({
      io: this.io,
      env: this.env,
      globals: this.globals,
      signal: this.controller.signal,
      clock: this.clock,
      argv: [...this.argv],
      cwd: init.cwd,
      transport: service.send,
      connectKeychain: init.connectKeychain ?? (async () => undefined),
    });
  }

  /** Stops the command as Ctrl-C would. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  /**
   * A profile logged in as `login` leaves it: its settings in config.json and its tokens in the credential store
   * (the file, in the fake's config folder). The tokens' base URL is the profile's.
   */
  async seedLogin(
    tokens: Omit<Tokens, 'base_url'>,
    profile: { name?: string; base_url?: string; workspace?: string; email?: string } = {},
  ): Promise<void> {
    const {
      name = 'default',
      base_url = FAKE_BASE_URL,
      workspace = 'acme',
      email = 'dev@acme.test',
    } = profile;
    await this.inner.credentials().save(name, { ...tokens, base_url });
    await (await this.inner.config()).update(name, { base_url, workspace, email });
  }

  /** The paths and queries of the requests, as `GET /scans/scn_1?limit=1`. */
  requests(): string[] {
    return this.sent.map(({ req }) => {
      const u = new URL(req.url);
      return `${req.method} ${u.pathname.replace(/^\/api\/v1/, '')}${u.search}`;
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get configDir(): string {
    return this.inner.configDir;
  }
  get cwd(): string {
    return this.inner.cwd;
  }
  get profileName(): string {
    return this.inner.profileName;
  }
  activeProfile(): { name: string; source: ProfileSource } {
    return this.inner.activeProfile();
  }
  allowNewProfile(): void {
    this.inner.allowNewProfile();
  }
  requireProfile(): void {
    this.inner.requireProfile();
  }
  configSync(): ConfigStore {
    return this.inner.configSync();
  }
  config(): Promise<ConfigStore> {
    return this.inner.config();
  }
  settingsSync(): Settings {
    return this.inner.settingsSync();
  }
  settings(): Promise<Settings> {
    return this.inner.settings();
  }
  outputLenient(fallback: OutputFormat): OutputFormat {
    return this.inner.outputLenient(fallback);
  }
  jsonErrors(): boolean {
    return this.inner.jsonErrors();
  }
  credentials(): Credentials {
    return this.inner.credentials();
  }
  session(): Promise<Session> {
    return this.inner.session();
  }
  api(): Promise<ApiClient> {
    return this.inner.api();
  }
  http(): Promise<PlainSend> {
    return this.inner.http();
  }
  loginClient(baseUrl: string, workspace: string | undefined): Promise<ApiClient> {
    return this.inner.loginClient(baseUrl, workspace);
  }
  /** A call's context over this one's session and rate-limit windows, as the MCP server makes one per tool call. */
  forCall(init: CallInit): Context {
    return this.inner.forCall(init);
  }
}
