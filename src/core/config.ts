import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import { CliError, UsageError } from './errors.js';
import { normalizeBaseUrl } from './url.js';

export const CONFIG_KEYS = ['base_url', 'workspace', 'email', 'output'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'sarif', 'junit', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

interface ConfigShape {
  profiles: Record<string, Profile>;
}

/** `$CSSCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/cssctl`, else the platform's config folder. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CSSCTL_CONFIG_DIR) return env.CSSCTL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'cssctl');
  if (process.platform === 'darwin' && !env.XDG_CONFIG_HOME)
    return join(home, 'Library', 'Preferences', 'cssctl');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'cssctl');
}

/** Creates the config folder private to the user (it may hold the fallback credential file). */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  else if (process.platform !== 'win32') {
    try {
      chmodSync(dir, 0o700);
    } catch {
      // A folder we do not own: leave it; the credential file itself is still 0600.
    }
  }
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
    throw new UsageError(`invalid output format "${fmt}": use one of ${OUTPUT_FORMATS.join(', ')}`);
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

/** The profiles in config.json, read and written through conf (atomic writes). Never holds a secret. */
export class ConfigStore {
  private constructor(
    private readonly conf: Conf<ConfigShape>,
    readonly dir: string,
  ) {}

  static async open(dir: string): Promise<ConfigStore> {
    ensurePrivateDir(dir);
    const { default: ConfCtor } = await import('conf');
    try {
      const conf = new ConfCtor<ConfigShape>({
        cwd: dir,
        configName: 'config',
        projectName: 'cssctl',
        projectSuffix: '',
        defaults: { profiles: {} },
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
        watch: false,
      });
      return new ConfigStore(conf, dir);
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new CliError(`cannot read ${join(dir, 'config.json')}: ${why}`, {
        hint: 'fix the file by hand or move it aside; cssctl will not overwrite it',
      });
    }
  }

  get path(): string {
    return this.conf.path;
  }

  profile(name: string): Profile {
    const profiles = this.conf.get('profiles');
    const p = profiles && typeof profiles === 'object' ? profiles[name] : undefined;
    return p && typeof p === 'object' ? { ...p } : {};
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {});
  }

  /** Sets (string) or removes (undefined) keys of one profile in a single atomic write. */
  update(name: string, changes: Profile): void {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    const next: Profile = { ...(profiles[name] ?? {}) };
    for (const [k, v] of Object.entries(changes) as [ConfigKey, string | undefined][]) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    profiles[name] = next;
    this.conf.set('profiles', profiles);
  }
}
