// Values read from the service when TAB is pressed (`cssctl __complete connections|scans`): connection
// aliases and recent scan ids. Bounded in time, quiet, read-only towards the credentials: the stored access
// token is used as it is (an expired one means no values — refreshing would write tokens), nothing is ever
// prompted for, and any failure is simply no values. What the service answered is kept a minute in the
// user's cache folder (bin/dirs.cjs: $XDG_CACHE_HOME/cssctl), without any token, so repeated TABs do not ask again.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir as userCacheDir } from '../../bin/dirs.cjs';
import { PassThrough } from 'node:stream';
import type { Scan } from '../api/findings-types.js';
import { normalizeBaseUrl } from '../core/url.js';
import { ensureDir } from '../core/files.js';
import type { Context } from '../core/context.js';
import type { GlobalOptions } from '../core/settings.js';
import { ProcessContext } from '../core/process-context.js';
import { Session, envToken } from '../core/http/session.js';
import { IO } from '../core/io.js';

export const REMOTE_SOURCES = ['connections', 'scans'] as const;
export type RemoteSource = (typeof REMOTE_SOURCES)[number];

/** The longest a TAB waits for the service, all included (keychain, connection, answer). */
export const REMOTE_TIMEOUT_MS = 1500;
/** How long an answer is reused without asking again. */
export const CACHE_TTL_MS = 60_000;
/** How many recent scans are offered. */
const RECENT_SCANS = 20;
const MAX_CONNECTIONS = 200;

/** The user's cache folder for cssctl (bin/dirs.cjs, the rule the launcher's code cache uses). */
export function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  return userCacheDir(env);
}

/** A name safe to offer to a shell: no whitespace, quotes or control characters. */
const SAFE = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,199}$/;

interface CacheEntry {
  at: number;
  values: string[];
}

function readCache(file: string, now: number): string[] | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
    if (typeof entry.at !== 'number' || !Array.isArray(entry.values)) return undefined;
    if (now - entry.at < 0 || now - entry.at > CACHE_TTL_MS) return undefined;
    return entry.values.filter((v): v is string => typeof v === 'string' && SAFE.test(v));
  } catch {
    return undefined;
  }
}

function writeCache(file: string, dir: string, entry: CacheEntry): void {
  try {
    ensureDir(dir); // not a recursive mkdir, which spins for ever under /proc
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A cache that cannot be written is no cache.
  }
}

/** A Context whose session never refreshes, so nothing at TAB time writes tokens (or waits on a lock). */
class CompletionContext extends ProcessContext {
  private readOnlySession?: Promise<Session>;

  override session(): Promise<Session> {
    const noRefresh = () => Promise.reject(new Error('no refresh when completing'));
    this.readOnlySession ??= Promise.resolve(
      new Session({
        profile: this.profileName,
        credentials: this.credentials(),
        clock: this.clock,
        envToken: envToken(this.env.CSSCTL_TOKEN),
        refresh: noRefresh,
        lock: noRefresh,
        baseUrl: () => this.settingsSync().baseUrl,
        profileBaseUrl: () => {
          const raw = this.configSync().profile(this.profileName).base_url;
          return typeof raw === 'string' ? normalizeBaseUrl(raw) : undefined;
        },
      }),
    );
    return this.readOnlySession;
  }
}

export interface RemoteOptions {
  env: NodeJS.ProcessEnv;
  /** --profile, --base-url and --workspace as typed on the command line being completed. */
  globals?: Pick<GlobalOptions, 'profile' | 'baseUrl' | 'workspace'>;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The values of a remote source for the profile and workspace in effect: from the cache when it is fresh,
 * else from the service within the time bound; [] on any failure (not logged in, an expired token, no
 * network, a slow service, an answer that is not a list).
 */
export async function remoteValues(source: RemoteSource, opts: RemoteOptions): Promise<string[]> {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? REMOTE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const deadline = new Promise<string[]>((resolve) =>
    controller.signal.addEventListener('abort', () => resolve([])),
  );
  const sink = () => new PassThrough().resume();
  try {
    const io = new IO(
      { stdin: new PassThrough(), stdout: sink(), stderr: sink() },
      { env: opts.env, quiet: true },
    );
    const ctx = new CompletionContext({
      io,
      env: opts.env,
      globals: { ...opts.globals, timeout: String(timeoutMs / 1000), maxWait: '0' },
      signal: controller.signal,
    });
    const settings = ctx.settingsSync();
    const baseUrl = settings.baseUrl;
    if (!baseUrl) return [];
    // No cache folder (no home): asked every time.
    const dir = cacheDir(opts.env);
    const key = createHash('sha256')
      .update(`${settings.profile}\n${baseUrl}\n${settings.workspace ?? ''}`)
      .digest('hex')
      .slice(0, 16);
    const file = dir === undefined ? undefined : join(dir, `complete-${source}-${key}.json`);
    const cached = file === undefined ? undefined : readCache(file, now());
    if (cached) return cached;
    const values = await Promise.race([fetchValues(ctx, source), deadline]);
    if (controller.signal.aborted) return [];
    if (file !== undefined && dir !== undefined) writeCache(file, dir, { at: now(), values });
    return values;
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

async function fetchValues(ctx: Context, source: RemoteSource): Promise<string[]> {
  const client = await ctx.api();
  if (source === 'connections') {
    const { listConnections } = await import('../api/connections.js');
    const page = await listConnections(client, { limit: MAX_CONNECTIONS });
    return unique(page.items.map((c) => c.alias));
  }
  const { listScans } = await import('../api/findings.js');
  const page = await listScans(client, { limit: RECENT_SCANS });
  return unique(page.items.map((s: Scan) => s.scan_id ?? (s as { id?: unknown }).id));
}

function unique(values: unknown[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && SAFE.test(v)))];
}
