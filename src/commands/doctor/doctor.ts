import type { Context } from '../../core/context.js';
import type { IO } from '../../core/io.js';
import { terminalText } from '../../core/terminal-text.js';
import { list, type Result, type Verb } from '../../report/result.js';
import type { Check } from './check.js';
import {
  configCheck,
  credentialsCheck,
  profileCheck,
  proxyCheck,
  sessionCheck,
  versionsCheck,
} from './offline.js';
import { onlineChecks } from './online.js';
import { networkProbes, type Probes } from './probes.js';

export type { Check } from './check.js';

/**
 * `cssctl doctor` (cli-contract.md §15): why cssctl does not work here, in one run. The offline checks first
 * (they answer even when the service is down), then the online ones; a line per check as it ends. Exit 1 when
 * a check failed; warnings are exit 0. No token, password or secret is ever part of a line: a refresh is done,
 * never shown, and a proxy's user name and password are masked.
 */
export const doctor: Verb<Record<string, never>> = (ctx) => runDoctor(ctx, networkProbes);

/** The verb with its network probes given (tests answer them). */
export async function runDoctor(ctx: Context, probes: Probes): Promise<Result> {
  const format = formatOf(ctx);
  const checks: Check[] = [];
  const run = async function* (): AsyncGenerator<Check> {
    for await (const c of allChecks(ctx, probes)) {
      checks.push(c);
      yield c;
    }
  };
  const finish = async () => {
    const failed = checks.filter((c) => c.status === 'fail');
    const data = { checks };
    if (failed.length === 0) return { data };
    return {
      data,
      failure: {
        kind: 'refused' as const,
        message: `${failed.length} ${failed.length === 1 ? 'check' : 'checks'} failed: ${failed.map((c) => c.name).join(', ')}`,
      },
    };
  };
  if (format === 'table') {
    const width = Math.max(...NAMES.map((n) => n.length));
    return {
      output: list<Check>({
        source: run(),
        format: 'table',
        columns: [],
        noun: 'checks',
        line: (c) => lineOf(ctx.io, c, width),
      }),
      finish,
    };
  }
  for await (const _ of run()) void _;
  return { output: { kind: 'value', value: { checks }, format }, finish };
}

/** Every check's name, in the order they run. */
export const NAMES = [
  'config',
  'profile',
  'credentials',
  'session',
  'versions',
  'proxy',
  'dns',
  'tcp',
  'tls',
  'refresh',
  'api',
  'clock',
  'rate-limit',
] as const;

async function* allChecks(ctx: Context, probes: Probes): AsyncGenerator<Check> {
  yield configCheck(ctx);
  const profile = profileCheck(ctx);
  yield profile.check;
  yield await credentialsCheck(ctx);
  // Without usable settings (config.json unreadable, no such profile) the profile line has said why.
  const session = profile.settings ? await sessionCheck(ctx) : undefined;
  if (session) yield session.check;
  yield versionsCheck();
  let baseUrl: string | undefined;
  try {
    baseUrl = profile.settings?.baseUrl;
  } catch {
    baseUrl = undefined;
  }
  const proxy = proxyCheck(ctx.env, baseUrl);
  yield proxy.check;
  if (!profile.settings || !baseUrl) return;
  yield* onlineChecks(ctx, probes, {
    settings: profile.settings,
    baseUrl,
    via: proxy.via,
    facts: session ?? {},
  });
}

/** -o json|ndjson (or --json, or a profile's saved json output): the document; anything else: the lines. */
function formatOf(ctx: Context): 'table' | 'json' | 'ndjson' {
  let format: string;
  try {
    format = ctx.outputLenient('table');
  } catch {
    format = 'table';
  }
  return format === 'json' || format === 'ndjson' ? format : 'table';
}

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'fail' } as const;

function lineOf(io: IO, c: Check, width: number): string {
  const paint = c.status === 'ok' ? io.color.green : c.status === 'warn' ? io.color.yellow : io.color.red;
  const text = terminalText(c.hint ? `${c.detail} — ${c.hint}` : c.detail);
  return `${paint(MARK[c.status])}  ${c.name.padEnd(width)}  ${text}`;
}
