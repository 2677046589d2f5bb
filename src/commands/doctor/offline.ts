// The checks of `cssctl doctor` that need no network: config.json and the profile, the credential store, the
// stored session, the versions, the proxy variables. Each answers one line; none throws.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { release } from 'node:os';
import type { Context } from '../../core/context.js';
import type { LoadedTokens } from '../../core/credentials.js';
import { CliError, InterruptedError } from '../../core/errors.js';
import type { Session } from '../../core/http/session.js';
import { KeychainLockedError } from '../../core/keychain.js';
import type { Settings } from '../../core/settings.js';
import { isLoopbackHost } from '../../core/url.js';
import { VERSION } from '../../version.js';
import { describeExpiry } from '../auth/status.js';
import { check, type Check } from './check.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const hintOf = (err: unknown, fallback: string | null = null) =>
  (err instanceof CliError && err.hint) || fallback;

/** config.json: readable, and a valid object. */
export function configCheck(ctx: Context): Check {
  const store = ctx.configSync();
  if (store.fileError) return check('config', 'fail', message(store.fileError), hintOf(store.fileError));
  if (!existsSync(store.path)) {
    if (ctx.env.CSSCTL_BASE_URL && ctx.env.CSSCTL_TOKEN)
      return check('config', 'ok', `no ${store.path}: the settings come from the environment`);
    return check(
      'config',
      'warn',
      `no ${store.path} yet`,
      'run cssctl login --base-url <url> -w <workspace>',
    );
  }
  const names = store.profileNames();
  return check(
    'config',
    'ok',
    `${store.path}: ${names.length} ${names.length === 1 ? 'profile' : 'profiles'}${names.length ? ` (${names.join(', ')})` : ''}`,
  );
}

const FROM = {
  flag: 'from --profile',
  env: 'from CSSCTL_PROFILE',
  config: 'default_profile in config.json',
  default: 'the built-in profile',
};

/** The active profile: it exists, and its base URL and workspace are set and valid. */
export function profileCheck(ctx: Context): { check: Check; settings?: Settings } {
  let settings: Settings;
  let name: string;
  let from: string;
  try {
    const active = ctx.activeProfile();
    name = active.name;
    from = FROM[active.source];
    settings = ctx.settingsSync();
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return { check: check('profile', 'fail', message(err), hintOf(err)) };
  }
  const problems = (['base_url', 'workspace', 'output', 'email'] as const)
    .map((key) => [key, settings.problem(key)] as const)
    .filter(([, p]) => p !== undefined);
  if (problems.length > 0) {
    const [key] = problems[0]!;
    return {
      check: check(
        'profile',
        'fail',
        problems.map(([, p]) => p).join('; '),
        `cssctl config set ${key} <value> (or cssctl config unset ${key})`,
      ),
    };
  }
  if (!settings.baseUrl)
    return {
      check: check(
        'profile',
        'fail',
        `profile "${name}" (${from}) has no service address`,
        'pass --base-url, set CSSCTL_BASE_URL, or run cssctl login --base-url <url>',
      ),
      settings,
    };
  if (!settings.workspace)
    return {
      check: check(
        'profile',
        'fail',
        `profile "${name}" (${from}) has no workspace`,
        'pass -w <slug>, set CSSCTL_WORKSPACE, or run cssctl config set workspace <slug>',
      ),
      settings,
    };
  return {
    check: check(
      'profile',
      'ok',
      `"${name}" (${from}): ${settings.baseUrl}, workspace ${settings.workspace}`,
    ),
    settings,
  };
}

/** The modes of credentials.json and its folder (never changed here: only said). */
function fileModes(
  dir: string,
  path: string,
): { status: 'ok' | 'warn' | 'fail'; notes: string[]; hints: string[] } {
  const out = { status: 'ok' as 'ok' | 'warn' | 'fail', notes: [] as string[], hints: [] as string[] };
  if (process.platform === 'win32') return out;
  const mode = (m: number) => (m & 0o777).toString(8).padStart(4, '0');
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) {
      out.status = 'fail';
      out.notes.push(`${path} is a symbolic link, which cssctl will not write through`);
      out.hints.push(`remove ${path} and log in again`);
    } else if ((st.mode & 0o077) !== 0) {
      out.status = 'fail';
      out.notes.push(`${path} can be read by other users (mode ${mode(st.mode)})`);
      out.hints.push(`chmod 600 ${path}`);
    } else out.notes.push(`${path} (mode ${mode(st.mode)})`);
  } catch {
    out.notes.push(`no ${path} yet`);
  }
  try {
    const st = statSync(dir);
    if ((st.mode & 0o077) !== 0) {
      if (out.status === 'ok') out.status = 'warn';
      out.notes.push(`${dir} can be read by other users (mode ${mode(st.mode)})`);
      out.hints.push(`chmod 700 ${dir}`);
    }
  } catch {
    // no folder yet: nothing is stored
  }
  return out;
}

