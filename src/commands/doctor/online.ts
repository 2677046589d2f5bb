// The checks of `cssctl doctor` that talk to the service, in the order a request meets its obstacles: the name,
// the connection, TLS, the session's refresh, the API, then what its answer says of the clock and the rate limit.
// A check that cannot get through ends the run's online part: the ones after it would only repeat its failure.
import { existsSync } from 'node:fs';
import { probeApi } from '../../api/probe.js';
import type { Context } from '../../core/context.js';
import { formatWait } from '../../core/durations.js';
import { ApiError, AuthError, CliError, InterruptedError, NetworkError } from '../../core/errors.js';
import { isCertificateError } from '../../core/http/transport.js';
import type { HttpResponse } from '../../core/http/types.js';
import type { Settings } from '../../core/settings.js';
import { isLoopbackHost } from '../../core/url.js';
import { describeExpiry } from '../auth/status.js';
import { check, type Check } from './check.js';
import type { SessionFacts } from './offline.js';
import { ProbeError, type Probes } from './probes.js';

/** Past these the clock is a warning, then a failure (tokens would look expired). */
export const CLOCK_WARN_S = 60;
export const CLOCK_FAIL_S = 300;
/** An answer slower than this is a warning. */
export const SLOW_MS = 2000;
/** A certificate closer than this to its end is a warning. */
const CERT_SOON_MS = 14 * 24 * 3600_000;
/** The probes' bound (a shorter --timeout wins). */
const PROBE_TIMEOUT_MS = 10_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const hintOf = (err: unknown, fallback: string | null = null) =>
  (err instanceof CliError && err.hint) || fallback;

/** What to do about a certificate this machine does not trust: where NODE_EXTRA_CA_CERTS stands. */
export function caHint(env: NodeJS.ProcessEnv): string {
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (!extra)
    return 'to trust a private CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem (the CA that signed it, in PEM)';
  if (!existsSync(extra)) return `NODE_EXTRA_CA_CERTS=${extra} names no file: point it at the CA's PEM file`;
  return `NODE_EXTRA_CA_CERTS=${extra} does not hold the CA that signed this certificate: add that CA's PEM to it`;
}

function tlsFailure(env: NodeJS.ProcessEnv, where: string, err: ProbeError): Check {
  const why = err.message.split(';')[0];
  if (
    err.code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    err.code === 'ERR_SSL_HTTP_REQUEST' ||
    /wrong version number/i.test(err.message)
  )
    return check('tls', 'fail', `${where} speaks plain HTTP, not HTTPS`, 'check the port in base_url');
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return check(
      'tls',
      'fail',
      `the TLS certificate of ${where} is not for this name: ${why}`,
      'use in base_url a name the certificate holds',
    );
  if (err.code === 'CERT_HAS_EXPIRED')
    return check(
      'tls',
      'fail',
      `the TLS certificate of ${where} has expired`,
      "the service's operator must renew it; check the local clock too",
    );
  if (isCertificateError(err.code))
    return check('tls', 'fail', `the TLS certificate of ${where} is not accepted: ${why}`, caHint(env));
  return check(
    'tls',
    'fail',
    `no TLS handshake with ${where}: ${why}`,
    'check base_url and any proxy or firewall in the way',
  );
}

