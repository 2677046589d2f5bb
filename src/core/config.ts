import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { CliError, UsageError } from './errors.js';
import { assertNotLink, ensureDir, fsErrorText } from './files.js';
import { withFileLock } from './lock.js';
import { readStateFileSync } from './read-file.js';
import { normalizeBaseUrl } from './url.js';
import { ALL_FORMATS, REPORT_FORMATS as REPORT_FORMAT_NAMES, type OutputFormat } from './output/formats.js';

export const CONFIG_KEYS = ['base_url', 'workspace', 'email', 'output'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;

// The format names live in one list (src/core/output/formats.ts). Report formats (cli-contract.md §3) are offered
// by the findings and scan-report commands only, never a saved default.
export const OUTPUT_FORMATS = ALL_FORMATS;
export const REPORT_FORMATS: readonly string[] = REPORT_FORMAT_NAMES;
export type { OutputFormat };

/**
 * `$CSSCTL_CONFIG_DIR`, else the platform's config folder: on Windows `%APPDATA%\cssctl` (the roaming
 * application data of the user's profile); on macOS `$XDG_CONFIG_HOME/cssctl` when set, else
 * `~/Library/Preferences/cssctl`; elsewhere `$XDG_CONFIG_HOME/cssctl`, else `~/.config/cssctl`. The folder also
 * holds the state files (the rate-limit state, the lock files) and the file credential store.
 */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.CSSCTL_CONFIG_DIR) return env.CSSCTL_CONFIG_DIR;
  if (platform === 'win32') {
    // Windows paths (drive letters, backslashes) whatever the machine running this is (the tests fake it).
    const roaming = env.APPDATA || win32.join(env.USERPROFILE || homedir(), 'AppData', 'Roaming');
    return win32.join(roaming, 'cssctl');
  }
  const home = env.HOME || homedir();
  if (platform === 'darwin' && !env.XDG_CONFIG_HOME)
    return posix.join(home, 'Library', 'Preferences', 'cssctl');
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), 'cssctl');
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}": use letters, digits, '.', '_' or '-'`);
  }
  return name;
}

const WORKSPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export function validateWorkspace(slug: string): string {
  if (!WORKSPACE.test(slug)) {
    throw new UsageError(`invalid workspace slug "${slug}": use letters, digits, '.', '_' or '-'`);
  }
  return slug;
}

export function validateOutput(fmt: string): OutputFormat {
  const f = fmt.toLowerCase();
  if (!(OUTPUT_FORMATS as readonly string[]).includes(f)) {
    // The formats a profile can hold: a report format is for the findings commands (refused by the callers).
    const settable = OUTPUT_FORMATS.filter((o) => !REPORT_FORMATS.includes(o));
    throw new UsageError(`invalid output format "${fmt}": use one of ${settable.join(', ')}`);
  }
  return f as OutputFormat;
}

export function validateEmail(email: string): string {
  const e = email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(e)) throw new UsageError(`invalid email address "${email}"`);
  return e;
}

