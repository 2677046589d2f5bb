// Tests of the local sandbox service (test/sandbox): it stands in for the real service in the CLI's
// tests, so each behaviour the CLI relies on is pinned down here against a live loopback server.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { decodeJwt, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { banner, optionsFromEnv } from '../sandbox/env.js';
import { parseFaults } from '../sandbox/faults.js';
import { IdempotencyStore } from '../sandbox/idempotency.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server.js';

// ---- helpers ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

interface CallOptions {
  token?: string;
  tenant?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

async function call(sb: Sandbox, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
  if (o.token !== undefined) headers.Authorization = `Bearer ${o.token}`;
  if (o.tenant !== undefined) headers['X-Tenant-Slug'] = o.tenant;
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined && headers['Content-Type'] === undefined)
    headers['Content-Type'] = 'application/json';
  const res = await fetch(`${sb.url}/api/v1${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

async function login(
  sb: Sandbox,
  email = 'owner@acme.test',
): Promise<{ access_token: string; refresh_token: string }> {
  const cred = sb.credentials.find((c) => c.email === email);
  const res = await call(sb, 'POST', '/auth/login', { body: { email, password: cred?.password } });
  expect(res.status).toBe(200);
  return res.body;
}

/** A quick session helper: calls as `email` in its own workspace. */
async function session(sb: Sandbox, email = 'owner@acme.test') {
  const token = await sb.issueAccessToken(email, 3600);
  const tenant = email.split('@')[1]?.replace('.test', '') ?? '';
  return (method: string, path: string, o: CallOptions = {}) =>
    call(sb, method, path, { token, tenant, ...o });
}

const generous: Partial<SandboxOptions> = {
  rateLimit: 100_000,
  loginRateLimit: 100_000,
  scanRateLimit: 100_000,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(20);
  }
}

function expectErrorShape(res: Answer, status: number, code: string, field?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail.length).toBeGreaterThan(0);
  expect(res.body.code).toBe(code);
  if (field !== undefined) expect(res.body.field).toBe(field);
}

// ---- seed -------------------------------------------------------------------------------------

describe('seed data', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, seed: 7 });
  });
  afterAll(() => sb.close());

  it('has two workspaces with an owner and a read-only member each', () => {
    expect(sb.credentials).toEqual([
      { workspace: 'acme', email: 'owner@acme.test', password: 'demo-owner-acme', role: 'owner' },
      { workspace: 'acme', email: 'reader@acme.test', password: 'demo-reader-acme', role: 'read_only' },
      { workspace: 'globex', email: 'owner@globex.test', password: 'demo-owner-globex', role: 'owner' },
      { workspace: 'globex', email: 'reader@globex.test', password: 'demo-reader-globex', role: 'read_only' },
    ]);
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.url.endsWith(`:${sb.port}`)).toBe(true);
  });

  it('has four connections per workspace with unique aliases and cloud providers', async () => {
    for (const email of ['owner@acme.test', 'owner@globex.test']) {
      const as = await session(sb, email);
      const res = await as('GET', '/connections');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(4);
      const aliases = res.body.connections.map((c: { alias: string }) => c.alias);
      expect(new Set(aliases).size).toBe(4);
      for (const c of res.body.connections) {
        expect(Object.keys(c)).toEqual(
          expect.arrayContaining(['id', 'alias', 'provider', 'created_at', 'status']),
        );
        expect(['aws', 'gcp', 'azure']).toContain(c.provider);
        expect(Number.isNaN(Date.parse(c.created_at))).toBe(false);
      }
    }
  });

  it('has ~2500 findings per workspace with every severity, unique ids, more lows than criticals', async () => {
    const as = await session(sb);
    const ids = new Set<string>();
    const totals = new Set<number>();
    for (let offset = 0; ; offset += 100) {
      const res = await as('GET', `/findings?limit=100&offset=${offset}`);
      totals.add(res.body.total);
      for (const f of res.body.findings) {
        expect(f).toMatchObject({ status: 'open', connection_alias: expect.any(String) });
        expect(f.id).toMatch(/^fnd_/);
        expect(typeof f.title).toBe('string');
        expect(typeof f.resource).toBe('string');
        expect(f.scan_id).toMatch(/^scn_/);
        expect(new Date(f.created_at).toISOString()).toBe(f.created_at);
        ids.add(f.id);
      }
      if (res.body.findings.length < 100) break;
    }
    expect([...totals]).toEqual([2500]);
    expect(ids.size).toBe(2500);
    const counts: Record<string, number> = {};
    for (const s of ['critical', 'high', 'medium', 'low', 'info']) {
      counts[s] = (await as('GET', `/findings?severity=${s}&limit=1`)).body.total;
      expect(counts[s]).toBeGreaterThan(0);
    }
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(2500);
    expect(counts.low).toBeGreaterThan(counts.critical ?? Infinity);
  });

  it('has completed scans whose summaries match their findings', async () => {
    const as = await session(sb);
    const res = await as('GET', '/scans?status=completed');
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    for (const scan of res.body.scans) {
      const n = await as('GET', `/findings?scan_id=${scan.scan_id}&limit=1`);
      expect(n.body.total).toBe(scan.total_findings);
      const crit = await as('GET', `/findings?scan_id=${scan.scan_id}&severity=critical&limit=1`);
      expect(crit.body.total).toBe(scan.critical_count);
    }
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const again = await startSandbox({ ...generous, seed: 7 });
    const other = await startSandbox({ ...generous, seed: 8 });
    try {
      const page = async (s: Sandbox) =>
        (await (await session(s))('GET', '/findings?limit=20')).body.findings;
      expect(await page(again)).toEqual(await page(sb));
      expect(await page(other)).not.toEqual(await page(sb));
    } finally {
      await again.close();
      await other.close();
    }
  });

  it('honours findingsPerWorkspace', async () => {
    const small = await startSandbox({ findingsPerWorkspace: 30 });
    try {
      expect((await (await session(small))('GET', '/findings?limit=1')).body.total).toBe(30);
    } finally {
      await small.close();
    }
  });
});

// ---- auth -------------------------------------------------------------------------------------

describe('login and refresh', () => {
  const secret = 'test-secret-for-sandbox';
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, jwtSecret: secret });
  });
  afterAll(() => sb.close());
  afterEach(() => sb.reset());

  it('logs in with a bearer token response and an HS256 JWT carrying the claims', async () => {
    const res = await call(sb, 'POST', '/auth/login', {
      body: { email: 'owner@acme.test', password: 'demo-owner-acme' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
    });
    const { payload, protectedHeader } = await jwtVerify(
      res.body.access_token,
      new TextEncoder().encode(secret),
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ email: 'owner@acme.test', workspace: 'acme', role: 'owner' });
    expect(payload.sub).toMatch(/^usr_/);
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    // The refresh token is opaque, not a JWT.
    expect(res.body.refresh_token.split('.').length).not.toBe(3);
  });

  it('accepts the email case-insensitively and a matching X-Tenant-Slug', async () => {
    const res = await call(sb, 'POST', '/auth/login', {
      tenant: 'acme',
      body: { email: 'Owner@ACME.test', password: 'demo-owner-acme' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses bad credentials with 401 invalid_credentials', async () => {
    const wrong = await call(sb, 'POST', '/auth/login', {
      body: { email: 'owner@acme.test', password: 'nope' },
    });
    expectErrorShape(wrong, 401, 'invalid_credentials');
    const unknown = await call(sb, 'POST', '/auth/login', {
      body: { email: 'who@acme.test', password: 'x' },
    });
    expectErrorShape(unknown, 401, 'invalid_credentials');
  });

  it('answers 422 naming the missing or invalid fields', async () => {
    const res = await call(sb, 'POST', '/auth/login', { body: { email: 42 } });
    expectErrorShape(res, 422, 'validation_error', 'email');
    expect(res.body.errors).toEqual([
      { field: 'email', detail: expect.any(String) },
      { field: 'password', detail: expect.any(String) },
    ]);
  });

  it('answers 403 when the X-Tenant-Slug on login is not the user workspace', async () => {
    const res = await call(sb, 'POST', '/auth/login', {
      tenant: 'globex',
      body: { email: 'owner@acme.test', password: 'demo-owner-acme' },
    });
    expectErrorShape(res, 403, 'forbidden', 'X-Tenant-Slug');
  });

  it('rotates refresh tokens, and a reused one revokes the whole family', async () => {
    const first = await login(sb);
    const r1 = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
    });
    expect(r1.body.refresh_token).not.toBe(first.refresh_token);
    expect(r1.body.access_token).not.toBe(first.access_token);

    const reuse = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expectErrorShape(reuse, 401, 'refresh_token_reused');
    // The newest token of the family is revoked too.
    const after = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: r1.body.refresh_token } });
    expect(after.status).toBe(401);
    // Another session is untouched.
    const other = await login(sb);
    expect(
      (await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: other.refresh_token } })).status,
    ).toBe(200);
  });

  it('refuses an unknown refresh token and a missing field', async () => {
    expectErrorShape(
      await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: 'rt_nope' } }),
      401,
      'invalid_refresh_token',
    );
    expectErrorShape(
      await call(sb, 'POST', '/auth/refresh', { body: {} }),
      422,
      'validation_error',
      'refresh_token',
    );
  });

  it('refresh needs no Authorization header and works with any X-Tenant-Slug of the user', async () => {
    const tokens = await login(sb);
    const res = await call(sb, 'POST', '/auth/refresh', {
      tenant: 'acme',
      body: { refresh_token: tokens.refresh_token },
    });
    expect(res.status).toBe(200);
    expect(sb.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('revokeAllRefreshTokens makes every refresh fail', async () => {
    const tokens = await login(sb);
    sb.revokeAllRefreshTokens();
    const res = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
    expectErrorShape(res, 401, 'refresh_token_revoked');
  });

  it('setTokenTtl changes expires_in and exp of new tokens', async () => {
    sb.setTokenTtl(90);
    const tokens = await login(sb);
    const res = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
    expect(res.body.expires_in).toBe(90);
    const claims = decodeJwt(res.body.access_token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(90);
  });

  it('refreshOmit leaves fields out, and without a new refresh token the old one stays valid', async () => {
    const omitting = await startSandbox({ refreshOmit: ['refresh_token', 'expires_in'] });
    try {
      const tokens = await login(omitting);
      for (let i = 0; i < 2; i += 1) {
        const res = await call(omitting, 'POST', '/auth/refresh', {
          body: { refresh_token: tokens.refresh_token },
        });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['access_token', 'token_type']);
      }
    } finally {
      await omitting.close();
    }
  });
});

describe('authentication and tenancy on the other endpoints', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox(generous);
  });
  afterAll(() => sb.close());

  it('answers 401 invalid_token without, or with a malformed, Authorization header', async () => {
    expectErrorShape(await call(sb, 'GET', '/connections', { tenant: 'acme' }), 401, 'invalid_token');
    const malformed = await call(sb, 'GET', '/connections', {
      tenant: 'acme',
      headers: { Authorization: 'Basic abc' },
    });
    expectErrorShape(malformed, 401, 'invalid_token');
    expectErrorShape(
      await call(sb, 'GET', '/connections', { tenant: 'acme', token: 'not.a.jwt' }),
      401,
      'invalid_token',
    );
  });

  it('answers 401 invalid_token for a token signed with another secret', async () => {
    const other = await startSandbox({ jwtSecret: 'another-secret' });
    const foreign = await other.issueAccessToken('owner@acme.test', 3600);
    await other.close();
    expectErrorShape(
      await call(sb, 'GET', '/connections', { tenant: 'acme', token: foreign }),
      401,
      'invalid_token',
    );
  });

  it('answers 401 token_expired for an expired token', async () => {
    const expired = await sb.issueAccessToken('owner@acme.test', -10);
    expectErrorShape(
      await call(sb, 'GET', '/connections', { tenant: 'acme', token: expired }),
      401,
      'token_expired',
    );
  });

  it('checks the token before the tenant', async () => {
    expectErrorShape(await call(sb, 'GET', '/connections'), 401, 'invalid_token');
  });

  it('answers 400 missing_tenant, 404 unknown workspace, 403 for a foreign workspace', async () => {
    const token = await sb.issueAccessToken('owner@acme.test', 60);
    expectErrorShape(
      await call(sb, 'GET', '/connections', { token }),
      400,
      'missing_tenant',
      'X-Tenant-Slug',
    );
    const unknown = await call(sb, 'GET', '/connections', { token, tenant: 'initech' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.field).toBe('X-Tenant-Slug');
    expectErrorShape(await call(sb, 'GET', '/connections', { token, tenant: 'globex' }), 403, 'forbidden');
  });

  it('lets a read-only member read but not write', async () => {
    const reader = await session(sb, 'reader@acme.test');
    expect((await reader('GET', '/findings?limit=1')).status).toBe(200);
    const writes = [
      await reader('POST', '/connections', { body: { alias: 'r1', provider: 'aws' } }),
      await reader('POST', '/scans', { body: { connection_alias: 'prod' } }),
      await reader('POST', '/webhooks', {
        body: { url: 'https://example.com/h', events: ['scan.failed'], secret: 's' },
      }),
      await reader('DELETE', '/webhooks/whk_x'),
    ];
    for (const res of writes) expectErrorShape(res, 403, 'forbidden');
  });

  it('hides resources of other workspaces behind 404', async () => {
    const globex = await session(sb, 'owner@globex.test');
    const globexScan = (await globex('GET', '/scans?limit=1')).body.scans[0].scan_id;
    expect((await globex('GET', `/scans/${globexScan}`)).status).toBe(200);
    const acme = await session(sb);
    expectErrorShape(await acme('GET', `/scans/${globexScan}`), 404, 'not_found');
    expect((await acme('GET', `/findings?scan_id=${globexScan}`)).body.total).toBe(0);
    const hook = await globex('POST', '/webhooks', {
      body: { url: 'https://example.com/h', events: ['scan.completed'], secret: 's' },
    });
    expect((await acme('DELETE', `/webhooks/${hook.body.id}`)).status).toBe(404);
    expect((await globex('DELETE', `/webhooks/${hook.body.id}`)).status).toBe(204);
  });
});

// ---- errors and headers -----------------------------------------------------------------------

describe('errors and headers', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox(generous);
  });
  afterAll(() => sb.close());

  it('answers JSON 404 not_found for an unknown path, also outside /api/v1', async () => {
    const as = await session(sb);
    expectErrorShape(await as('GET', '/nothing-here'), 404, 'not_found');
    const res = await fetch(`${sb.url}/elsewhere`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const as = await session(sb);
    const res = await as('PUT', '/connections', { body: {} });
    expectErrorShape(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 400 invalid_json for a body that is not JSON, 422 for one that is not an object', async () => {
    const as = await session(sb);
    expectErrorShape(await as('POST', '/connections', { rawBody: '{"alias": ' }), 400, 'invalid_json');
    expectErrorShape(await call(sb, 'POST', '/auth/login', { rawBody: 'nope' }), 400, 'invalid_json');
    expectErrorShape(await as('POST', '/connections', { body: ['x'] }), 422, 'validation_error', 'body');
  });

  it('answers 415 to a body sent without a JSON content type', async () => {
    const as = await session(sb);
    const res = await as('POST', '/connections', {
      rawBody: '{"alias":"x1","provider":"aws"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectErrorShape(res, 415, 'unsupported_media_type');
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const as = await session(sb);
    const res = await as('POST', '/connections', {
      body: { alias: 'big', provider: 'aws', note: 'x'.repeat(1_100_000) },
    });
    expectErrorShape(res, 413, 'payload_too_large');
  });

  it('sends X-Request-Id and rate-limit headers on every answer, errors included', async () => {
    const as = await session(sb);
    const answers = [
      await as('GET', '/connections'),
      await as('GET', '/nothing'),
      await call(sb, 'GET', '/connections'),
      await call(sb, 'POST', '/auth/login', { body: {} }),
      await as('POST', '/connections', { rawBody: '{' }),
    ];
    const ids = new Set<string>();
    for (const res of answers) {
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]+$/);
      ids.add(res.headers.get('x-request-id') ?? '');
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(
        Math.floor(Date.now() / 1000),
      );
    }
    expect(ids.size).toBe(answers.length);
  });

  it('records every request with method, path, query, headers, body, status, time and request id', async () => {
    sb.clearRequests();
    expect(sb.requests).toHaveLength(0);
    const token = await sb.issueAccessToken('owner@acme.test', 60);
    const before = Date.now();
    const res = await fetch(`${sb.url}/api/v1/connections?limit=2&offset=1`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'X-Tenant-Slug': 'acme',
        Accept: 'application/json',
        'User-Agent': 'cssctl/0.1.0 node/v24 linux',
        'Content-Type': 'application/json',
        'Idempotency-Key': 'key-123',
      },
      body: '{"alias":"rec-1","provider":"gcp"}',
    });
    expect(res.status).toBe(201);
    const [rec] = sb.requests;
    expect(rec).toMatchObject({
      id: res.headers.get('x-request-id'),
      method: 'POST',
      path: '/api/v1/connections',
      query: { limit: '2', offset: '1' },
      body: '{"alias":"rec-1","provider":"gcp"}',
      status: 201,
    });
    expect(rec?.headers).toMatchObject({
      authorization: `Bearer ${token}`,
      'x-tenant-slug': 'acme',
      accept: 'application/json',
      'user-agent': 'cssctl/0.1.0 node/v24 linux',
      'content-type': 'application/json',
      'idempotency-key': 'key-123',
    });
    expect(rec?.time).toBeGreaterThanOrEqual(before);
    expect(rec?.durationMs).toBeGreaterThanOrEqual(0);
  });
});

// ---- rate limits ------------------------------------------------------------------------------

describe('rate limits', () => {
  const rl = (h: Headers) => ({
    limit: Number(h.get('x-ratelimit-limit')),
    remaining: Number(h.get('x-ratelimit-remaining')),
    reset: Number(h.get('x-ratelimit-reset')),
  });

  it('limits each workspace; a 429 spends nothing and keeps the window; waiting until Reset is enough', async () => {
    const sb = await startSandbox({ rateLimit: 3, rateWindowSeconds: 2 });
    try {
      const acme = await session(sb);
      const seen = [];
      for (let i = 0; i < 3; i += 1) seen.push(rl((await acme('GET', '/connections')).headers));
      expect(seen.map((s) => s.remaining)).toEqual([2, 1, 0]);
      expect(seen.every((s) => s.limit === 3)).toBe(true);

      const first429 = await acme('GET', '/connections');
      expectErrorShape(first429, 429, 'rate_limited');
      expect(rl(first429.headers)).toEqual({ limit: 3, remaining: 0, reset: seen[0]?.reset });
      const retryAfter = Number(first429.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      // Later 429s do not move the window (a sliding one would now end a second later).
      await sleep(1100);
      const second429 = await acme('GET', '/findings');
      expect(second429.status).toBe(429);
      expect(rl(second429.headers).reset).toBe(seen[0]?.reset);

      // Another workspace has its own quota.
      expect((await (await session(sb, 'owner@globex.test'))('GET', '/connections')).status).toBe(200);

      // The first moment allowed by Reset is never early.
      await sleep(Math.max(0, (seen[0]?.reset ?? 0) * 1000 - Date.now()));
      const fresh = await acme('GET', '/connections');
      expect(fresh.status).toBe(200);
      expect(rl(fresh.headers).remaining).toBe(2);
    } finally {
      await sb.close();
    }
  });

  it('limits POST /scans separately, and reports that bucket', async () => {
    const sb = await startSandbox({ rateLimit: 100, scanRateLimit: 2, scanStepMs: 10_000 });
    try {
      const as = await session(sb);
      const a = await as('POST', '/scans', { body: { connection_alias: 'prod' } });
      expect(a.status).toBe(201);
      expect(rl(a.headers)).toMatchObject({ limit: 2, remaining: 1 });
      expect((await as('POST', '/scans', { body: { connection_alias: 'prod' } })).status).toBe(201);
      const refused = await as('POST', '/scans', { body: { connection_alias: 'prod' } });
      expectErrorShape(refused, 429, 'rate_limited');
      expect(rl(refused.headers)).toMatchObject({ limit: 2, remaining: 0 });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      // Other endpoints still answer, from the general bucket; the refused POST cost nothing there.
      const list = await as('GET', '/scans');
      expect(list.status).toBe(200);
      expect(rl(list.headers)).toMatchObject({ limit: 100, remaining: 97 });
    } finally {
      await sb.close();
    }
  });

  it('limits login per client IP', async () => {
    const sb = await startSandbox({ loginRateLimit: 2 });
    try {
      const body = { email: 'owner@acme.test', password: 'wrong' };
      const a = await call(sb, 'POST', '/auth/login', { body });
      expect(a.status).toBe(401);
      expect(rl(a.headers)).toMatchObject({ limit: 2, remaining: 1 });
      expect((await call(sb, 'POST', '/auth/login', { body })).status).toBe(401);
      const refused = await call(sb, 'POST', '/auth/login', {
        body: { email: 'owner@globex.test', password: 'demo-owner-globex' },
      });
      expectErrorShape(refused, 429, 'rate_limited');
      expect(rl(refused.headers).remaining).toBe(0);
    } finally {
      await sb.close();
    }
  });

  it('counts unauthenticated requests and refreshes per IP against the general limit', async () => {
    const sb = await startSandbox({ rateLimit: 2, loginRateLimit: 50 });
    try {
      const tokens = await login(sb);
      const r = await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
      expect(rl(r.headers)).toMatchObject({ limit: 2, remaining: 1 });
      const anon = await call(sb, 'GET', '/findings');
      expect(anon.status).toBe(401);
      expect(rl(anon.headers).remaining).toBe(0);
      expect((await call(sb, 'GET', '/findings')).status).toBe(429);
      // A workspace's own quota is separate from the IP bucket.
      expect((await (await session(sb))('GET', '/findings?limit=1')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

// ---- pagination -------------------------------------------------------------------------------

describe('pagination and filters', () => {
  let sb: Sandbox;
  let as: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, maxPageSize: 100, defaultPageSize: 50 });
    as = await session(sb);
  });
  afterAll(() => sb.close());

  it('defaults the page size and echoes limit and offset', async () => {
    const res = await as('GET', '/findings');
    expect(res.body).toMatchObject({ total: 2500, limit: 50, offset: 0 });
    expect(res.body.findings).toHaveLength(50);
  });

  it('clamps a limit above the maximum and echoes the clamped value', async () => {
    const res = await as('GET', '/findings?limit=1000&offset=10');
    expect(res.body).toMatchObject({ limit: 100, offset: 10 });
    expect(res.body.findings).toHaveLength(100);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['severity=urgent', 'severity'],
  ])('answers 400 for %s', async (query, field) => {
    expectErrorShape(await as('GET', `/findings?${query}`), 400, 'invalid_parameter', field);
  });

  it('pages in a stable order by id, without overlap', async () => {
    const a = await as('GET', '/findings?limit=100&offset=0');
    const b = await as('GET', '/findings?limit=100&offset=100');
    const again = await as('GET', '/findings?limit=100&offset=0');
    expect(again.body.findings).toEqual(a.body.findings);
    const ids = [...a.body.findings, ...b.body.findings].map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort()).toEqual(ids);
    const past = await as('GET', '/findings?offset=5000');
    expect(past.body).toMatchObject({ total: 2500, findings: [], offset: 5000 });
  });

  it('filters by severity case-insensitively, and by scan_id', async () => {
    const upper = await as('GET', '/findings?severity=HIGH&limit=100');
    expect(upper.status).toBe(200);
    expect(upper.body.total).toBeGreaterThan(0);
    expect(upper.body.total).toBeLessThan(2500);
    expect(upper.body.findings.every((f: { severity: string }) => f.severity === 'high')).toBe(true);
    const scanId = upper.body.findings[0].scan_id;
    const byScan = await as('GET', `/findings?scan_id=${scanId}&severity=high&limit=100`);
    expect(byScan.body.findings.every((f: { scan_id: string }) => f.scan_id === scanId)).toBe(true);
    expect(byScan.body.total).toBeLessThan(upper.body.total);
  });

  it('paginates connections, scans and webhooks the same way', async () => {
    const conns = await as('GET', '/connections?limit=2&offset=1');
    expect(conns.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(conns.body.connections).toHaveLength(2);
    expectErrorShape(await as('GET', '/connections?limit=0'), 400, 'invalid_parameter', 'limit');
    const scans = await as('GET', '/scans?limit=1');
    expect(scans.body).toMatchObject({ total: 4, limit: 1, offset: 0 });
    expect(scans.body.scans).toHaveLength(1);
    expect((await as('GET', '/scans?status=FAILED')).body.total).toBe(1);
    expectErrorShape(await as('GET', '/scans?status=done'), 400, 'invalid_parameter', 'status');
    const hooks = await as('GET', '/webhooks');
    expect(hooks.body).toEqual({ total: 0, webhooks: [], limit: 50, offset: 0 });
  });

  it('pages a few thousand findings fast', async () => {
    const started = Date.now();
    for (let offset = 0; offset < 2500; offset += 100) {
      expect((await as('GET', `/findings?limit=100&offset=${offset}&severity=low`)).status).toBe(200);
    }
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

// ---- connections ------------------------------------------------------------------------------

describe('connections', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox(generous);
  });
  afterAll(() => sb.close());
  afterEach(() => sb.reset());

  it('creates a connection with extra string fields', async () => {
    const as = await session(sb);
    const res = await as('POST', '/connections', {
      body: { alias: 'new-one', provider: 'gcp', project: 'p-1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^con_/),
      alias: 'new-one',
      provider: 'gcp',
      created_at: expect.any(String),
      status: 'active',
      project: 'p-1',
    });
    expect((await as('GET', '/connections')).body.total).toBe(5);
  });

  it('answers 409 conflict on a duplicate alias in the workspace only', async () => {
    const acme = await session(sb);
    const dup = await acme('POST', '/connections', { body: { alias: 'prod', provider: 'aws' } });
    expectErrorShape(dup, 409, 'conflict', 'alias');
    expect(dup.body.detail).toBe('connection alias "prod" already exists');
    const globex = await session(sb, 'owner@globex.test');
    expect(
      (await globex('POST', '/connections', { body: { alias: 'staging', provider: 'aws' } })).status,
    ).toBe(201);
  });

  it.each([
    [{ provider: 'aws' }, 'alias'],
    [{ alias: 'ok' }, 'provider'],
    [{ alias: '-bad', provider: 'aws' }, 'alias'],
    [{ alias: 'has space', provider: 'aws' }, 'alias'],
    [{ alias: 'a'.repeat(64), provider: 'aws' }, 'alias'],
    [{ alias: 'ok', provider: 'oracle' }, 'provider'],
    [{ alias: 'ok', provider: 'aws', region: 5 }, 'region'],
    [{ alias: 'ok', provider: 'aws', id: 'con_x' }, 'id'],
  ])('answers 422 for %j', async (body, field) => {
    const res = await (await session(sb))('POST', '/connections', { body });
    expectErrorShape(res, 422, 'validation_error', field);
    expect(res.body.errors).toContainEqual({ field, detail: expect.any(String) });
  });
});

// ---- scans ------------------------------------------------------------------------------------

describe('scans', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, scanStepMs: 150 });
  });
  afterAll(() => sb.close());

  it('creates a queued scan that runs, completes and adds its findings', async () => {
    const as = await session(sb);
    const before = (await as('GET', '/findings?limit=1')).body.total;
    const created = await as('POST', '/scans', { body: { connection_alias: 'prod' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      scan_id: expect.stringMatching(/^scn_/),
      connection_alias: 'prod',
      provider: 'aws',
      status: 'queued',
      total_findings: 0,
      critical_count: 0,
      high_count: 0,
      medium_count: 0,
      low_count: 0,
      info_count: 0,
      risk_score: 0,
    });
    expect(Number.isNaN(Date.parse(created.body.created_at))).toBe(false);
    const id = created.body.scan_id;
    const statuses = new Set<string>();
    const done = await until(
      async () => (await as('GET', `/scans/${id}`)).body,
      (s) => {
        statuses.add(s.status);
        return s.status === 'completed';
      },
    );
    expect(statuses.has('running')).toBe(true);
    expect(done.status).toBe('completed');
    expect(done.total_findings).toBeGreaterThanOrEqual(10);
    expect(done.total_findings).toBeLessThanOrEqual(40);
    const sum = done.critical_count + done.high_count + done.medium_count + done.low_count + done.info_count;
    expect(sum).toBe(done.total_findings);
    expect(typeof done.risk_score).toBe('number');
    expect(done.risk_score).toBeGreaterThan(0);
    expect(done.error).toBeNull();
    const found = await as('GET', `/findings?scan_id=${id}&limit=100`);
    expect(found.body.total).toBe(done.total_findings);
    expect(
      found.body.findings.every((f: { connection_alias: string }) => f.connection_alias === 'prod'),
    ).toBe(true);
    expect((await as('GET', '/findings?limit=1')).body.total).toBe(before + done.total_findings);
    const listed = await as('GET', '/scans?status=completed&limit=1');
    expect(listed.body.scans[0].scan_id).toBe(id); // newest first
  });

  it('fails scans of a connection whose alias contains "fail", with an error', async () => {
    const as = await session(sb);
    const created = await as('POST', '/scans', { body: { connection_alias: 'legacy-fail' } });
    const done = await until(
      async () => (await as('GET', `/scans/${created.body.scan_id}`)).body,
      (s) => s.status === 'failed',
    );
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/legacy-fail/);
    expect(done.total_findings).toBe(0);
  });

  it('answers 404 for an unknown connection_alias, 422 for a missing one and 404 for an unknown scan', async () => {
    const as = await session(sb);
    expectErrorShape(
      await as('POST', '/scans', { body: { connection_alias: 'nope' } }),
      404,
      'connection_not_found',
      'connection_alias',
    );
    expectErrorShape(await as('POST', '/scans', { body: {} }), 422, 'validation_error', 'connection_alias');
    expectErrorShape(await as('GET', '/scans/scn_missing'), 404, 'not_found');
  });

  it('uses the scan step time to move from queued to running', async () => {
    const slow = await startSandbox({ scanStepMs: 60_000 });
    try {
      const as = await session(slow);
      const created = await as('POST', '/scans', { body: { connection_alias: 'prod' } });
      await sleep(50);
      expect((await as('GET', `/scans/${created.body.scan_id}`)).body.status).toBe('queued');
    } finally {
      await slow.close();
    }
  });
});

// ---- webhooks ---------------------------------------------------------------------------------

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

async function receiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('webhooks', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, scanStepMs: 30 });
  });
  afterAll(() => sb.close());
  afterEach(() => sb.reset());

  it('creates, lists and deletes webhooks, never echoing the secret', async () => {
    const as = await session(sb);
    const created = await as('POST', '/webhooks', {
      body: {
        url: 'https://hooks.example.com/x',
        events: ['scan.completed', 'finding.critical'],
        secret: 's3cret',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'https://hooks.example.com/x',
      events: ['scan.completed', 'finding.critical'],
      created_at: expect.any(String),
    });
    const listed = await as('GET', '/webhooks');
    expect(listed.body.total).toBe(1);
    expect(JSON.stringify(listed.body)).not.toContain('s3cret');
    const del = await as('DELETE', `/webhooks/${created.body.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expectErrorShape(await as('DELETE', `/webhooks/${created.body.id}`), 404, 'not_found');
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', events: ['scan.failed'], secret: 's' }, 'url'],
    [{ url: 'ftp://127.0.0.1/x', events: ['scan.failed'], secret: 's' }, 'url'],
    [{ url: 'not a url', events: ['scan.failed'], secret: 's' }, 'url'],
    [{ url: 'https://h.example.com', events: [], secret: 's' }, 'events'],
    [{ url: 'https://h.example.com', events: ['scan.exploded'], secret: 's' }, 'events'],
    [{ url: 'https://h.example.com', events: 'scan.failed', secret: 's' }, 'events'],
    [{ url: 'https://h.example.com', events: ['scan.failed'], secret: '' }, 'secret'],
    [{ url: 'https://h.example.com', events: ['scan.failed'] }, 'secret'],
  ])('answers 422 for %j', async (body, field) => {
    const res = await (await session(sb))('POST', '/webhooks', { body });
    expectErrorShape(res, 422, 'validation_error', field);
  });

