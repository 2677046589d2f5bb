import { systemClock, type Clock } from './clock.js';
import {
  ConfigStore,
  checkProfileValue,
  configDir,
  validateProfileName,
  type OutputFormat,
  type RawProfile,
} from './config.js';
import type { CallContexts, CallInit, Context, ProfileSource } from './context.js';
import { Credentials, parseStoreMode } from './credentials.js';
import { CliError, UsageError } from './errors.js';
import { ApiClient } from './http/client.js';
import { createPlainSender, type PlainSend } from './http/plain.js';
import { requestRefresh } from './http/refresh.js';
import { Session, envToken } from './http/session.js';
import { httpStack, sharedHttp, type SharedHttp } from './http/stack.js';
import type { Send } from './http/types.js';
import type { IO } from './io.js';
import { withFileLock } from './lock.js';
import { resolveSettings, type GlobalOptions, type Settings } from './settings.js';

// The context of one cssctl process (src/cli.ts): everything a verb needs, built lazily so a command pays only
// for what it uses. Nothing here is a module-level singleton.

export interface ContextInit {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  signal: AbortSignal;
  clock?: Clock;
  /** The command line as given (after `cssctl`), for the resume commands printed on Ctrl-C. */
  argv?: string[];
  /** The working folder (Context.cwd); the process's when not given. */
  cwd?: string;
  /**
   * The layer under the verbose log in place of undici (tests: a scripted service); the retry and rate-limit
   * layers above it stay the product's own.
   */
  transport?: Send;
  /** Connects the keychain in place of keytar (tests). */
  connectKeychain?: ConstructorParameters<typeof Credentials>[3];
  /** What this context shares with the other calls of a long-lived front end (forCall below). */
  shared?: SharedServices;
}

/**
 * What the calls of one long-lived front end share (the MCP server: every tool call is a context of its own,
 * ProcessContext.forCall). One credential store; one session per profile and service, so overlapping calls
 * refresh once (Session's in-process promise, and the cross-process lock as ever); one HTTP transport and one set
 * of rate-limit windows, so overlapping calls spend one budget. What stays a call's own: its IO, its signal,
 * its retries and rate-limit waits and its --max-wait, and config.json, read afresh by every call — a `cssctl
 * login` or `config set` in a terminal is seen by the next tool call, without restarting the server.
 */
export class SharedServices {
  private credentialsInstance?: Credentials;
  private readonly sessions = new Map<string, Session>();
  private http?: SharedHttp;

  constructor(
    private readonly root: {
      io: IO;
      env: NodeJS.ProcessEnv;
      signal: AbortSignal;
      clock: Clock;
      configDir: string;
      transport?: Send;
      connectKeychain?: ContextInit['connectKeychain'];
    },
  ) {}

  credentials(): Credentials {
    this.credentialsInstance ??= credentialsOf(this.root);
    return this.credentialsInstance;
  }

  /** The transport and rate-limit windows every call's stack goes over (made by the first call that sends). */
  httpFor(s: Settings): SharedHttp {
    this.http ??= sharedHttp({
      configDir: this.root.configDir,
      clock: this.root.clock,
      timeoutMs: s.timeoutMs,
      transport: this.root.transport,
    });
    return this.http;
  }

  /**
   * The session of a profile on a service, made once for every call that uses it. A refresh belongs to no call
   * (a call cancelled while it runs must not fail it for the others): it goes down a stack of its own over the
   * shared transport and windows, told to stop only when the process is.
   */
  session(profile: string, s: Settings, profileBaseUrl: () => string | undefined): Session {
    const key = `${profile}\0${s.baseUrl ?? ''}`;
    let session = this.sessions.get(key);
    if (!session) {
      const r = this.root;
      session = new Session({
        profile,
        credentials: this.credentials(),
        clock: r.clock,
        envToken: envToken(r.env.CSSCTL_TOKEN),
        refresh: (refreshToken, deadline) =>
          requestRefresh(
            new ApiClient({
              baseUrl: s.baseUrl,
              workspace: s.workspace,
              send: httpStack({
                io: r.io,
                env: r.env,
                clock: r.clock,
                configDir: r.configDir,
                timeoutMs: s.timeoutMs,
                maxWaitMs: s.maxWaitMs,
                ...this.httpFor(s),
              }),
              session: () => Promise.resolve(session!),
              signal: r.signal,
            }),
            refreshToken,
            deadline,
          ),
        lock: (fn) =>
          withFileLock(r.configDir, `refresh-${profile}`, fn, (path) =>
            r.io.notice(
              `waiting for another cssctl process to finish refreshing the session (lock ${path}; taken over after 15 s if stale)`,
            ),
          ),
        // Every call's IO redacts through the root's (src/mcp/call-io.ts): one set of secrets.
        onSecret: (secret) => r.io.addSecret(secret),
        baseUrl: () => s.baseUrl,
        profileBaseUrl,
      });
      this.sessions.set(key, session);
    }
    return session;
  }
}

