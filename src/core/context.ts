import { systemClock, type Clock } from './clock.js';
import {
  ConfigStore,
  configDir,
  validateOutput,
  validateProfileName,
  validateWorkspace,
  type ConfigKey,
  type OutputFormat,
  type Profile,
} from './config.js';
import { Credentials, parseStoreMode } from './credentials.js';
import { UsageError } from './errors.js';
import { ApiClient } from './http/client.js';
import { withLogging } from './http/log.js';
import { createPlainSender, type PlainSend } from './http/plain.js';
import { RateLimiter } from './http/ratelimit.js';
import { withRetry } from './http/retry.js';
import { Session, type TokenResponse } from './http/session.js';
import { createTransport } from './http/transport.js';
import type { Send } from './http/types.js';
import type { IO } from './io.js';
import { withFileLock } from './lock.js';
import { normalizeBaseUrl } from './url.js';
import { fileExhaustedWindows } from './ratelimit-state.js';

/** Global options as commander parses them (cli-contract.md §1). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  workspace?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  timeout?: string;
  maxWait?: string;
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'unset';

export interface Settings {
  profile: string;
  baseUrl?: string;
  workspace?: string;
  email?: string;
  output: OutputFormat;
  timeoutMs: number;
  maxWaitMs: number;
  /** Where each profile key's effective value came from (for `config list`). */
  sources: Record<ConfigKey, Source>;
  /** The effective value of each profile key. */
  values: Profile;
}

function seconds(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min) {
    throw new UsageError(
      `invalid ${name} "${raw}": expected a number of seconds${min > 0 ? ' above 0' : ''}`,
    );
  }
  return n;
}

/** flag > environment > profile > default, for every setting. */
export function resolveSettings(
  g: GlobalOptions,
  env: NodeJS.ProcessEnv,
  profile: Profile,
  profileName: string,
): Settings {
  const sources = {} as Record<ConfigKey, Source>;
  const values: Profile = {};
  const pick = (
    key: ConfigKey,
    flag: string | undefined,
    envValue: string | undefined,
    norm: (v: string) => string,
  ) => {
    let v: string | undefined;
    if (flag !== undefined) [v, sources[key]] = [norm(flag), 'flag'];
    else if (envValue) [v, sources[key]] = [norm(envValue), 'env'];
    else if (profile[key])
      [v, sources[key]] = [norm(profile[key]), 'profile']; // may be hand-edited
    else sources[key] = 'unset';
    if (v !== undefined) values[key] = v;
    return v;
  };
  const baseUrl = pick('base_url', g.baseUrl, env.CSSCTL_BASE_URL, normalizeBaseUrl);
  const workspace = pick('workspace', g.workspace, env.CSSCTL_WORKSPACE, validateWorkspace);
  const email = pick('email', undefined, env.CSSCTL_EMAIL, (e) => e.trim());
  const flagOutput = g.json ? 'json' : g.output;
  let output = pick('output', flagOutput, undefined, validateOutput) as OutputFormat | undefined;
  if (!output) {
    output = 'table';
    sources.output = 'default';
    values.output = 'table';
  }
  return {
    profile: profileName,
    baseUrl,
    workspace,
    email,
    output,
    timeoutMs: seconds('--timeout', g.timeout, 30, 0.001) * 1000,
    maxWaitMs: seconds('--max-wait', g.maxWait, 300, 0) * 1000,
    sources,
    values,
  };
}

export interface ContextInit {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  signal: AbortSignal;
  clock?: Clock;
  /** The command line as given (after `cssctl`), for the resume commands printed on Ctrl-C. */
  argv?: string[];
}

/**
 * Everything a command needs, built lazily so a command pays only for what it uses. Nothing here is a
 * module-level singleton: tests build a Context with their own streams, env and clock.
 */