  it('accepts http for loopback hosts', async () => {
    const as = await session(sb);
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      expect(
        (await as('POST', '/webhooks', { body: { url, events: ['scan.failed'], secret: 's' } })).status,
      ).toBe(201);
    }
  });

  it('delivers signed scan events to loopback receivers only', async () => {
    const { server, url, received } = await receiver();
    try {
      const as = await session(sb);
      const secret = 'whsec-test';
      await as('POST', '/webhooks', { body: { url, events: ['scan.completed'], secret } });
      await as('POST', '/webhooks', {
        body: { url: 'https://hooks.example.com/never', events: ['scan.completed'], secret: 'x' },
      });
      const scan = (await as('POST', '/scans', { body: { connection_alias: 'staging' } })).body;
      // No polling: the delivery must go out on its own.
      await until(
        async () => received.length,
        (n) => n >= 1,
      );
      expect(received).toHaveLength(1);
      const [got] = received;
      expect(got?.headers['content-type']).toBe('application/json');
      const expected = `sha256=${createHmac('sha256', secret)
        .update(got?.body ?? '')
        .digest('hex')}`;
      expect(got?.headers['x-service-signature']).toBe(expected);
      const payload = JSON.parse(got?.body ?? '{}');
      expect(payload).toMatchObject({ event: 'scan.completed', workspace: 'acme' });
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      expect(payload.data).toMatchObject({
        scan_id: scan.scan_id,
        connection_alias: 'staging',
        provider: 'gcp',
        status: 'completed',
        total_findings: expect.any(Number),
        critical_count: expect.any(Number),
        risk_score: expect.any(Number),
      });
      const final = (await as('GET', `/scans/${scan.scan_id}`)).body;
      expect(payload.data.total_findings).toBe(final.total_findings);
      const skipped = sb.deliveries.find((d) => d.url.startsWith('https://hooks.example.com'));
      expect(skipped?.outcome).toBe('skipped');
      expect(sb.deliveries.find((d) => d.url === url)?.outcome).toBe('delivered');
    } finally {
      server.close();
    }
  });

  it('sends scan.completed and scan.failed for a failed scan, only to subscribers', async () => {
    const { server, url, received } = await receiver();
    try {
      const as = await session(sb);
      await as('POST', '/webhooks', {
        body: { url, events: ['scan.failed', 'scan.completed'], secret: 'k' },
      });
      await as('POST', '/webhooks', {
        body: { url: `${url}?only=high`, events: ['finding.high'], secret: 'k' },
      });
      await as('POST', '/scans', { body: { connection_alias: 'legacy-fail' } });
      await until(
        async () => received.length,
        (n) => n >= 2,
      );
      await sleep(50);
      const events = received.map((r) => JSON.parse(r.body).event).sort();
      expect(events).toEqual(['scan.completed', 'scan.failed']);
      expect(JSON.parse(received[0]?.body ?? '{}').data.status).toBe('failed');
    } finally {
      server.close();
    }
  });
});