function elapsed(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The API's answer to the probe, or why there was none. */
type Answer = { res: HttpResponse; ms: number; mid: number; authed: boolean } | { error: unknown };

export async function* onlineChecks(
  ctx: Context,
  probes: Probes,
  o: { settings: Settings; baseUrl: string; via?: { host: string; port: number }; facts: SessionFacts },
): AsyncGenerator<Check> {
  const url = new URL(o.baseUrl);
  const https = url.protocol === 'https:';
  const port = Number(url.port) || (https ? 443 : 80);
  const timeout = Math.min(o.settings.timeoutMs, PROBE_TIMEOUT_MS);
  const target = o.via ?? { host: url.hostname, port };
  const what = o.via ? `the proxy ${target.host}` : target.host;
  const clock = ctx.clock;

  // DNS
  let started = clock.now();
  try {
    const addresses = await probes.resolve(target.host, timeout, ctx.signal);
    const bare = target.host.replace(/^\[(.*)\]$/, '$1');
    yield addresses.length === 1 && addresses[0] === bare
      ? check('dns', 'ok', `${bare} is an address: nothing to resolve`)
      : check(
          'dns',
          'ok',
          `${what} resolves to ${addresses.slice(0, 3).join(', ')}${addresses.length > 3 ? ` and ${addresses.length - 3} more` : ''} (${elapsed(clock.now() - started)})`,
        );
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    yield check(
      'dns',
      'fail',
      `cannot resolve ${what}: ${message(err)}`,
      o.via
        ? 'check the proxy variable'
        : 'check the host in base_url (cssctl config get base_url), your DNS or VPN',
    );
    return;
  }

  // TCP
  started = clock.now();
  try {
    await probes.connect(target.host, target.port, timeout, ctx.signal);
    yield check('tcp', 'ok', `connected to ${what}:${target.port} (${elapsed(clock.now() - started)})`);
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    const code = err instanceof ProbeError ? err.code : '';
    yield code === 'ECONNREFUSED'
      ? check(
          'tcp',
          'fail',
          `nothing listens at ${what}:${target.port} (connection refused)`,
          o.via ? 'is the proxy running?' : 'is the service running, and is the port in base_url right?',
        )
      : check(
          'tcp',
          'fail',
          `no connection to ${what}:${target.port}: ${message(err)}`,
          'a firewall may drop the connection; if a proxy is needed, set HTTPS_PROXY',
        );
    return;
  }

  // TLS, directly; through a proxy its verdict is the API request's (the tunnel is the proxy's to open).
  const where = `${url.hostname}:${port}`;
  if (!https) {
    yield isLoopbackHost(url.hostname)
      ? check('tls', 'ok', 'plain HTTP to a loopback address: no TLS, and nothing leaves this machine')
      : check('tls', 'fail', `plain HTTP to ${url.hostname}`, 'use an https:// base_url');
  } else if (!o.via) {
    try {
      const tls = await probes.tls(url.hostname, port, timeout, ctx.signal);
      const left = tls.validTo - clock.now();
      const until = Number.isFinite(tls.validTo)
        ? new Date(tls.validTo).toISOString().slice(0, 10)
        : 'unknown';
      const detail = `${tls.protocol}, certificate issued by ${tls.issuer || 'an unnamed issuer'}, valid until ${until}`;
      yield left < CERT_SOON_MS
        ? check(
            'tls',
            'warn',
            `${detail}: it ends in ${Math.max(0, Math.floor(left / 86_400_000))} days`,
            "the service's operator must renew it soon",
          )
        : check('tls', 'ok', detail);
    } catch (err) {
      if (err instanceof InterruptedError) throw err;
      yield tlsFailure(ctx.env, where, err instanceof ProbeError ? err : new ProbeError(message(err), ''));
      return;
    }
  }

  // The session: a refresh, done (its tokens saved as any refresh saves them), never shown.
  const { session, current } = o.facts;
  if (session && current) {
    if (current.source === 'env') {
      yield check('refresh', 'ok', 'CSSCTL_TOKEN is used as it is: nothing to refresh');
    } else if (!current.tokens.refresh_token) {
      yield check(
        'refresh',
        'warn',
        'no refresh token is stored: when the access token expires, log in again',
        'run cssctl login',
      );
    } else {
      try {
        const { tokens } = await session.forceRefresh();
        yield check(
          'refresh',
          'ok',
          `a refresh works: the new access token expires ${describeExpiry(tokens.expires_at, clock.now())}`,
        );
      } catch (err) {
        if (err instanceof InterruptedError) throw err;
        yield err instanceof AuthError
          ? check(
              'refresh',
              'fail',
              `the service refused the refresh token: ${refusal(err)}`,
              'run cssctl login',
            )
          : check('refresh', 'fail', `the refresh failed: ${message(err)}`, hintOf(err));
      }
    }
  }

  // The API, with the session's token when there is one.
  let token: string | undefined;
  if (session && current) {
    try {
      token = await session.accessToken();
    } catch (err) {
      if (err instanceof InterruptedError) throw err;
      token = undefined; // said by the session or refresh check; the API is still asked, without a token
    }
  }
  const answer = await ask(ctx, o.baseUrl, o.settings.workspace, token);
  if (https && o.via) {
    if ('error' in answer && answer.error instanceof NetworkError && answer.error.kind === 'tls') {
      yield check('tls', 'fail', message(answer.error), caHint(ctx.env));
      return;
    }
    if (!('error' in answer))
      yield check('tls', 'ok', `accepted through the proxy ${target.host}:${target.port}`);
  }
  if ('error' in answer) {
    yield check('api', 'fail', message(answer.error), hintOf(answer.error));
    return;
  }
  yield apiCheck(answer);
  yield clockCheck(answer);
  // X-RateLimit-Reset is the service's time: read against its clock (its Date header), not a local one that may
  // be off.
  const serviceDate = Date.parse(answer.res.headers.date ?? '');
  yield rateLimitCheck(
    answer,
    Number.isFinite(serviceDate) ? serviceDate + 500 + (clock.now() - answer.mid) : clock.now(),
  );
}

/** Why a refresh was refused, in the service's words when it gave some. */
function refusal(err: AuthError): string {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof ApiError && cause.detail) return cause.detail;
  return err.message;
}

async function ask(
  ctx: Context,
  baseUrl: string,
  workspace: string | undefined,
  token: string | undefined,
): Promise<Answer> {
  try {
    const send = await ctx.http();
    const t0 = ctx.clock.now();
    const res = await probeApi(send, { baseUrl, workspace, token, signal: ctx.signal });
    const t1 = ctx.clock.now();
    return { res, ms: t1 - t0, mid: (t0 + t1) / 2, authed: token !== undefined };
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return { error: err };
  }
}

