import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Credentials } from '../../src/core/credentials.js';
import { AuthError, UsageError, exitCodeFor, ApiError } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http/client.js';
import {
  MAX_TOKEN_LIFETIME_MS,
  Session,
  envToken,
  jwtExpiry,
  tokensFrom,
  type TokenResponse,
} from '../../src/core/http/session.js';
import { requestRefresh } from '../../src/core/http/refresh.js';
import { withFileLock } from '../../src/core/lock.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { scripted, type Reply } from '../helpers/fake-send.js';

function jwt(expSec: number): string {
  const b = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b({ alg: 'HS256', typ: 'JWT' })}.${b({ sub: 'u1', exp: expSec })}.sig`;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A refresh endpoint with rotation: each refresh token works once. */
function rotatingService(clock: FakeClock) {
  let n = 0;
  const valid = new Set(['r0']);
  const calls: string[] = [];
  const refresh = async (rt: string): Promise<TokenResponse> => {
    calls.push(rt);
    await new Promise((r) => setTimeout(r, 20)); // let a rival reach the lock meanwhile
    if (!valid.delete(rt)) {
      throw new ApiError({
        status: 401,
        method: 'POST',
        url: 'x',
        detail: 'refresh token reused',
        code: 'refresh_token_reused',
      });
    }
    n++;
    valid.add(`r${n}`);
    return { access_token: `a${n}`, refresh_token: `r${n}`, expires_in: 3600, token_type: 'bearer' };
  };
  return {
    refresh,
    calls,
    get now() {
      return clock.now();
    },
  };
}

async function makeSession(
  clock: FakeClock,
  opts: { expiresInMs: number; refresh?: (rt: string) => Promise<TokenResponse>; envToken?: string },
) {
  const credentials = new Credentials('file', dir, {});
  if (!opts.envToken) {
    await credentials.save('default', {
      access_token: 'a0',
      refresh_token: 'r0',
      expires_at: clock.now() + opts.expiresInMs,
    });
  }
  const svc = rotatingService(clock);
  const session = new Session({
    profile: 'default',
    credentials,
    clock,
    envToken: opts.envToken,
    refresh: opts.refresh ?? svc.refresh,
    lock: (fn) => withFileLock(dir, 'refresh-default', fn),
  });
  return { session, credentials, svc };
}

function client(session: Session, clock: FakeClock, replies: Reply[], baseUrl = 'http://127.0.0.1:8787') {
  const t = scripted(clock, replies);
  const api = new ApiClient({ baseUrl, workspace: 'acme', send: t.send, session: async () => session });
  return { api, t };
}

describe('session and refresh', () => {
  it('refreshes before a request when the token is already expired', async () => {
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: -5000 });
    const { api, t } = client(session, clock, [{ status: 200, body: '[]' }]);
    await api.request({ path: '/connections' });
    expect(svc.calls).toEqual(['r0']);
    expect(t.sent[0]!.req.headers.authorization).toBe('Bearer a1');
  });

  it('refreshes when the token expires within 60 s, not when it has longer', async () => {
    const clock = new FakeClock();
    const soon = await makeSession(clock, { expiresInMs: 59_000 });
    expect(await soon.session.accessToken()).toBe('a1');
    rmSync(join(dir, 'credentials.json'));
    const later = await makeSession(clock, { expiresInMs: 120_000 });
    expect(await later.session.accessToken()).toBe('a0');
    expect(later.svc.calls).toEqual([]);
  });

  it('a command that outlives two access tokens refreshes twice (a finished refresh is not reused)', async () => {
    // A long `scans wait`: the first token expires, is refreshed, and the new one expires in its turn.
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: 30_000 });
    const { api, t } = client(session, clock, [
      { status: 200, body: '{}' },
      { status: 200, body: '{}' },
      { status: 401, body: '{"detail":"token expired"}' },
      { status: 200, body: '{}' },
    ]);
    await api.request({ path: '/scans/scn_1' }); // a0 expires within 60 s: refreshed to a1
    clock.t += 3600_000; // a1 has expired
    await api.request({ path: '/scans/scn_1' }); // refreshed again, to a2
    // and a 401 later in the same process refreshes once more (to a3), not to a token already spent
    await api.request({ path: '/scans/scn_1' });
    expect(svc.calls).toEqual(['r0', 'r1', 'r2']);
    expect(t.sent.map((x) => x.req.headers.authorization)).toEqual([
      'Bearer a1',
      'Bearer a2',
      'Bearer a2',
      'Bearer a3',
    ]);
  });

  it('after a 401 refreshes once and replays the request once', async () => {
    const clock = new FakeClock();
    const { session, svc, credentials } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api, t } = client(session, clock, [
      { status: 401, body: '{"detail":"token expired"}' },
      { status: 200, body: '{"ok":1}' },
    ]);
    expect(await api.request({ path: '/connections' })).toEqual({ ok: 1 });
    expect(svc.calls).toEqual(['r0']);
    expect(t.sent.map((s) => s.req.headers.authorization)).toEqual(['Bearer a0', 'Bearer a1']);
    expect((await credentials.load('default'))?.tokens.refresh_token).toBe('r1');
  });

  it('a 401 that survives the refresh is exit 3, and is not retried again', async () => {
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api, t } = client(session, clock, [{ status: 401 }, { status: 401, body: '{"detail":"nope"}' }]);
    const err = await api.request({ path: '/connections' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(exitCodeFor(err)).toBe(3);
    expect(t.sent).toHaveLength(2);
    expect(svc.calls).toHaveLength(1);
  });

  it('a refused refresh is exit 3 with "session expired, run cssctl login"', async () => {
    const clock = new FakeClock();
    const refused = async (): Promise<TokenResponse> => {
      throw new ApiError({ status: 401, method: 'POST', url: 'x', detail: 'refresh token reused' });
    };
    const { session } = await makeSession(clock, { expiresInMs: -1, refresh: refused });
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toBe('session expired, run cssctl login');
    expect(exitCodeFor(err)).toBe(3);
  });

  it('a refresh that fails with a server error is not reported as an expired session', async () => {
    const clock = new FakeClock();
    const down = async (): Promise<TokenResponse> => {
      throw new ApiError({ status: 503, method: 'POST', url: 'x' });
    };
    const { session } = await makeSession(clock, { expiresInMs: -1, refresh: down });
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(exitCodeFor(err)).toBe(1);
  });

  it('runs one refresh for concurrent requests in a process', async () => {
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: -1 });
    const tokens = await Promise.all([session.accessToken(), session.accessToken(), session.accessToken()]);
    expect(tokens).toEqual(['a1', 'a1', 'a1']);
    expect(svc.calls).toEqual(['r0']);
  });

  it('two processes racing to refresh: one refreshes, the other re-reads the store and uses its result', async () => {
    const clock = new FakeClock();
    const first = await makeSession(clock, { expiresInMs: -1 });
    // A second, independent session (as another process would have) over the same config folder.
    const second = new Session({
      profile: 'default',
      credentials: new Credentials('file', dir, {}),
      clock,
      refresh: first.svc.refresh,
      lock: (fn) => withFileLock(dir, 'refresh-default', fn),
    });
    const [a, b] = await Promise.all([first.session.accessToken(), second.accessToken()]);
    expect(a).toBe('a1');
    expect(b).toBe('a1');
    expect(first.svc.calls).toEqual(['r0']); // the used refresh token was never presented twice
  });

  it('CSSCTL_TOKEN is used as it is: never refreshed, and a 401 is exit 3 naming it', async () => {
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: 0, envToken: 'env-token-123' });
    const { api, t } = client(session, clock, [{ status: 401, body: '{"detail":"invalid token"}' }]);
    const err = await api.request({ path: '/connections' }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('CSSCTL_TOKEN');
    expect(exitCodeFor(err)).toBe(3);
    expect(t.sent[0]!.req.headers.authorization).toBe('Bearer env-token-123');
    expect(svc.calls).toEqual([]);
    await expect(session.forceRefresh()).rejects.toThrow('cannot be refreshed');
  });

  it('not logged in is exit 3 before any request', async () => {
    const clock = new FakeClock();
    const session = new Session({
      profile: 'nobody',
      credentials: new Credentials('file', dir, {}),
      clock,
      refresh: async () => ({ access_token: 'x' }),
      lock: (fn) => fn(),
    });
    const { api, t } = client(session, clock, []);
    const err = await api.request({ path: '/connections' }).catch((e: unknown) => e);
    expect(exitCodeFor(err)).toBe(3);
    expect(t.sent).toHaveLength(0);
  });
});

describe('token answers', () => {
  const now = Date.UTC(2026, 0, 1);
  it('keeps the old refresh token when the refresh answer omits it', () => {
    const t = tokensFrom({ access_token: 'new' }, now, {
      access_token: 'old',
      refresh_token: 'keep',
      expires_at: 0,
    });
    expect(t.refresh_token).toBe('keep');
  });
  it('reads the JWT exp when expires_in is missing, else assumes 3600 s', () => {
    const exp = now / 1000 + 900;
    expect(tokensFrom({ access_token: jwt(exp) }, now).expires_at).toBe(exp * 1000);
    expect(tokensFrom({ access_token: 'opaque' }, now).expires_at).toBe(now + 3600_000);
    expect(tokensFrom({ access_token: 'opaque', expires_in: 60 }, now).expires_at).toBe(now + 60_000);
  });
  it('jwtExpiry tolerates garbage', () => {
    expect(jwtExpiry('not.a.jwt')).toBeUndefined();
    expect(jwtExpiry('')).toBeUndefined();
    expect(jwtExpiry(jwt(123))).toBe(123_000);
  });
  it('an answer without an access token is an error, not a stored empty session', () => {
    expect(() => tokensFrom({} as TokenResponse, now)).toThrow('without an access token');
  });
});

describe('requests the client builds', () => {
  it('the refresh request: POST /auth/refresh with the refresh token, no bearer token, the deadline kept', async () => {
    const clock = new FakeClock();
    const { session } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api, t } = client(session, clock, [
      { status: 200, body: '{"access_token":"a9","refresh_token":"r9","expires_in":60}' },
      { status: 200, body: '{"access_token":"a10"}' },
    ]);
    const answer = await requestRefresh(api, 'r0');
    expect(answer).toStrictEqual({ access_token: 'a9', refresh_token: 'r9', expires_in: 60 });
    const deadline = clock.now() + 5_000;
    await requestRefresh(api, 'r9', deadline);
    const [first, second] = t.sent.map((s) => s.req);
    expect(`${first!.method} ${first!.url}`).toBe('POST http://127.0.0.1:8787/api/v1/auth/refresh');
    expect(JSON.parse(String(first!.body))).toStrictEqual({ refresh_token: 'r0' });
    expect(first!.headers.authorization).toBeUndefined();
    expect(JSON.parse(String(second!.body))).toStrictEqual({ refresh_token: 'r9' });
    expect(second!.deadline).toBe(deadline);
  });

  it('sends the contract headers, JSON bodies and one Idempotency-Key per POST', async () => {
    const clock = new FakeClock();
    const { session } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api, t } = client(session, clock, [
      { status: 200, body: '[]' },
      { status: 201, body: '{}' },
      { status: 201, body: '{}' },
    ]);
    await api.request({ path: '/connections', query: { limit: 5, offset: undefined } });
    await api.request({ method: 'POST', path: '/connections', body: { alias: 'a' } });
    await api.request({ method: 'POST', path: '/connections', body: { alias: 'b' } });
    const [get, post1, post2] = t.sent.map((s) => s.req);
    expect(get!.url).toBe('http://127.0.0.1:8787/api/v1/connections?limit=5');
    expect(get!.headers.accept).toBe('application/json');
    expect(get!.headers['x-tenant-slug']).toBe('acme');
    expect(get!.headers['user-agent']).toMatch(/^cssctl\/\S+ node\/\d+\.\d+\.\d+ \w+/);
    expect(get!.headers['idempotency-key']).toBeUndefined();
    expect(get!.headers['content-type']).toBeUndefined();
    expect(post1!.headers['content-type']).toBe('application/json');
    expect(post1!.body).toBe('{"alias":"a"}');
    expect(post1!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post1!.headers['idempotency-key']).not.toBe(post2!.headers['idempotency-key']);
  });

  it('never sends a token over plain HTTP to a host other than this machine', async () => {
    const clock = new FakeClock();
    const { session } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api, t } = client(session, clock, [], 'http://scanner.example.com');
    const err = await api.request({ path: '/connections' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(t.sent).toHaveLength(0);
  });

  it('parses the error body into ApiError with detail, code, field and request id', async () => {
    const clock = new FakeClock();
    const { session } = await makeSession(clock, { expiresInMs: 3600_000 });
    const { api } = client(session, clock, [
      {
        status: 409,
        headers: { 'x-request-id': 'req_1' },
        body: '{"detail":"alias exists","code":"conflict","field":"alias"}',
      },
    ]);
    const err = (await api
      .request({ method: 'POST', path: '/connections', body: {} })
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.detail, err.code, err.field, err.requestId]).toEqual([
      409,
      'alias exists',
      'conflict',
      'alias',
      'req_1',
    ]);
    expect(exitCodeFor(err)).toBe(6);
  });
});

describe('hardening (issue 9)', () => {
  it('in-process sharing: concurrent callers share one refresh and take the lock once', async () => {
    const clock = new FakeClock();
    const credentials = new Credentials('file', dir, {});
    await credentials.save('default', { access_token: 'a0', refresh_token: 'r0', expires_at: 0 });
    const svc = rotatingService(clock);
    let locks = 0;
    const session = new Session({
      profile: 'default',
      credentials,
      clock,
      refresh: svc.refresh,
      // No file lock here: only the in-process sharing can keep this to one refresh.
      lock: async (fn) => {
        locks++;
        return fn();
      },
    });
    const tokens = await Promise.all([session.accessToken(), session.accessToken(), session.accessToken()]);
    expect(tokens).toEqual(['a1', 'a1', 'a1']);
    expect(svc.calls).toEqual(['r0']);
    expect(locks).toBe(1);
  });

  it('refreshes at exactly 60 s before expiry (the margin is inclusive)', async () => {
    const clock = new FakeClock();
    const { session, svc } = await makeSession(clock, { expiresInMs: 60_000 });
    expect(await session.accessToken()).toBe('a1');
    expect(svc.calls).toEqual(['r0']);
  });

  it.each([400, 403, 422])('a refresh refused with %i is an expired session (exit 3)', async (status) => {
    const clock = new FakeClock();
    const refused = async (): Promise<TokenResponse> => {
      throw new ApiError({ status, method: 'POST', url: 'x', detail: 'invalid_grant' });
    };
    const { session } = await makeSession(clock, { expiresInMs: -1, refresh: refused });
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(exitCodeFor(err)).toBe(3);
  });

  it('refreshed tokens are handed to redaction', async () => {
    const clock = new FakeClock();
    const credentials = new Credentials('file', dir, {});
    await credentials.save('default', { access_token: 'a0', refresh_token: 'r0', expires_at: 0 });
    const secrets: (string | undefined)[] = [];
    const svc = rotatingService(clock);
    const session = new Session({
      profile: 'default',
      credentials,
      clock,
      refresh: svc.refresh,
      lock: (fn) => withFileLock(dir, 'refresh-default', fn),
      onSecret: (v) => secrets.push(v),
    });
    await session.accessToken();
    expect(secrets).toContain('a1');
    expect(secrets).toContain('r1');
  });

  it('new tokens that cannot be saved: a clear error saying the refresh token was used up', async () => {
    const clock = new FakeClock();
    const { session, credentials } = await makeSession(clock, { expiresInMs: -1 });
    credentials.save = async () => {
      throw new Error(`cannot write ${join(dir, 'credentials.json')}: no space left on the device`);
    };
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(exitCodeFor(err)).toBe(1);
    expect((err as Error).message).toMatch(/could not be saved.*no space left.*used up/);
    expect((err as { hint?: string }).hint).toMatch(/cssctl login/);
  });

  it('absurd expires_in or exp is clamped to a year and always makes a valid date', () => {
    const now = Date.UTC(2026, 0, 1);
    for (const res of [
      { access_token: 'x', expires_in: 1e16 },
      { access_token: 'x', expires_in: Number.MAX_VALUE },
      { access_token: jwt(1e16) },
      { access_token: jwt(1e12) },
    ]) {
      const t = tokensFrom(res, now);
      expect(t.expires_at).toBeLessThanOrEqual(now + MAX_TOKEN_LIFETIME_MS);
      expect(() => new Date(t.expires_at).toISOString()).not.toThrow();
    }
    expect(tokensFrom({ access_token: 'x', expires_in: Infinity }, now).expires_at).toBe(now + 3600_000);
  });

  it('CSSCTL_TOKEN: surrounding whitespace is trimmed; control characters are a usage error', () => {
    expect(envToken('abc.def.ghi\n')).toBe('abc.def.ghi');
    expect(envToken('  tok \r\n')).toBe('tok');
    expect(envToken('')).toBeUndefined();
    expect(envToken(' \n')).toBeUndefined();
    expect(envToken(undefined)).toBeUndefined();
    for (const bad of ['ab\ncd', 'ab\u0000cd', 'ab cd', 'a\u001b[31m', 'a\u0085b']) {
      expect(() => envToken(bad)).toThrow(UsageError);
    }
  });

  it('property: jwtExpiry never throws, and gives a valid date or undefined', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => `h.${b64(JSON.stringify(v))}.s`),
          fc.anything().map((exp) => `h.${b64(JSON.stringify({ exp }) ?? '')}.s`),
          fc.double().map((exp) => `h.${b64(`{"exp":${Number.isFinite(exp) ? exp : 0}}`)}.s`),
        ),
        (token) => {
          const ms = jwtExpiry(token);
          if (ms !== undefined) expect(() => new Date(ms).toISOString()).not.toThrow();
          const t = tokensFrom({ access_token: token || 'x' }, Date.UTC(2026, 0, 1));
          expect(() => new Date(t.expires_at).toISOString()).not.toThrow();
        },
      ),
    );
  });

  it('property: tokensFrom with any expires_in never throws and never passes a year', () => {
    const now = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.constant(undefined)), (expires_in) => {
        const t = tokensFrom({ access_token: 'x', expires_in }, now);
        expect(t.expires_at).toBeGreaterThanOrEqual(now);
        expect(t.expires_at).toBeLessThanOrEqual(now + MAX_TOKEN_LIFETIME_MS);
      }),
    );
  });
});

describe('withFileLock', () => {
  it('tells the caller once when it has to wait for another holder, not when the lock is free', async () => {
    const waits: string[] = [];
    await withFileLock(
      dir,
      'x',
      async () => undefined,
      (p) => waits.push(p),
    );
    expect(waits).toEqual([]);
    let release!: () => void;
    const held = withFileLock(dir, 'x', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    const second = withFileLock(
      dir,
      'x',
      async () => 'mine',
      (p) => waits.push(p),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toContain(join(dir, 'locks'));
    release();
    await held;
    expect(await second).toBe('mine');
    expect(waits).toHaveLength(1);
  });
});