// ---- idempotency ------------------------------------------------------------------------------

describe('Idempotency-Key', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ...generous, scanStepMs: 60_000 });
  });
  afterAll(() => sb.close());
  afterEach(() => sb.reset());

  it('replays the first answer of a repeated POST instead of acting again', async () => {
    const as = await session(sb);
    const body = { alias: 'idem', provider: 'aws' };
    const headers = { 'Idempotency-Key': 'k-1' };
    const first = await as('POST', '/connections', { body, headers });
    const second = await as('POST', '/connections', { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(sb.requests.at(-1)?.replayed).toBe(true);
    expect((await as('GET', '/connections')).body.total).toBe(5);
    // Without the key, the duplicate is a conflict.
    expect((await as('POST', '/connections', { body })).status).toBe(409);
  });

  it('creates one scan for a retried POST /scans', async () => {
    const as = await session(sb);
    const headers = { 'Idempotency-Key': 'scan-1' };
    const a = await as('POST', '/scans', { body: { connection_alias: 'prod' }, headers });
    const b = await as('POST', '/scans', { body: { connection_alias: 'prod' }, headers });
    expect(b.body.scan_id).toBe(a.body.scan_id);
    expect((await as('GET', '/scans')).body.total).toBe(5);
  });

  it('scopes keys by workspace and path, and refuses a key reused with another body', async () => {
    const acme = await session(sb);
    const headers = { 'Idempotency-Key': 'shared' };
    expect(
      (await acme('POST', '/connections', { body: { alias: 'x1', provider: 'aws' }, headers })).status,
    ).toBe(201);
    const hook = await acme('POST', '/webhooks', {
      body: { url: 'https://h.example.com', events: ['scan.failed'], secret: 's' },
      headers,
    });
    expect(hook.status).toBe(201);
    const globex = await session(sb, 'owner@globex.test');
    const g = await globex('POST', '/connections', { body: { alias: 'x1', provider: 'aws' }, headers });
    expect(g.status).toBe(201);
    expect(g.body.id).not.toBe(hook.body.id);
    const other = await acme('POST', '/connections', { body: { alias: 'x2', provider: 'aws' }, headers });
    expectErrorShape(other, 400, 'idempotency_key_reused', 'Idempotency-Key');
  });
});

