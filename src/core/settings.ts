import {
  CONFIG_KEYS,
  checkProfileValue,
  validateOutput,
  validateWorkspace,
  type ConfigKey,
  type OutputFormat,
  type Profile,
  type RawProfile,
} from './config.js';
import { CliError, UsageError } from './errors.js';
import { normalizeBaseUrl } from './url.js';

// The settings of one command: flag > environment > profile > default (cli-contract.md §1), each profile value
// checked only when a verb reads it.

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