/**
 * Everything a command needs, built lazily so a command pays only for what it uses. Nothing here is a
 * module-level singleton: tests build a Context with their own streams, env and clock.
 */
export class ProcessContext implements Context, CallContexts {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly argv: readonly string[];
  readonly configDir: string;
  readonly cwd: string;
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
  private readonly transport?: Send;
  private readonly connectKeychain?: ContextInit['connectKeychain'];
  private readonly shared?: SharedServices;
  /** What the calls made with forCall share, made by the first of them. */
  private sharedForCalls?: SharedServices;

  constructor(init: ContextInit) {
    this.transport = init.transport;
    this.connectKeychain = init.connectKeychain;
    this.shared = init.shared;
    this.io = init.io;
    this.env = init.env;
    this.globals = init.globals;
    this.signal = init.signal;
    this.clock = init.clock ?? systemClock;
    this.argv = init.argv ?? [];
    this.cwd = init.cwd ?? process.cwd();
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
      const g = this.globals;
      // --jq's implied -o json is what its filter reads; the user did not ask for JSON errors with it (what the
      // filter prints is theirs to choose, often plain text), so the profile's saved output decides, as it
      // would without --jq. -o json|ndjson or --json next to --jq still means JSON errors.
      if (g.jq !== undefined && g.output === undefined && !g.json) {
        const saved = this.configSync().profile(this.profileName).output;
        return typeof saved === 'string' && ['json', 'ndjson'].includes(saved.trim().toLowerCase());
      }
      const out = this.settingsSync().outputOr('table');
      return out === 'json' || out === 'ndjson';
    } catch {
      return false;
    }
  }

  credentials(): Credentials {
    if (this.shared) return this.shared.credentials();
    this.credentialsInstance ??= credentialsOf({
      env: this.env,
      configDir: this.configDir,
      connectKeychain: this.connectKeychain,
      io: this.io,
      signal: this.signal,
    });
    return this.credentialsInstance;
  }

  session(): Promise<Session> {
    if (!this.sessionPromise) this.requireProfile();
    if (this.shared) {
      const shared = this.shared;
      this.sessionPromise ??= this.settings().then((s) =>
        shared.session(this.profileName, s, () =>
          s.sources.base_url === 'profile' ? s.baseUrl : this.profileBaseUrl(),
        ),
      );
      return this.sessionPromise;
    }
    this.sessionPromise ??= Promise.resolve(
      new Session({
        profile: this.profileName,
        credentials: this.credentials(),
        clock: this.clock,
        envToken: envToken(this.env.CSSCTL_TOKEN),
        refresh: async (refreshToken, deadline) => requestRefresh(await this.api(), refreshToken, deadline),
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
  private httpStack(s: Settings): Send {
    this.sendInstance ??= httpStack({
      io: this.io,
      env: this.env,
      clock: this.clock,
      configDir: this.configDir,
      timeoutMs: s.timeoutMs,
      maxWaitMs: s.maxWaitMs,
      ...(this.shared ? this.shared.httpFor(s) : { transport: this.transport }),
    });
    return this.sendInstance;
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
      createPlainSender({
        timeoutMs: s.timeoutMs,
        log: (line) => this.io.debug(line),
        clock: this.clock,
        transport: this.transport,
      }),
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

  /**
   * A context for one call of a long-lived front end (the MCP server runs each tool call in one). The call has
   * its own IO, signal (aborted by the call's cancellation or by this context's signal), argv and globals, reads
   * config.json afresh, and shares with every other call made here the credential store, the session (one refresh
   * at a time), the HTTP transport and the rate-limit windows (SharedServices).
   */
  forCall(init: CallInit): ProcessContext {
    this.sharedForCalls ??= new SharedServices({
      io: this.io,
      env: this.env,
      signal: this.signal,
      clock: this.clock,
      configDir: this.configDir,
      transport: this.transport,
      connectKeychain: this.connectKeychain,
    });
    return new ProcessContext({
      io: init.io,
      env: this.env,
      globals: { ...this.globals, ...init.globals },
      signal: AbortSignal.any([this.signal, init.signal]),
      clock: this.clock,
      argv: init.argv ?? [],
      cwd: this.cwd,
      transport: this.transport,
      connectKeychain: this.connectKeychain,
      shared: this.sharedForCalls,
    });
  }
}

/** The credential store of a context: the keychain or the file, as CSSCTL_CREDENTIAL_STORE says. */
function credentialsOf(o: {
  env: NodeJS.ProcessEnv;
  configDir: string;
  connectKeychain?: ContextInit['connectKeychain'];
  io: IO;
  signal: AbortSignal;
}): Credentials {
  return new Credentials(
    parseStoreMode(o.env.CSSCTL_CREDENTIAL_STORE),
    o.configDir,
    o.env,
    o.connectKeychain,
    {
      warn: (m) => o.io.warn(m),
      signal: o.signal,
    },
  );
}