describe('IdempotencyStore', () => {
  it('forgets a key after 24 hours', () => {
    const store = new IdempotencyStore();
    const t0 = Date.UTC(2025, 0, 1);
    store.set('acme', 'POST /connections', 'k', { status: 201, body: { id: 1 }, requestBody: '{}', at: t0 });
    expect(store.get('acme', 'POST /connections', 'k', t0 + 23 * 3600_000)?.status).toBe(201);
    expect(store.get('globex', 'POST /connections', 'k', t0)).toBeUndefined();
    expect(store.get('acme', 'POST /connections', 'k', t0 + 24 * 3600_000 + 1)).toBeUndefined();
  });
});

// ---- faults -----------------------------------------------------------------------------------

describe('fault injection', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox(generous);
  });
  afterAll(() => sb.close());
  afterEach(() => sb.reset());

  it('answers injected statuses for `count` matching requests, in FIFO order, and records them', async () => {
    const as = await session(sb);
    sb.injectFaults(
      { kind: 'status', status: 503, count: 2, path: '/findings' },
      { kind: 'status', status: 500 },
    );
    const other = await as('GET', '/connections'); // only the second fault matches
    expectErrorShape(other, 500, 'internal_error');
    expect(other.headers.get('x-ratelimit-limit')).not.toBeNull();
    expectErrorShape(await as('GET', '/findings'), 503, 'service_unavailable');
    expect((await as('GET', '/findings?limit=1')).status).toBe(503);
    expect((await as('GET', '/findings?limit=1')).status).toBe(200);
    expect(sb.requests.map((r) => r.fault)).toEqual(['status:500', 'status:503', 'status:503', undefined]);
    expect(sb.requests.map((r) => r.status)).toEqual([500, 503, 503, 200]);
  });

  it('matches a fault by method', async () => {
    const as = await session(sb);
    sb.injectFaults({ kind: 'status', status: 502, method: 'POST', path: '/connections' });
    expect((await as('GET', '/connections')).status).toBe(200);
    expect((await as('POST', '/connections', { body: { alias: 'm1', provider: 'aws' } })).status).toBe(502);
  });

  it('a 429 fault sets Remaining 0, Reset ahead and Retry-After', async () => {
    const as = await session(sb);
    sb.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 2 });
    const res = await as('GET', '/connections');
    expectErrorShape(res, 429, 'rate_limited');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('retry-after')).toBe('2');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThanOrEqual(Date.now() + 1000);
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 3000);
  });

  it('slow delays the answer', async () => {
    const as = await session(sb);
    sb.injectFaults({ kind: 'slow', ms: 300 });
    const started = Date.now();
    expect((await as('GET', '/connections')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('slow can outlast a client timeout, and the request was still handled', async () => {
    const token = await sb.issueAccessToken('owner@acme.test', 60);
    sb.injectFaults({ kind: 'slow', ms: 2000, path: '/connections' });
    await expect(
      fetch(`${sb.url}/api/v1/connections`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Tenant-Slug': 'acme',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ alias: 'late', provider: 'aws' }),
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    const list = await (await session(sb))('GET', '/connections');
    expect(list.body.connections.map((c: { alias: string }) => c.alias)).toContain('late');
  });

  it('cut resets the connection without handling the request', async () => {
    const as = await session(sb);
    sb.injectFaults({ kind: 'cut', path: '/connections' });
    await expect(as('POST', '/connections', { body: { alias: 'cut1', provider: 'aws' } })).rejects.toThrow();
    expect(sb.requests.at(-1)).toMatchObject({ fault: 'cut', status: 0 });
    expect((await as('GET', '/connections')).body.total).toBe(4);
  });

  it('cut after handles the request, then loses the answer', async () => {
    const as = await session(sb);
    sb.injectFaults({ kind: 'cut', after: true, path: '/connections' });
    await expect(as('POST', '/connections', { body: { alias: 'cut2', provider: 'aws' } })).rejects.toThrow();
    expect((await as('GET', '/connections')).body.total).toBe(5);
  });

  it('stall-body sends the headers, then waits before the body', async () => {
    const token = await sb.issueAccessToken('owner@acme.test', 60);
    sb.injectFaults({ kind: 'stall-body', ms: 300 });
    const started = Date.now();
    const res = await fetch(`${sb.url}/api/v1/connections`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Tenant-Slug': 'acme' },
    });
    const headersAt = Date.now() - started;
    expect(res.status).toBe(200);
    await res.json();
    expect(headersAt).toBeLessThan(250);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('takes faults from the options', async () => {
    const faulty = await startSandbox({ faults: parseFaults('504x1@/findings') });
    try {
      const as = await session(faulty);
      expect((await as('GET', '/connections')).status).toBe(200);
      expect((await as('GET', '/findings')).status).toBe(504);
      expect((await as('GET', '/findings')).status).toBe(200);
    } finally {
      await faulty.close();
    }
  });
});

describe('parseFaults (SANDBOX_FAULTS syntax)', () => {
  it('parses every kind with counts, parameters, methods and path prefixes', () => {
    expect(
      parseFaults('500x3, 429:5x1@/scans, slow:5000, reset x1, cut:after@POST/connections, stall:300x2'),
    ).toEqual([
      { kind: 'status', status: 500, count: 3 },
      { kind: 'status', status: 429, count: 1, path: '/scans', retryAfterSeconds: 5 },
      { kind: 'slow', ms: 5000, count: 1 },
      { kind: 'cut', count: 1 },
      { kind: 'cut', count: 1, after: true, path: '/connections', method: 'POST' },
      { kind: 'stall-body', ms: 300, count: 2 },
    ]);
    expect(parseFaults('')).toEqual([]);
  });

  it.each(['418', 'slow', 'slowx2', 'boom:1', '500:3', '500x0', 'cut:5'])(
    'rejects %j with a message',
    (spec) => {
      expect(() => parseFaults(spec)).toThrow(/bad fault/);
    },
  );
});

// ---- lifecycle --------------------------------------------------------------------------------

describe('sandbox lifecycle', () => {
  it('reset() restores the seed and forgets tokens, limits, faults and requests', async () => {
    const sb = await startSandbox({ rateLimit: 3 });
    try {
      const as = await session(sb);
      const tokens = await login(sb);
      await as('POST', '/connections', { body: { alias: 'gone', provider: 'aws' } });
      await as('GET', '/connections');
      sb.injectFaults({ kind: 'status', status: 500 });
      sb.reset();
      expect(sb.requests).toHaveLength(0);
      const list = await as('GET', '/connections');
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(4);
      expect(list.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(
        (await call(sb, 'POST', '/auth/refresh', { body: { refresh_token: tokens.refresh_token } })).status,
      ).toBe(401);
    } finally {
      await sb.close();
    }
  });

  it('close() ends keep-alive connections at once and frees the port', async () => {
    const sb = await startSandbox();
    const as = await session(sb);
    expect((await as('GET', '/connections')).status).toBe(200); // leaves a keep-alive socket open
    const started = Date.now();
    await sb.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(fetch(`${sb.url}/api/v1/connections`)).rejects.toThrow();
    const again = await startSandbox({ port: sb.port });
    await again.close();
  });

  it('fails to start on a port in use', async () => {
    const sb = await startSandbox();
    try {
      await expect(startSandbox({ port: sb.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await sb.close();
    }
  });
});

// ---- npm run sandbox --------------------------------------------------------------------------

describe('optionsFromEnv and banner', () => {
  it('reads the SANDBOX_* variables', () => {
    expect(
      optionsFromEnv({
        PORT: '9000',
        SANDBOX_TOKEN_TTL: '120',
        SANDBOX_RATE_LIMIT: '5',
        SANDBOX_SCAN_RATE_LIMIT: '2',
        SANDBOX_LOGIN_RATE_LIMIT: '3',
        SANDBOX_RATE_WINDOW: '10',
        SANDBOX_MAX_PAGE_SIZE: '20',
        SANDBOX_SCAN_STEP_MS: '0',
        SANDBOX_FINDINGS: '100',
        SANDBOX_REFRESH_OMIT: 'refresh_token, expires_in',
        SANDBOX_FAULTS: '500x2',
        SANDBOX_SEED: '42',
      }),
    ).toEqual({
      port: 9000,
      tokenTtlSeconds: 120,
      rateLimit: 5,
      scanRateLimit: 2,
      loginRateLimit: 3,
      rateWindowSeconds: 10,
      maxPageSize: 20,
      defaultPageSize: 20,
      scanStepMs: 0,
      findingsPerWorkspace: 100,
      refreshOmit: ['refresh_token', 'expires_in'],
      faults: [{ kind: 'status', status: 500, count: 2 }],
      seed: 42,
    });
    expect(optionsFromEnv({})).toEqual({ port: 8787 });
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', 'abc'],
    ['SANDBOX_RATE_LIMIT', '0'],
    ['SANDBOX_TOKEN_TTL', '1.5'],
    ['SANDBOX_REFRESH_OMIT', 'access_token'],
    ['SANDBOX_FAULTS', 'explode'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => optionsFromEnv({ [name]: value })).toThrow(name);
  });

  it('prints the URL, the credentials and a ready-to-paste login line', async () => {
    const sb = await startSandbox();
    try {
      const text = banner('http://127.0.0.1:8787', sb.credentials, 0);
      expect(text).toContain('http://127.0.0.1:8787');
      for (const c of sb.credentials)
        expect(text).toMatch(new RegExp(`${c.workspace}\\s+${c.role}\\s+${c.email}\\s+${c.password}`));
      expect(text).toContain(
        "cssctl login --base-url http://127.0.0.1:8787 -w acme --email owner@acme.test --password-stdin <<< 'demo-owner-acme'",
      );
    } finally {
      await sb.close();
    }
  });
});

describe('main.ts (bundled as npm run sandbox does)', () => {
  let dir: string;
  let bundle: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-main-'));
    bundle = join(dir, 'sandbox.js');
    await build({
      entryPoints: ['test/sandbox/main.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'silent',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(env: Record<string, string>) {
    const child = spawn(process.execPath, [bundle], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    return { child, exited, out: () => stdout, err: () => stderr };
  }

  it('starts, serves, and stops cleanly on SIGTERM', async () => {
    const p = run({ PORT: '0', SANDBOX_SEED: '3' });
    const banner = await until(
      async () => p.out(),
      (s) => s.includes('Press Ctrl-C'),
    );
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    const res = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'owner@acme.test', password: 'demo-owner-acme' }),
    });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('exits 2 with one line on a bad variable', async () => {
    const p = run({ SANDBOX_RATE_LIMIT: 'lots' });
    expect(await p.exited).toBe(2);
    expect(p.err().trim().split('\n')).toHaveLength(1);
    expect(p.err()).toContain('SANDBOX_RATE_LIMIT');
  });

  it('exits 1 with one line when the port is in use', async () => {
    const sb = await startSandbox();
    try {
      const p = run({ PORT: String(sb.port) });
      expect(await p.exited).toBe(1);
      expect(p.err().trim().split('\n')).toHaveLength(1);
      expect(p.err()).toMatch(/already in use/);
    } finally {
      await sb.close();
    }
  });
});