/** The credential store: the keychain answering (and not locked), or the file store's modes. */
export async function credentialsCheck(ctx: Context): Promise<Check> {
  let credentials;
  try {
    credentials = ctx.credentials();
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return check('credentials', 'fail', message(err), hintOf(err));
  }
  const file = credentials.file;
  const modes = fileModes(file.dir, file.path);
  const fileLine = (lead: string, status: 'ok' | 'warn' = 'ok', hint: string | null = null) => {
    const worst =
      modes.status === 'fail' ? 'fail' : status === 'warn' || modes.status === 'warn' ? 'warn' : 'ok';
    const hints = [...(hint ? [hint] : []), ...modes.hints];
    return check(
      'credentials',
      worst,
      `${lead}: ${modes.notes.join('; ')}`,
      hints.length ? hints.join('; ') : null,
    );
  };
  const mode = `CSSCTL_CREDENTIAL_STORE=${credentials.mode}`;
  if (credentials.mode === 'file') return fileLine(`the file store (${mode})`);
  let keychain;
  try {
    keychain = await credentials.keychain(true);
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return check('credentials', 'fail', message(err), hintOf(err));
  }
  if (!keychain) {
    const why = credentials.unreachableReason;
    if (credentials.mode === 'keychain')
      return check(
        'credentials',
        'fail',
        `no OS keychain could be reached${why ? `: ${why}` : ''} (${mode})`,
        'start a keyring/Secret Service, or set CSSCTL_CREDENTIAL_STORE=file',
      );
    if (why)
      return fileLine(
        `${why}, so the file store is used (${mode})`,
        'warn',
        'unlock or restart the keyring, or set CSSCTL_CREDENTIAL_STORE=file to stop asking it',
      );
    const where =
      process.platform === 'linux' && !ctx.env.DBUS_SESSION_BUS_ADDRESS ? ' (no D-Bus session)' : '';
    return fileLine(`no OS keychain here${where}, so the file store is used (${mode})`);
  }
  try {
    // The profile's own item: a locked collection answers the probe but not this.
    await keychain.get(ctx.profileName);
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    if (err instanceof KeychainLockedError)
      return check('credentials', 'fail', `${err.message} (${mode})`, err.hint ?? null);
    return check('credentials', 'fail', message(err), hintOf(err, 'try again when the keychain answers'));
  }
  return check('credentials', 'ok', `the OS keychain answers (${mode})`);
}

export interface SessionFacts {
  session?: Session;
  current?: LoadedTokens;
}

/** The stored session: logged in, where, and when the access token expires. */
export async function sessionCheck(ctx: Context): Promise<{ check: Check } & SessionFacts> {
  let session: Session;
  let current: LoadedTokens | undefined;
  try {
    session = await ctx.session();
    current = await session.current();
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return { check: check('session', 'fail', message(err), hintOf(err)) };
  }
  const name = ctx.profileName;
  if (!current)
    return {
      check: check('session', 'fail', `not logged in (profile "${name}")`, 'run cssctl login'),
      session,
    };
  const now = ctx.clock.now();
  const t = current.tokens;
  const expiry = describeExpiry(t.expires_at, now);
  if (current.source === 'env') {
    const expired = t.expires_at > 0 && t.expires_at <= now;
    return {
      check: check(
        'session',
        expired ? 'fail' : 'ok',
        `CSSCTL_TOKEN is set and used as it is (never refreshed)${expiry === 'unknown' ? '; its expiry is unknown (it carries no exp)' : `; it expires ${expiry}`}`,
        expired ? 'set a fresh CSSCTL_TOKEN, or unset it and run cssctl login' : null,
      ),
      session,
      current,
    };
  }
  let email = '';
  try {
    email = (await ctx.settings()).email ?? '';
  } catch {
    // said by the profile check
  }
  const who = `logged in${email ? ` as ${email}` : ''} (profile "${name}", ${current.source})`;
  if (t.expires_at <= now && !t.refresh_token)
    return {
      check: check(
        'session',
        'fail',
        `${who}; the access token ${expiry} and there is no refresh token`,
        'run cssctl login',
      ),
      session,
      current,
    };
  const renewed = t.expires_at <= now ? '; renewed on the next command' : '';
  return {
    check: check('session', 'ok', `${who}; the access token expires ${expiry}${renewed}`),
    session,
    current,
  };
}

/** The versions of cssctl, Node and the platform. */
export function versionsCheck(): Check {
  const sea = process.getBuiltinModule('node:sea')?.isSea() ?? false;
  return check(
    'versions',
    'ok',
    `cssctl ${VERSION} (${sea ? 'single executable' : 'npm package'}), Node ${process.versions.node}, ${process.platform}-${process.arch} ${release()}`,
  );
}

