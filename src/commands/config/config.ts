import type { Context } from '../../core/context.js';
import {
  CONFIG_KEYS,
  REPORT_FORMATS,
  isConfigKey,
  validateConfigValue,
  type ConfigKey,
} from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { list as listOutput, record, text, type Result } from '../../report/result.js';
import type { StoreKind } from '../../core/credentials.js';
import { settingsLenient } from '../shared/default-profile.js';
import type { ArgsOf } from '../shared/define.js';
import type { getCommand, setCommand, unsetCommand } from './config.command.js';

function key(raw: string | undefined): ConfigKey {
  const k = (raw ?? '').trim().toLowerCase().replace(/-/g, '_');
  if (!isConfigKey(k))
    throw new UsageError(`unknown config key "${raw}": use one of ${CONFIG_KEYS.join(', ')}`);
  return k;
}

/**
 * Every key with its effective value and where that value comes from (flag, env, profile, default). A value
 * that is invalid is shown as it is, marked invalid, with a warning naming the problem — never an error, so
 * a broken profile can be inspected and fixed.
 */
export async function list(ctx: Context): Promise<Result> {
  // A default_profile that chooses no profile is shown as the problem it is, with its fix (§6).
  const s = settingsLenient(ctx);
  const output = s.outputOr('table');
  const shown = (k: ConfigKey): string => {
    if (!s.problem(k)) return s.values[k] ?? '';
    const raw = s.raw(k);
    if (raw === undefined) return '(invalid)';
    return `${typeof raw === 'string' ? raw : JSON.stringify(raw)} (invalid)`;
  };
  // Each problem once: a profile that is not an object is one problem, not one per key.
  const problems = new Set(CONFIG_KEYS.map((k) => s.problem(k)).filter((p) => p !== undefined));
  for (const problem of problems) ctx.io.warn(problem);
  const rows = CONFIG_KEYS.map((k) => ({ key: k, value: shown(k), source: s.sources[k] }));
  if (output === 'json' || output === 'ndjson') {
    const obj: Record<string, unknown> = Object.fromEntries(
      CONFIG_KEYS.map((k) => [k, s.problem(k) ? (s.raw(k) ?? null) : (s.values[k] ?? null)]),
    );
    const invalid = CONFIG_KEYS.filter((k) => s.problem(k));
    if (invalid.length > 0) obj.invalid = invalid;
    return record(obj, output);
  }
  const out = listOutput({
    source: rows,
    // A saved report format (junit, github…) is for the findings commands: this list is a table then.
    format: ['csv'].includes(output) ? output : 'table',
    noun: 'settings',
    columns: [
      { header: 'KEY', value: (r) => r.key },
      { header: 'VALUE', value: (r) => r.value },
      { header: 'SOURCE', value: (r) => r.source, style: (t, _r, c) => c.dim(t) },
    ],
  });
  return { output: out };
}

/** One key's effective value; an invalid one is an error naming config.json and the key (exit 2). */
export async function get(ctx: Context, _opts: unknown, [name]: ArgsOf<typeof getCommand>): Promise<Result> {
  const k = key(name);
  const s = await ctx.settings();
  const v = s.value(k);
  return v === undefined ? {} : text(`${v}\n`);
}

export async function set(
  ctx: Context,
  _opts: unknown,
  [name, given]: ArgsOf<typeof setCommand>,
): Promise<Result> {
  const k = key(name);
  let value = validateConfigValue(k, given ?? '');
  if (k === 'output' && REPORT_FORMATS.includes(value))
    throw new UsageError(`${value} is a report format for findings only; it cannot be the default output`);
  if (k === 'email') value = value.trim();
  // Only login creates a profile (cli-contract.md §2): a mistyped --profile is exit 2, never a new profile.
  ctx.requireProfile();
  await (await ctx.config()).update(ctx.profileName, { [k]: value });
  ctx.io.notice(`Set ${k} to ${value} (profile ${ctx.profileName})`);
  return {};
}

export async function unset(
  ctx: Context,
  _opts: unknown,
  [name]: ArgsOf<typeof unsetCommand>,
): Promise<Result> {
  const k = key(name);
  ctx.requireProfile(); // never creates an empty profile for a mistyped name
  await (await ctx.config()).update(ctx.profileName, { [k]: undefined });
  ctx.io.notice(`Unset ${k} (profile ${ctx.profileName})`);
  return {};
}

export async function path(ctx: Context): Promise<Result> {
  return text(`${(await ctx.config()).path}\n`);
}

interface ProfileRow {
  name: string;
  active: boolean;
  base_url: string | null;
  workspace: string | null;
  email: string | null;
  /** Where the profile's tokens are kept: never the tokens. */
  token_store: StoreKind | 'none' | 'unknown';
}

/**
 * The profiles of config.json: name, base URL, workspace, email, which one is active (the one this command
 * line would use) and where its token is kept — no secret. Works whatever the active profile is, so a
 * mistyped --profile can be looked up here.
 */
export async function profiles(ctx: Context): Promise<Result> {
  const output = ctx.outputLenient('table');
  const store = await ctx.config();
  const names = store.profileNames(); // a config.json that cannot be read is exit 1 here
  let active: string | undefined;
  try {
    active = ctx.activeProfile().name;
  } catch (err) {
    ctx.io.warn((err as Error).message); // an invalid default_profile: none is active
  }
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const credentials = ctx.credentials();
  const rows: ProfileRow[] = [];
  let storeProblem: string | undefined;
  for (const name of names) {
    let raw: Record<string, unknown> = {};
    try {
      raw = store.profile(name);
    } catch (err) {
      ctx.io.warn((err as Error).message);
    }
    let token: ProfileRow['token_store'] = 'none';
    try {
      const found = await credentials.load(name);
      if (found) {
        // Held only to name the store: the tokens themselves go nowhere.
        ctx.io.addSecret(found.tokens.access_token);
        token = found.source;
      }
    } catch (err) {
      token = 'unknown';
      storeProblem ??= (err as Error).message;
    }
    rows.push({
      name,
      active: name === active,
      base_url: text(raw.base_url),
      workspace: text(raw.workspace),
      email: text(raw.email),
      token_store: token,
    });
  }
  if (storeProblem) ctx.io.warn(`cannot tell where some tokens are kept: ${storeProblem}`);
  const out = listOutput<ProfileRow>({
    source: rows,
    format: output,
    noun: 'profiles',
    columns: [
      { header: 'ACTIVE', value: (r) => (r.active ? '*' : '') },
      { header: 'NAME', value: (r) => r.name, style: (t, _r, c) => c.bold(t) },
      { header: 'BASE URL', value: (r) => r.base_url ?? '' },
      { header: 'WORKSPACE', value: (r) => r.workspace ?? '' },
      { header: 'EMAIL', value: (r) => r.email ?? '' },
      { header: 'TOKEN', value: (r) => r.token_store },
    ],
  });
  return { output: out };
}
