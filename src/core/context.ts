import { systemClock, type Clock } from './clock.js';
import {
  CONFIG_KEYS,
  ConfigStore,
  checkProfileValue,
  configDir,
  validateOutput,
  validateProfileName,
  validateWorkspace,
  type ConfigKey,
  type OutputFormat,
  type Profile,
  type RawProfile,
} from './config.js';
import { Credentials, parseStoreMode } from './credentials.js';
import { CliError, UsageError } from './errors.js';
import { ApiClient } from './http/client.js';
import { withLogging } from './http/log.js';
import { createPlainSender, type PlainSend } from './http/plain.js';
import { RateLimiter } from './http/ratelimit.js';
import { withRetry } from './http/retry.js';
import { Session, envToken, type TokenResponse } from './http/session.js';
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
  /** --jq and its companions (src/jq/flags.ts). */
  jq?: string;
  arg?: string[];
  argjson?: string[];
  jqExitStatus?: boolean;
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'unset';
/** Where the active profile's name came from: --profile, CSSCTL_PROFILE, default_profile, or the built-in. */
export type ProfileSource = 'flag' | 'env' | 'config' | 'default';

export interface Settings {
  profile: string;
  /** Each of these is resolved when first read: an invalid value throws (naming config.json and the key
   *  when it comes from the profile) only for the commands that use it. */
  readonly baseUrl?: string;
  readonly workspace?: string;
  readonly email?: string;
  readonly output: OutputFormat;
  timeoutMs: number;
  maxWaitMs: number;
  /** Where each profile key's effective value came from (for `config list`). */
  readonly sources: Record<ConfigKey, Source>;
  /** The effective value of each profile key that is valid. */
  readonly values: Profile;
  /** A key's effective value; throws when it is invalid. */
  value(key: ConfigKey): string | undefined;
  /** Why a key's value is invalid, or undefined when it is valid or unset. */
  problem(key: ConfigKey): string | undefined;
  /** The value as given (flag, env or config.json), valid or not. */
  raw(key: ConfigKey): unknown;
  /**
   * The output format, or `fallback` when the profile's saved `output` is invalid — for `config` and
   * `logout`, which must work whatever the profile holds. An invalid flag still throws.
   */
  outputOr(fallback: OutputFormat): OutputFormat;
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

interface Field {
  value?: string;
  raw?: unknown;
  source: Source;
  error?: CliError;
}

/**
 * flag > environment > profile > default, for every setting. Profile keys are resolved lazily, one by one,
 * so one bad hand-edited value breaks only the commands that need it (cli-contract.md §6).
 */
export function resolveSettings(
  g: GlobalOptions,
  env: NodeJS.ProcessEnv,
  profile: RawProfile,
  profileName: string,
  opts: { file?: string; profileError?: CliError } = {},
): Settings {
  const file = opts.file ?? 'config.json';
  const pick = (key: ConfigKey): { raw?: unknown; source: Source } => {
    const flag =
      key === 'base_url'
        ? g.baseUrl
        : key === 'workspace'
          ? g.workspace
          : key === 'output'
            ? g.json || (g.jq !== undefined && g.output === undefined)
              ? 'json'
              : g.output
            : undefined;
    if (flag !== undefined) return { raw: flag, source: 'flag' };
    const fromEnv = ENV_NAMES[key] ? env[ENV_NAMES[key]] : undefined;
    if (fromEnv) return { raw: fromEnv, source: 'env' };
    if (opts.profileError) return { source: 'profile' };
    const raw = profile[key];
    if (raw === undefined || raw === null || raw === '')
      return key === 'output' ? { raw: 'table', source: 'default' } : { source: 'unset' };
    return { raw, source: 'profile' };
  };
  const cache: Partial<Record<ConfigKey, Field>> = {};
  const field = (key: ConfigKey): Field => {
    if (cache[key]) return cache[key];
    const { raw, source } = pick(key);
    let f: Field = { raw, source };
    if (source === 'profile' && opts.profileError) f.error = opts.profileError;
    else if (source !== 'unset') {
      try {
        f.value =
          source === 'profile' ? checkProfileValue(file, profileName, key, raw) : NORMALISE[key](String(raw));
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        f = { raw, source, error: err };
      }
    }
    cache[key] = f;
    return f;
  };
  const value = (key: ConfigKey): string | undefined => {
    const f = field(key);
    if (f.error) throw f.error;
    return f.value;
  };
  const timeoutMs = seconds('--timeout', g.timeout, 30, 0.001) * 1000;
  const maxWaitMs = seconds('--max-wait', g.maxWait, 300, 0) * 1000;
  return {
    profile: profileName,
    timeoutMs,
    maxWaitMs,
    get baseUrl() {
      return value('base_url');
    },
    get workspace() {
      return value('workspace');
    },
    get email() {
      return value('email');
    },
    get output() {
      return value('output') as OutputFormat;
    },
    get sources() {
      return Object.fromEntries(CONFIG_KEYS.map((k) => [k, field(k).source])) as Record<ConfigKey, Source>;
    },
    get values() {
      const out: Profile = {};
      for (const k of CONFIG_KEYS) {
        const f = field(k);
        if (!f.error && f.value !== undefined) out[k] = f.value;
      }
      return out;
    },
    value,
    problem: (key) => field(key).error?.message,
    raw: (key) => field(key).raw,
    outputOr(fallback) {
      const f = field('output');
      if (f.error && f.source === 'profile') return fallback;
      return value('output') as OutputFormat;
    },
  };
}

const ENV_NAMES: Partial<Record<ConfigKey, string>> = {
  base_url: 'CSSCTL_BASE_URL',
  workspace: 'CSSCTL_WORKSPACE',
  email: 'CSSCTL_EMAIL',
};

const NORMALISE: Record<ConfigKey, (v: string) => string> = {
  base_url: normalizeBaseUrl,
  workspace: validateWorkspace,
  email: (e) => e.trim(),
  output: validateOutput,
};

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
  readonly configDir: string;
  /** --profile or CSSCTL_PROFILE, checked; undefined when neither names a profile. */
  private readonly namedProfile?: { name: string; source: 'flag' | 'env' };
  private chosenProfile?: { name: string; source: ProfileSource };
  /** Set by the commands that create the profile they are given (`login`, `config set`). */
  private mayCreateProfile = false;
  private configStore?: ConfigStore;
  private settingsValue?: Settings;
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
    // A name that cannot be a profile is exit 2 for every command, before config.json is read.
    if (init.globals.profile !== undefined)
      this.namedProfile = { name: validateProfileName(init.globals.profile), source: 'flag' };
    else if (init.env.CSSCTL_PROFILE)
      this.namedProfile = { name: validateProfileName(init.env.CSSCTL_PROFILE), source: 'env' };
    this.configDir = configDir(init.env);
  }

  /** The active profile: --profile, else CSSCTL_PROFILE, else `default_profile` in config.json, else `default`. */
  get profileName(): string {
    return this.activeProfile().name;
  }

  activeProfile(): { name: string; source: ProfileSource } {
    if (!this.chosenProfile) {
      if (this.namedProfile) this.chosenProfile = this.namedProfile;
      else {
        const saved = this.configSync().defaultProfile();
        this.chosenProfile = saved
          ? { name: saved, source: 'config' }
          : { name: 'default', source: 'default' };
      }
    }
    return this.chosenProfile;
  }

  /** For `login`, which creates the profile it is given when config.json has none. */
  allowNewProfile(): void {
    this.mayCreateProfile = true;
  }

  /**
   * A profile named by --profile, CSSCTL_PROFILE or default_profile must be one of config.json (exit 2 naming
   * it), except for the commands that create it. `default` always exists: it is the built-in choice.
   */
  requireProfile(): void {
    const { name, source } = this.activeProfile();
    if (this.mayCreateProfile || name === 'default') return;
    const store = this.configSync();
    if (store.hasProfile(name)) return;
    const from =
      source === 'flag'
        ? '--profile'
        : source === 'env'
          ? 'CSSCTL_PROFILE'
          : `default_profile in ${store.path}`;
    throw new UsageError(`no profile named "${name}" (${from})`, {
      hint:
        source === 'config'
          ? 'cssctl config profiles lists the profiles; choose one with cssctl auth switch <profile>'
          : `cssctl config profiles lists the profiles; cssctl login --profile ${name} creates it`,
    });
  }

  /** config.json, read once (reading creates nothing). */
  configSync(): ConfigStore {
    this.configStore ??= ConfigStore.openSync(this.configDir);
    return this.configStore;
  }

  config(): Promise<ConfigStore> {
    return new Promise((resolve) => resolve(this.configSync()));
  }

  /**
   * The settings (each profile value checked only when read); cheap enough to call from main(). A config.json
   * that cannot be read at all is the command's error (exit 1, naming the file), never a table of empty
   * values (cli-contract.md §2, config).
   */
  settingsSync(): Settings {
    if (!this.settingsValue) {
      const store = this.configSync();
      if (store.fileError) throw store.fileError;
      this.requireProfile();
      let profile: RawProfile = {};
      let profileError: CliError | undefined;
      try {
        profile = store.profile(this.profileName);
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        profileError = err;
      }
      this.settingsValue = resolveSettings(this.globals, this.env, profile, this.profileName, {
        file: store.path,
        profileError,
      });
    }
    return this.settingsValue;
  }

  settings(): Promise<Settings> {
    return new Promise((resolve) => resolve(this.settingsSync()));
  }

  /**
   * The output format for the commands that work whatever config.json holds (`logout`, `config profiles`):
   * flags and environment as usual, `fallback` when the file or the profile's saved `output` cannot be used;
   * the profile need not exist.
   */
  outputLenient(fallback: OutputFormat): OutputFormat {
    const store = this.configSync();
    let profile: RawProfile = {};
    let name = 'default';
    let profileError = store.fileError;
    if (!profileError) {
      try {
        name = this.profileName; // an invalid default_profile: no profile, so no saved output
        profile = store.profile(name);
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        profileError = err;
      }
    }
    return resolveSettings(this.globals, this.env, profile, name, {
      file: store.path,
      profileError,
    }).outputOr(fallback);
  }

  /** The valid base_url saved in the profile, whatever flag or env says; undefined when none. */
  private profileBaseUrl(): string | undefined {
    try {
      const raw = this.configSync().profile(this.profileName).base_url;
      return raw === undefined
        ? undefined
        : checkProfileValue('config.json', this.profileName, 'base_url', raw);
    } catch {
      return undefined;
    }
  }

  /** Whether errors should be printed as JSON: the resolved output, never throwing. */
  jsonErrors(): boolean {
    try {
      const out = this.settingsSync().outputOr('table');
      return out === 'json' || out === 'ndjson';
    } catch {
      return false;
    }
  }

  credentials(): Credentials {
    this.credentialsInstance ??= new Credentials(
      parseStoreMode(this.env.CSSCTL_CREDENTIAL_STORE),
      this.configDir,
      this.env,
      undefined,
      { warn: (m) => this.io.warn(m), signal: this.signal },
    );
    return this.credentialsInstance;
  }

  session(): Promise<Session> {
    if (!this.sessionPromise) this.requireProfile();
    this.sessionPromise ??= Promise.resolve(
      new Session({
        profile: this.profileName,
        credentials: this.credentials(),
        clock: this.clock,
        envToken: envToken(this.env.CSSCTL_TOKEN),
        refresh: async (refreshToken, deadline) =>
          (await this.api()).request<TokenResponse>({
            method: 'POST',
            path: '/auth/refresh',
            body: { refresh_token: refreshToken },
            auth: false,
            deadline,
          }),
        lock: (fn) =>
          withFileLock(this.configDir, `refresh-${this.profileName}`, fn, (path) =>
            this.io.notice(
              `waiting for another cssctl process to finish refreshing the session (lock ${path}; taken over after 15 s if stale)`,
            ),
          ),
        onSecret: (s) => this.io.addSecret(s),
        baseUrl: () => this.settingsSync().baseUrl,
        profileBaseUrl: () => {
          const s = this.settingsSync();
          return s.sources.base_url === 'profile' ? s.baseUrl : this.profileBaseUrl();
        },
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
      onWait: ({ waitMs, reason }) => {
        // During a long read the wait is a countdown on its progress line (src/core/progress.ts).
        if (io.progress?.active) return io.progress.wait(waitMs);
        io.notice(
          `${reason === '429' ? 'rate limited by the service' : 'rate limit reached'}; waiting ${formatWait(waitMs)} before the next request`,
        );
      },
    });
    let send: Send = createTransport({ timeoutMs, clock: this.clock });
    send = withLogging(send, (line) => io.debug(line), this.clock);
    send = limiter.layer(send);
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