/** A proxy URL as it may be shown: no user name or password. */
export function redactProxy(value: string): string {
  try {
    const u = new URL(value);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return value.replace(/\/\/[^/@]*@/, '//***@');
  }
}

/** Whether NO_PROXY sends `host:port` direct, as undici's EnvHttpProxyAgent reads it. */
export function noProxyMatches(noProxy: string, hostname: string, port: number): boolean {
  const host = hostname
    .replace(/^\[(.+)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  for (const raw of noProxy.split(/[,\s]/)) {
    if (!raw) continue;
    const v6 = raw.match(/^\[(.+)\]:(\d+)$/);
    let name: string;
    let p: number;
    if (v6) {
      name = v6[1]!;
      p = Number(v6[2]);
    } else {
      const bare = raw.replace(/^\[(.+)\]$/, '$1');
      const hp = (bare.match(/:/g) ?? []).length === 1 ? bare.match(/^(.+):(\d+)$/) : null;
      name = hp ? hp[1]! : bare;
      p = hp ? Number(hp[2]) : 0;
    }
    const wildcard = raw.startsWith('*');
    name = name
      .replace(/^\*?\./, '')
      .replace(/^(.+)\.$/, '$1')
      .toLowerCase();
    if (p && p !== port) continue;
    if (name === '*') return true;
    if (!wildcard && host === name) return true;
    if (host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy variables that apply to the service (loopback never goes through one). */
export function proxyCheck(
  env: NodeJS.ProcessEnv,
  baseUrl: string | undefined,
): { check: Check; via?: { host: string; port: number } } {
  const names = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'];
  const set = names.filter((n) => env[n] !== undefined && env[n] !== '');
  const all = ['ALL_PROXY', 'all_proxy'].filter((n) => env[n]);
  const shown = set
    .filter((n) => !n.toLowerCase().startsWith('no_'))
    .map((n) => `${n}=${redactProxy(env[n]!)}`)
    .concat(set.filter((n) => n.toLowerCase().startsWith('no_')).map((n) => `${n}=${env[n]}`));
  const allNote =
    all.length > 0
      ? `${all.join(' and ')} ${all.length === 1 ? 'is' : 'are'} set, but cssctl uses only HTTPS_PROXY, HTTP_PROXY and NO_PROXY`
      : '';
  const withAll = (c: Check): Check =>
    all.length > 0 && c.status === 'ok'
      ? check(
          'proxy',
          'warn',
          `${c.detail}; ${allNote}`,
          'set HTTPS_PROXY if the service must be reached through a proxy',
        )
      : c;
  if (set.length === 0)
    return { check: withAll(check('proxy', 'ok', 'no proxy variable set: the service is reached directly')) };
  if (!baseUrl) return { check: withAll(check('proxy', 'ok', shown.join(', '))) };
  const url = new URL(baseUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (isLoopbackHost(url.hostname))
    return {
      check: withAll(
        check(
          'proxy',
          'ok',
          `${shown.join(', ')}; ${url.hostname} is loopback, reached directly, never through a proxy`,
        ),
      ),
    };
  // As undici's EnvHttpProxyAgent: the lower-case name first; https falls back to the http proxy.
  const httpName =
    env.http_proxy !== undefined ? 'http_proxy' : env.HTTP_PROXY !== undefined ? 'HTTP_PROXY' : undefined;
  const httpsName =
    env.https_proxy !== undefined ? 'https_proxy' : env.HTTPS_PROXY !== undefined ? 'HTTPS_PROXY' : undefined;
  let chosen = url.protocol === 'https:' ? httpsName : httpName;
  if (chosen && !env[chosen]) chosen = undefined;
  if (!chosen && url.protocol === 'https:') chosen = httpName && env[httpName] ? httpName : undefined;
  if (!chosen)
    return {
      check: withAll(
        check(
          'proxy',
          'ok',
          `${shown.join(', ')}; none applies to ${url.protocol}// requests: the service is reached directly`,
        ),
      ),
    };
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  if (noProxyMatches(noProxy, url.hostname, port))
    return {
      check: withAll(
        check('proxy', 'ok', `${shown.join(', ')}; NO_PROXY matches ${url.hostname}: it is reached directly`),
      ),
    };
  const value = env[chosen]!;
  let proxy: URL;
  try {
    proxy = new URL(value);
    if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return {
      check: check(
        'proxy',
        'fail',
        `${chosen}=${redactProxy(value)} is not an http:// or https:// URL`,
        `set ${chosen} to a URL such as http://proxy.example.com:3128, or unset it`,
      ),
    };
  }
  return {
    check: withAll(
      check('proxy', 'ok', `${chosen}=${redactProxy(value)} applies: ${url.hostname} is reached through it`),
    ),
    via: {
      host: proxy.hostname,
      port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
    },
  };
}
