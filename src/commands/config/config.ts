import type { Context } from '../../core/context.js';
import {
  CONFIG_KEYS,
  REPORT_FORMATS,
  isConfigKey,
  validateConfigValue,
  type ConfigKey,
} from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { writeList, writeObject } from '../../core/output.js';

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
export async function list(ctx: Context): Promise<void> {
  const s = await ctx.settings();
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
    return writeObject(ctx.io, output, obj);
  }
  await writeList(ctx.io, rows, {
    // A saved report format (junit, github…) is for the findings commands: this list is a table then.
    format: ['csv'].includes(output) ? output : 'table',
    noun: 'settings',
    columns: [
      { header: 'KEY', value: (r) => r.key },
      { header: 'VALUE', value: (r) => r.value },
      { header: 'SOURCE', value: (r) => r.source, style: (t, _r, c) => c.dim(t) },
    ],
  });
}

/** One key's effective value; an invalid one is an error naming config.json and the key (exit 2). */
export async function get(ctx: Context, _opts: unknown, args: string[]): Promise<void> {
  const k = key(args[0]);
  const s = await ctx.settings();
  const v = s.value(k);
  if (v !== undefined) ctx.io.out(`${v}\n`);
}

export async function set(ctx: Context, _opts: unknown, args: string[]): Promise<void> {
  const k = key(args[0]);
  let value = validateConfigValue(k, args[1] ?? '');
  if (k === 'output' && REPORT_FORMATS.includes(value))
    throw new UsageError(`${value} is a report format for findings only; it cannot be the default output`);
  if (k === 'email') value = value.trim();
  await (await ctx.config()).update(ctx.profileName, { [k]: value });
  ctx.io.notice(`Set ${k} to ${value} (profile ${ctx.profileName})`);
}

export async function unset(ctx: Context, _opts: unknown, args: string[]): Promise<void> {
  const k = key(args[0]);
  await (await ctx.config()).update(ctx.profileName, { [k]: undefined });
  ctx.io.notice(`Unset ${k} (profile ${ctx.profileName})`);
}

export async function path(ctx: Context): Promise<void> {
  ctx.io.out(`${(await ctx.config()).path}\n`);
}