/** Checks and normalises a value for a profile key; throws a UsageError naming the problem. */
export function validateConfigValue(key: string, value: string): string {
  switch (key) {
    case 'base_url':
      return normalizeBaseUrl(value);
    case 'workspace':
      return validateWorkspace(value);
    case 'email':
      return validateEmail(value);
    case 'output':
      return validateOutput(value);
    default:
      throw new UsageError(`unknown config key "${key}": use one of ${CONFIG_KEYS.join(', ')}`);
  }
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/** A profile as config.json holds it: hand-edited, so any value may be of any type. */
export type RawProfile = Partial<Record<ConfigKey, unknown>>;

/** The error for a hand-edited profile value that is not valid: names config.json, the profile and the key. */
export function invalidProfileValue(
  file: string,
  profile: string,
  key: ConfigKey,
  problem: string,
): UsageError {
  return new UsageError(`${file}: invalid ${key} in profile "${profile}": ${problem}`, {
    hint: `fix it with cssctl config set ${key} <value>, or remove it with cssctl config unset ${key}`,
  });
}

/**
 * Checks one profile value read from config.json. A non-string is reported as such; a string goes through
 * the same validation as a flag, its message prefixed with the file and the key.
 */
export function checkProfileValue(file: string, profile: string, key: ConfigKey, raw: unknown): string {
  if (typeof raw !== 'string') {
    throw invalidProfileValue(file, profile, key, `expected a string, found ${describeJson(raw)}`);
  }
  try {
    const v = validateConfigValue(key, raw);
    if (key === 'output' && REPORT_FORMATS.includes(v))
      throw new UsageError(`${v} is a report format for findings only`);
    return v;
  } catch (err) {
    throw invalidProfileValue(file, profile, key, (err as Error).message);
  }
}

function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

interface ConfigShape {
  profiles: Record<string, unknown>;
  /** The profile used when neither --profile nor CSSCTL_PROFILE names one (`cssctl auth switch`). */
  default_profile?: unknown;
  [other: string]: unknown;
}

/**
 * The profiles in config.json. Reading is this module's own fast reader and never creates or changes anything
 * (read-only commands write nothing, cli-contract.md §6; no migration on a read); every change goes through
 * conf (config-writer.ts: schema, atomic write, migrations) under the config lock, with cssctl's own rules
 * first (0600 file, 0700 folder when cssctl creates it, never through a link).
 * A file that cannot be read is reported only when a value from it is needed, so `logout` still works.
 * Never holds a secret.
 */
export class ConfigStore {
  readonly path: string;
  private data: ConfigShape = { profiles: {} };
  private error?: CliError;

  private constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
    this.load();
  }

  static async open(dir: string): Promise<ConfigStore> {
    return new ConfigStore(dir);
  }

  static openSync(dir: string): ConfigStore {
    return new ConfigStore(dir);
  }

  private load(): void {
    let text: string;
    try {
      text = readStateFileSync(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.error = new CliError(`cannot read ${this.path}: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      this.error = this.unreadable(`not valid JSON (${(err as Error).message.split('\n')[0]})`);
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.error = this.unreadable('expected a JSON object');
      return;
    }
    const shape = parsed as Partial<ConfigShape>;
    const profiles = shape.profiles ?? {};
    if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) {
      this.error = this.unreadable('"profiles" must be an object');
      return;
    }
    this.data = { ...shape, profiles: profiles as Record<string, unknown> };
  }

  private unreadable(why: string): CliError {
    return new CliError(`cannot read ${this.path}: ${why}`, {
      hint: 'fix the file by hand or move it aside; cssctl will not overwrite it',
    });
  }

  /**
   * Why config.json itself cannot be used (unreadable, not JSON, not an object), or undefined. Every command
   * that reads settings fails with it (exit 1, one line naming the file); `config path` and `logout` do not.
   */
  get fileError(): CliError | undefined {
    return this.error;
  }

  /** The profile as stored (values unchecked); throws when config.json itself cannot be read. */
  profile(name: string): RawProfile {
    if (this.error) throw this.error;
    const p = Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
    if (p === undefined) return {};
    if (!p || typeof p !== 'object' || Array.isArray(p)) {
      throw new UsageError(`${this.path}: profile "${name}" must be an object`, {
        hint: 'fix the file by hand or move it aside',
      });
    }
    return { ...(p as RawProfile) };
  }

  profileNames(): string[] {
    if (this.error) throw this.error;
    return Object.keys(this.data.profiles);
  }

  hasProfile(name: string): boolean {
    return this.profileNames().includes(name);
  }

  /**
   * `default_profile`, checked: undefined when unset (or when the file cannot be read: the commands that
   * work whatever config.json holds then use `default`); a hand-edited value that is not a profile name is
   * a UsageError naming config.json and the key.
   */
  defaultProfile(): string | undefined {
    if (this.error) return undefined;
    const raw = this.data.default_profile;
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (typeof raw === 'string' && PROFILE_NAME.test(raw)) return raw;
    throw new UsageError(
      `${this.path}: invalid default_profile: expected a profile name, found ${describeJson(raw)}`,
      { hint: 'fix it with cssctl auth switch <profile>' },
    );
  }

  /** Makes `name` the default profile (`cssctl auth switch`), under the config lock. */
  async setDefaultProfile(name: string): Promise<void> {
    await this.change((data) => ({ ...data, default_profile: name }));
  }

  /**
   * Sets (string) or removes (undefined) keys of one profile in a single atomic write. Other keys, even
   * invalid ones, are kept as they are, so `config set` can fix one value without touching the rest.
   */
  async update(name: string, changes: Profile): Promise<void> {
    await this.change((data) => {
      const old = data.profiles[name];
      const next: Record<string, unknown> =
        old && typeof old === 'object' && !Array.isArray(old) ? { ...(old as object) } : {};
      for (const [k, v] of Object.entries(changes) as [ConfigKey, string | undefined][]) {
        if (v === undefined) delete next[k];
        else next[k] = v;
      }
      return { ...data, profiles: { ...data.profiles, [name]: next } };
    });
  }

  /**
   * Every change of config.json: read-modify-write under the config lock (the one mechanism of the refresh
   * lock, src/core/lock.ts), re-reading the file once the lock is held, so concurrent `cssctl` processes
   * (`config set` in parallel jobs, a login beside them) never lose each other's profiles (issue 20 #6).
   */
  private async change(edit: (data: ConfigShape) => ConfigShape): Promise<void> {
    await withFileLock(this.dir, 'config', async () => {
      this.error = undefined;
      this.data = { profiles: {} };
      this.load(); // the latest file: another process may have written since
      if (this.error) throw this.error;
      // conf (schema, atomic write, migrations) is loaded by the commands that write, never by a read. Where
      // its rules are not the contract's (§6), cssctl's go first: no write through a link (conf follows one),
      // a folder it creates is 0700 (conf's would be 0755), and errors are one line naming the file.
      ensureDir(this.dir);
      assertNotLink(this.path);
      const writer = await import('./config-writer.js');
      try {
        this.data = writer.writeConfig(this.dir, edit) as ConfigShape;
      } catch (err) {
        if (!writer.isSchemaViolation(err))
          throw new CliError(`cannot write ${this.path}: ${fsErrorText(err)}`, { cause: err });
        const where = secretIn(this.data, writer.SECRET_KEYS) ?? (err as Error).message;
        throw new CliError(`refusing to write ${this.path}: ${where}, and config.json never holds a secret`, {
          hint: 'remove it by hand; cssctl keeps tokens in the keychain or credentials.json',
          cause: err,
        });
      }
    });
  }
}

/** Where a secret sits in config.json as read (for the error when conf's schema refuses it), if anywhere. */
function secretIn(data: unknown, secretKeys: readonly string[]): string | undefined {
  const keysOf = (o: unknown) =>
    o && typeof o === 'object' && !Array.isArray(o) ? secretKeys.filter((k) => Object.hasOwn(o, k)) : [];
  const top = keysOf(data);
  if (top.length > 0) return `it holds ${top[0]}`;
  const profiles = (data as { profiles?: unknown } | null)?.profiles;
  if (!profiles || typeof profiles !== 'object') return undefined;
  for (const [name, p] of Object.entries(profiles)) {
    const found = keysOf(p);
    if (found.length > 0) return `profile "${name}" holds ${found[0]}`;
  }
  return undefined;
}
