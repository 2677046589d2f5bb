// What a verb needs from the world it runs in, as an interface: the settings, the credential store, the session,
// the HTTP stack, the clock and the IO. The terminal (src/core/process-context.ts) builds each piece lazily from
// the process's flags, environment and files; a test or another front end (the MCP server, the GitHub Action)
// gives its own. A verb never reaches past this for a process global.
import type { Clock } from './clock.js';
import type { ConfigStore, OutputFormat } from './config.js';
import type { Credentials } from './credentials.js';
import type { ApiClient } from './http/client.js';
import type { PlainSend } from './http/plain.js';
import type { Session } from './http/session.js';
import type { IO } from './io.js';
import type { GlobalOptions, ProfileSource, Settings } from './settings.js';

export type { GlobalOptions, ProfileSource, Settings } from './settings.js';

export interface Context {
  /** Messages (notices, warnings, spinners, progress) and the streams the front end renders to. */
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  /** The global options as given (--profile, -o, --jq…). */
  readonly globals: GlobalOptions;
  /** Aborted when the command must stop (Ctrl-C, a cancelled tool call): every wait and request listens. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /** The command line as given (after `cssctl`), for the resume commands printed on an interruption. */
  readonly argv: readonly string[];
  /** Where config.json, the fallback credential file and the lock and state files live. */
  readonly configDir: string;
  /**
   * The working folder: where the ignore file is looked for (and `findings ignore` writes a new one), what a
   * relative --ignore-file is read from, and what two report paths are compared in. A verb never asks the
   * process for it.
   */
  readonly cwd: string;

  /** The active profile's name: --profile, CSSCTL_PROFILE, `default_profile` in config.json, else `default`. */
  readonly profileName: string;
  activeProfile(): { name: string; source: ProfileSource };
  /** For `login`, which creates the profile it is given. */
  allowNewProfile(): void;
  /** A profile named by --profile, CSSCTL_PROFILE or default_profile must exist (exit 2 naming it). */
  requireProfile(): void;
  /** config.json, read once. */
  configSync(): ConfigStore;
  config(): Promise<ConfigStore>;

  /** The settings, each profile value checked when first read. */
  settingsSync(): Settings;
  settings(): Promise<Settings>;
  /** The output format for commands that work whatever config.json holds (`logout`, `config profiles`). */
  outputLenient(fallback: OutputFormat): OutputFormat;
  /** Whether errors are printed as JSON (the resolved output; never throws). */
  jsonErrors(): boolean;

  /** The credential store (keychain or file). */
  credentials(): Credentials;
  /** The session: the access token, refreshed when needed (one refresh at a time). */
  session(): Promise<Session>;
  /** The service's API client: auth, refresh, rate limits, retries. */
  api(): Promise<ApiClient>;
  /** For URLs that are not the service (webhook receivers): the same transport, no token or tenant. */
  http(): Promise<PlainSend>;
  /** The API client for a login, whose base URL and workspace may come from the prompt. */
  loginClient(baseUrl: string, workspace: string | undefined): Promise<ApiClient>;
}

/** What one call of a long-lived front end brings of its own (ProcessContext.forCall). */
export interface CallInit {
  /** The call's messages: never the process's stdout (the MCP server's stdout is JSON-RPC). */
  io: IO;
  /** Aborted when the call is cancelled; the process's own signal (SIGINT, SIGTERM) stops it too. */
  signal: AbortSignal;
  /** The command line the call stands for (`scans wait scn_1`), for the resume commands in its messages. */
  argv?: string[];
  /** Global options of this call over the process's (the MCP server asks every verb for -o json). */
  globals?: Partial<GlobalOptions>;
}

/**
 * A context that makes one context per call of a long-lived front end (the MCP server), sharing its session and
 * rate-limit budget with every call (src/core/process-context.ts).
 */
export interface CallContexts {
  forCall(init: CallInit): Context;
}