function apiCheck(a: { res: HttpResponse; ms: number; authed: boolean }): Check {
  const { res, ms, authed } = a;
  const took = `in ${elapsed(ms)}`;
  const detail = (): string => {
    const e = ApiError.fromResponse(res.status, res.body, { method: 'GET', url: '' });
    return e.detail ? `: ${e.detail}` : '';
  };
  if (res.status >= 200 && res.status < 300) {
    const json = res.body.trim() === '' || isJson(res.body);
    if (!json)
      return check(
        'api',
        'fail',
        `HTTP ${res.status} ${took}, with a body that is not JSON: this is not the service's API`,
        'check base_url: the service address, without /api/v1',
      );
    if (!authed) return check('api', 'ok', `the API answers (HTTP ${res.status}, ${took})`);
    return ms > SLOW_MS
      ? check(
          'api',
          'warn',
          `the API answers, slowly: HTTP ${res.status} ${took}`,
          'raise --timeout if commands time out',
        )
      : check('api', 'ok', `the API answers: HTTP ${res.status} ${took}`);
  }
  if (res.status === 401)
    return authed
      ? check('api', 'fail', `the service refused the access token (HTTP 401${detail()})`, 'run cssctl login')
      : check('api', 'ok', `the API answers (HTTP 401 without a session, ${took})`);
  if (res.status === 403)
    return check(
      'api',
      'warn',
      `the API answers, but this account may not list connections (HTTP 403${detail()})`,
      'ask an owner of the workspace for the role you need',
    );
  if (res.status === 404)
    return check(
      'api',
      'fail',
      `HTTP 404 for the API${detail()}`,
      'check base_url: the service address, without /api/v1',
    );
  if (res.status === 429)
    return check(
      'api',
      'warn',
      `the API answers, rate limited (HTTP 429, ${took})`,
      'see the rate-limit line',
    );
  if (res.status >= 500)
    return check(
      'api',
      'fail',
      `the service has a problem (HTTP ${res.status}${detail()})`,
      'try again later; tell its operator if it lasts',
    );
  return check('api', 'warn', `the API answers HTTP ${res.status}${detail()} (${took})`);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The local clock against the service's Date header, read at the middle of the exchange. */
function clockCheck(a: { res: HttpResponse; mid: number }): Check {
  const date = a.res.headers.date;
  const at = date === undefined ? NaN : Date.parse(date);
  if (!Number.isFinite(at))
    return check('clock', 'warn', "the service's answer has no Date header: the clock could not be compared");
  // The header counts whole seconds (the time cut down to one): the service's clock read it half a second on.
  const skewS = Math.round((a.mid - (at + 500)) / 1000);
  const s = Math.abs(skewS);
  if (s <= CLOCK_WARN_S) return check('clock', 'ok', `within ${Math.max(1, s)} s of the service's clock`);
  const side = `the local clock is ${formatWait(s * 1000)} ${skewS > 0 ? 'ahead of' : 'behind'} the service's`;
  const sync = 'set the clock right: turn on time sync (NTP), e.g. timedatectl set-ntp true';
  return s > CLOCK_FAIL_S
    ? check('clock', 'fail', `${side}: tokens would look expired (or not yet valid)`, sync)
    : check('clock', 'warn', `${side}: over ${CLOCK_FAIL_S / 60} minutes, tokens would look expired`, sync);
}

/** What the answer's X-RateLimit-* headers say is left of the workspace's budget. */
function rateLimitCheck(a: { res: HttpResponse }, now: number): Check {
  const h = a.res.headers;
  const limit = Number(h['x-ratelimit-limit']);
  const remaining = Number(h['x-ratelimit-remaining']);
  const reset = Number(h['x-ratelimit-reset']);
  if (h['x-ratelimit-remaining'] === undefined || !Number.isFinite(remaining))
    return check('rate-limit', 'ok', 'the service sent no rate-limit headers');
  const resets =
    Number.isFinite(reset) && reset * 1000 > now ? `; it resets in ${formatWait(reset * 1000 - now)}` : '';
  const of = Number.isFinite(limit) ? ` of ${limit}` : '';
  if (remaining <= 0 || a.res.status === 429)
    return check(
      'rate-limit',
      'warn',
      `no request left${of ? ` (limit ${limit})` : ''}${resets}`,
      "commands wait for the reset (up to --max-wait); another job may be spending this workspace's budget",
    );
  if (Number.isFinite(limit) && remaining < limit / 10)
    return check(
      'rate-limit',
      'warn',
      `${remaining}${of} requests left${resets}`,
      "another job may be spending this workspace's budget",
    );
  return check('rate-limit', 'ok', `${remaining}${of} requests left${resets}`);
}