export class Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly argv: readonly string[];
  readonly profileName: string;
  readonly configDir: string;
  private configPromise?: Promise<ConfigStore>;
  private settingsPromise?: Promise<Settings>;
  private credentialsInstance?: Credentials;
  private sessionPromise?: Promise<Session>;
  private sendInstance?: Send;
  private apiPromise?: Promise<ApiClient>;
  private plainPromise?: Promise<PlainSend>;

  constructor(init: ContextInit) {
    this.io = init.io;
    this.env = init.env;
    this.globals = init.globals;
    this.signal = init.signal;
    this.clock = init.clock ?? systemClock;
    this.argv = init.argv ?? [];
    this.profileName = validateProfileName(init.globals.profile ?? (init.env.CSSCTL_PROFILE || 'default'));
    this.configDir = configDir(init.env);
  }

  config(): Promise<ConfigStore> {
    this.configPromise ??= ConfigStore.open(this.configDir);
    return this.configPromise;
  }

  settings(): Promise<Settings> {
    this.settingsPromise ??= this.config().then((c) =>
      resolveSettings(this.globals, this.env, c.profile(this.profileName), this.profileName),
    );
    return this.settingsPromise;
  }

  credentials(): Credentials {
    this.credentialsInstance ??= new Credentials(
      parseStoreMode(this.env.CSSCTL_CREDENTIAL_STORE),
      this.configDir,
      this.env,
    );
    return this.credentialsInstance;
  }

  session(): Promise<Session> {
    this.sessionPromise ??= Promise.resolve(
      new Session({
        profile: this.profileName,
        credentials: this.credentials(),
        clock: this.clock,
        envToken: this.env.CSSCTL_TOKEN || undefined,
        refresh: async (refreshToken) =>
          (await this.api()).request<TokenResponse>({
            method: 'POST',
            path: '/auth/refresh',
            body: { refresh_token: refreshToken },
            auth: false,
          }),
        lock: (fn) => withFileLock(this.configDir, `refresh-${this.profileName}`, fn),
        onSecret: (s) => this.io.addSecret(s),
      }),
    );
    return this.sessionPromise;
  }

  /** retry → rate limit → verbose log → undici, built once and shared by every request of this command. */
  private httpStack({ timeoutMs, maxWaitMs }: Settings): Send {
    if (this.sendInstance) return this.sendInstance;
    const io = this.io;
    const limiter = new RateLimiter({
      clock: this.clock,
      maxWaitMs,
      shared: fileExhaustedWindows(this.configDir, () => this.clock.now()),
      onWait: ({ waitMs, reason }) =>
        io.notice(
          `${reason === '429' ? 'rate limited by the service' : 'rate limit reached'}; waiting ${formatWait(waitMs)} before the next request`,
        ),
    });
    let send: Send = createTransport({ timeoutMs });
    send = withLogging(send, (line) => io.debug(line), this.clock);
    send = limiter.layer(send, (req) => {
      const origin = new URL(req.url).origin;
      return req.bucket === 'login' || req.bucket === 'refresh'
        ? origin
        : `${origin} ${req.headers['x-tenant-slug'] ?? ''}`;
    });
    const retryBase = Number(this.env.CSSCTL_RETRY_BASE_MS);
    send = withRetry(send, {
      clock: this.clock,
      baseMs:
        Number.isFinite(retryBase) && retryBase >= 0 && this.env.CSSCTL_RETRY_BASE_MS ? retryBase : 1000,
      onRetry: ({ attempt, waitMs, reason }) =>
        io.notice(`${reason}; retrying in ${formatWait(waitMs)} (attempt ${attempt} of 3)`),
    });
    this.sendInstance = send;
    return send;
  }

  api(): Promise<ApiClient> {
    this.apiPromise ??= this.settings().then(
      (s) =>
        new ApiClient({
          baseUrl: s.baseUrl,
          workspace: s.workspace,
          send: this.httpStack(s),
          session: () => this.session(),
          signal: this.signal,
        }),
    );
    return this.apiPromise;
  }

  /** For URLs that are not the service (webhook receivers): the same transport, no token or tenant. */
  http(): Promise<PlainSend> {
    this.plainPromise ??= this.settings().then((s) =>
      createPlainSender({ timeoutMs: s.timeoutMs, log: (line) => this.io.debug(line), clock: this.clock }),
    );
    return this.plainPromise;
  }

  /** The API client for a login, whose base URL and workspace may come from the prompt. */
  async loginClient(baseUrl: string, workspace: string | undefined): Promise<ApiClient> {
    const s = await this.settings();
    return new ApiClient({
      baseUrl,
      workspace,
      send: this.httpStack(s),
      session: () => this.session(),
      signal: this.signal,
    });
  }
}

export function formatWait(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 120) return `${Math.round(s)}s`;
  return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
}
