// `cssctl doctor` through its run function: a fake context (scripted service, fake clock, the file store in a
// private folder) and network probes that answer as the test says. Offline checks first, then online; exit 1
// only when a check failed; no token or secret in any output.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verb } from '../../src/report/result.js';
import { runDoctor, NAMES, type Check } from '../../src/commands/doctor/doctor.js';
import { noProxyMatches, proxyCheck, redactProxy } from '../../src/commands/doctor/offline.js';
import { ProbeError, type Probes } from '../../src/commands/doctor/probes.js';
import { KeychainStore } from '../../src/core/credentials.js';
import { KeychainLockedError } from '../../src/core/keychain.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { Reply } from '../helpers/fake-send.js';
import { json, verbWorld, type VerbWorld } from '../helpers/verb.js';

const STORED_ACCESS = 'stored-ACCESS-canary-1111';
const STORED_REFRESH = 'stored-REFRESH-canary-2222';
const NEW_ACCESS = 'new-ACCESS-canary-3333';
const NEW_REFRESH = 'new-REFRESH-canary-4444';
const ENV_TOKEN = 'env-TOKEN-canary-5555';
const PROXY_PASSWORD = 'proxy-PASSWORD-canary-6666';
const CANARIES = [STORED_ACCESS, STORED_REFRESH, NEW_ACCESS, NEW_REFRESH, ENV_TOKEN, PROXY_PASSWORD];
const HOUR = 3600_000;

/** Probes that get through, each replaceable. */
function probes(over: Partial<Probes> = {}): Probes & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve: async (host) => {
      calls.push(`resolve ${host}`);
      return /^[\d.]+$/.test(host) ? [host] : ['192.0.2.10'];
    },
    connect: async (host, port) => {
      calls.push(`connect ${host}:${port}`);
    },
    tls: async (host, port) => {
      calls.push(`tls ${host}:${port}`);
      return { protocol: 'TLSv1.3', issuer: 'Example CA', validTo: Date.UTC(2027, 5, 1) };
    },
    ...over,
  };
}

const doctorWith =
  (p: Probes): Verb<Record<string, never>> =>
  (ctx) =>
    runDoctor(ctx, p);

/** The refresh answer, then the API's, with a Date header `skewS` seconds from the fake clock. */
function refreshed(): Reply {
  return json({ access_token: NEW_ACCESS, refresh_token: NEW_REFRESH, expires_in: 3600 });
}
function apiAnswer(
  w: () => VerbWorld,
  over: { skewS?: number; status?: number; headers?: Record<string, string>; body?: string } = {},
): Reply {
  return () => ({
    status: over.status ?? 200,
    body: over.body ?? JSON.stringify({ connections: [], total: 0 }),
    headers: {
      date: new Date(w().clock.now() + (over.skewS ?? 0) * 1000).toUTCString(),
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '117',
      'x-ratelimit-reset': String(Math.floor(w().clock.now() / 1000) + 42),
      ...over.headers,
    },
  });
}

/** A world logged in with the file store (no CSSCTL_TOKEN), its access token good for an hour. */
async function loggedIn(
  replies: (w: () => VerbWorld) => Reply[],
  opts: Parameters<typeof verbWorld>[1] = {},
) {
  const world: VerbWorld = verbWorld(
    replies(() => world),
    {
      ...opts,
      env: { CSSCTL_TOKEN: undefined, ...opts.env },
    },
  );
  await world.ctx.seedLogin({
    access_token: STORED_ACCESS,
    refresh_token: STORED_REFRESH,
    token_type: 'bearer',
    expires_at: world.clock.now() + HOUR,
  });
  return world;
}

/** The lines of the table as [status, name]. */
function statuses(w: VerbWorld): [string, string][] {
  return w.stdout.text
    .trimEnd()
    .split('\n')
    .map((l) => l.split(/\s+/).slice(0, 2) as [string, string]);
}
function line(w: VerbWorld, name: string): string {
  const found = w.stdout.text.split('\n').find((l) => l.split(/\s+/)[1] === name);
  if (!found) throw new Error(`no ${name} line in:\n${w.stdout.text}`);
  return found;
}
function noSecrets(w: VerbWorld): void {
  for (const s of CANARIES) {
    expect(w.stdout.text).not.toContain(s);
    expect(w.stderr.text).not.toContain(s);
  }
}

describe('doctor: healthy', () => {
  it('every check ok, offline first, in order; the refresh is done and its tokens saved, never shown; exit 0', async () => {
    const p = probes();
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w)]);
    expect(await w.run(doctorWith(p), {}), w.stderr.text).toBe(0);
    expect(statuses(w)).toStrictEqual(NAMES.map((n) => ['ok', n]));
    expect(w.requests()).toStrictEqual(['POST /auth/refresh', 'GET /connections?limit=1']);
    // The probe goes as every command's request: the fresh token, the workspace.
    expect(w.sent[1]!.req.headers).toMatchObject({
      authorization: `Bearer ${NEW_ACCESS}`,
      'x-tenant-slug': 'acme',
    });
    const saved = JSON.parse(readFileSync(join(w.ctx.configDir, 'credentials.json'), 'utf8')) as {
      profiles: Record<string, { refresh_token: string }>;
    };
    expect(saved.profiles.default!.refresh_token).toBe(NEW_REFRESH);
    expect(line(w, 'refresh')).toMatch(/a refresh works: the new access token expires in 60m/);
    expect(line(w, 'rate-limit')).toMatch(/117 of 120 requests left; it resets in 42s/);
    expect(line(w, 'clock')).toMatch(/within 1 s of the service's clock/);
    expect(line(w, 'tls')).toMatch(/plain HTTP to a loopback address/);
    expect(p.calls).toStrictEqual(['resolve 127.0.0.1', 'connect 127.0.0.1:1']);
    expect(w.stderr.text).toBe('');
    noSecrets(w);
  });

  it('--json: {"checks": [{name, status, detail, hint}]} in the same order; --verbose adds no secret', async () => {
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w)], {
      output: 'json',
      globals: { json: true, verbose: true },
    });
    expect(await w.run(doctorWith(probes()), {}), w.stderr.text).toBe(0);
    const doc = JSON.parse(w.stdout.text) as { checks: Check[] };
    expect(Object.keys(doc)).toStrictEqual(['checks']);
    expect(doc.checks.map((c) => c.name)).toStrictEqual([...NAMES]);
    for (const c of doc.checks) {
      expect(Object.keys(c)).toStrictEqual(['name', 'status', 'detail', 'hint']);
      expect(c.status).toBe('ok');
      expect(c.hint).toBeNull();
    }
    expect(w.stderr.text).toMatch(/GET http:\/\/127\.0\.0\.1:1\/api\/v1\/connections\?limit=1/);
    noSecrets(w);
  });

  it('-o ndjson: the document on one line', async () => {
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w)], { output: 'ndjson' });
    expect(await w.run(doctorWith(probes()), {})).toBe(0);
    expect(w.stdout.text.trimEnd().split('\n')).toHaveLength(1);
    expect((JSON.parse(w.stdout.text) as { checks: Check[] }).checks).toHaveLength(NAMES.length);
  });

  it('CSSCTL_TOKEN: used as it is, nothing refreshed; sent as the bearer, never printed', async () => {
    const w: VerbWorld = verbWorld([apiAnswer(() => w)], { env: { CSSCTL_TOKEN: ENV_TOKEN } });
    expect(await w.run(doctorWith(probes()), {}), w.stderr.text).toBe(0);
    expect(line(w, 'config')).toMatch(/^ok .*the settings come from the environment/);
    expect(line(w, 'session')).toMatch(/CSSCTL_TOKEN is set and used as it is/);
    expect(line(w, 'refresh')).toMatch(/^ok .*nothing to refresh/);
    expect(w.requests()).toStrictEqual(['GET /connections?limit=1']);
    expect(w.sent[0]!.req.headers.authorization).toBe(`Bearer ${ENV_TOKEN}`);
    noSecrets(w);
  });
});

describe('doctor: the service down, unreachable or not trusted', () => {
  it('connection refused: the offline checks still answer, tcp fails with what to do, nothing is sent; exit 1', async () => {
    const p = probes({
      connect: async () => {
        throw new ProbeError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED');
      },
    });
    const w = await loggedIn(() => []);
    expect(await w.run(doctorWith(p), {})).toBe(1);
    expect(statuses(w)).toStrictEqual([
      ['ok', 'config'],
      ['ok', 'profile'],
      ['ok', 'credentials'],
      ['ok', 'session'],
      ['ok', 'versions'],
      ['ok', 'proxy'],
      ['ok', 'dns'],
      ['fail', 'tcp'],
    ]);
    expect(line(w, 'tcp')).toMatch(
      /nothing listens at 127\.0\.0\.1:1 \(connection refused\) — is the service running/,
    );
    expect(w.sent).toHaveLength(0);
    expect(w.stderr.text).toBe('error: 1 check failed: tcp\n');
  });

  it('Ctrl-C during a probe: the run stops there with exit 130; the lines before it are written', async () => {
    const w = await loggedIn(() => []);
    const p = probes({
      connect: async () => {
        w.ctx.abort();
        throw new InterruptedError();
      },
    });
    expect(await w.run(doctorWith(p), {})).toBe(130);
    expect(statuses(w).at(-1)).toStrictEqual(['ok', 'dns']);
    expect(w.sent).toHaveLength(0);
  });

  it('a name that does not resolve: dns fails and the run stops there', async () => {
    const p = probes({
      resolve: async () => {
        throw new ProbeError('getaddrinfo ENOTFOUND scanner.example.test', 'ENOTFOUND');
      },
    });
    const w = await loggedIn(() => [], { env: { CSSCTL_BASE_URL: 'https://scanner.example.test' } });
    expect(await w.run(doctorWith(p), {})).toBe(1);
    expect(line(w, 'dns')).toMatch(
      /^fail .*cannot resolve scanner\.example\.test: getaddrinfo ENOTFOUND .* — check the host in base_url/,
    );
    expect(statuses(w).at(-1)).toStrictEqual(['fail', 'dns']);
  });

  it.each([
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      /not accepted: self-signed certificate in certificate chain — to trust a private CA, set NODE_EXTRA_CA_CERTS=/,
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'unable to verify the first certificate',
      /not accepted: unable to verify the first certificate — to trust a private CA, set NODE_EXTRA_CA_CERTS/,
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames",
      /not for this name: .* — use in base_url a name the certificate holds/,
    ],
  ])('TLS %s: fail with what to do, nothing sent', async (code, msg, expected) => {
    const p = probes({
      tls: async () => {
        throw new ProbeError(msg, code);
      },
    });
    const w = verbWorld([], {
      env: { CSSCTL_BASE_URL: 'https://scanner.example.test', CSSCTL_TOKEN: ENV_TOKEN },
    });
    expect(await w.run(doctorWith(p), {})).toBe(1);
    expect(line(w, 'tls')).toMatch(expected);
    expect(p.calls).toStrictEqual(['resolve scanner.example.test', 'connect scanner.example.test:443']);
    expect(statuses(w).at(-1)).toStrictEqual(['fail', 'tls']);
    expect(w.sent).toHaveLength(0);
    noSecrets(w);
  });

  it('TLS refused while NODE_EXTRA_CA_CERTS is set: the hint says the file does not hold the CA (or names no file)', async () => {
    const fail = probes({
      tls: async () => {
        throw new ProbeError('self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN');
      },
    });
    const held = verbWorld([], {
      env: { CSSCTL_BASE_URL: 'https://scanner.example.test', NODE_EXTRA_CA_CERTS: __filename },
    });
    expect(await held.run(doctorWith(fail), {})).toBe(1);
    expect(line(held, 'tls')).toContain(
      `NODE_EXTRA_CA_CERTS=${__filename} does not hold the CA that signed this certificate`,
    );
    const missing = verbWorld([], {
      env: { CSSCTL_BASE_URL: 'https://scanner.example.test', NODE_EXTRA_CA_CERTS: '/nonexistent/ca.pem' },
    });
    expect(await missing.run(doctorWith(fail), {})).toBe(1);
    expect(line(missing, 'tls')).toContain('NODE_EXTRA_CA_CERTS=/nonexistent/ca.pem names no file');
  });

  it('a certificate that ends within 14 days is a warning; later, ok', async () => {
    const soon = (days: number) =>
      probes({
        tls: async () => ({
          protocol: 'TLSv1.3',
          issuer: 'Example CA',
          validTo: Date.UTC(2026, 10, 22, 12) + days * 86_400_000,
        }),
      });
    const w: VerbWorld = verbWorld([apiAnswer(() => w)], {
      env: { CSSCTL_BASE_URL: 'https://scanner.example.test', CSSCTL_TOKEN: ENV_TOKEN },
    });
    expect(await w.run(doctorWith(soon(5)), {})).toBe(0);
    expect(line(w, 'tls')).toMatch(
      /^warn .*TLSv1\.3, certificate issued by Example CA, valid until 2026-11-27: it ends in 5 days/,
    );
    const ok: VerbWorld = verbWorld([apiAnswer(() => ok)], {
      env: { CSSCTL_BASE_URL: 'https://scanner.example.test', CSSCTL_TOKEN: ENV_TOKEN },
    });
    expect(await ok.run(doctorWith(soon(30)), {})).toBe(0);
    expect(line(ok, 'tls')).toMatch(/^ok /);
  });
});

describe('doctor: the clock against the Date header', () => {
  it.each([
    [0, 'ok', 0],
    [59, 'ok', 0],
    [-59, 'ok', 0],
    [61, 'warn', 0],
    [-90, 'warn', 0],
    [299, 'warn', 0],
    [301, 'fail', 1],
    [-3600, 'fail', 1],
  ] as const)('the service %i s off: %s (exit %i)', async (skewS, status, exit) => {
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w, { skewS })]);
    expect(await w.run(doctorWith(probes()), {})).toBe(exit);
    expect(line(w, 'clock').split(/\s+/)[0]).toBe(status);
    if (status !== 'ok') {
      // The service ahead means the local clock is behind, and the reverse.
      expect(line(w, 'clock')).toContain(skewS > 0 ? 'behind' : 'ahead of');
      expect(line(w, 'clock')).toContain('NTP');
    }
  });

  it("X-RateLimit-Reset is read against the service's clock, not a local one that is off", async () => {
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w, { skewS: 400 })]);
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    // The reset is 42 s after the fake clock's now, which the service's clock (400 s ahead) passed long ago.
    expect(line(w, 'rate-limit')).toBe('ok    rate-limit   117 of 120 requests left');
  });

  it('no Date header: a warning, exit 0', async () => {
    const w = await loggedIn(() => [refreshed(), json({ connections: [] })]);
    expect(await w.run(doctorWith(probes()), {})).toBe(0);
    expect(line(w, 'clock')).toMatch(/^warn .*no Date header/);
    expect(line(w, 'rate-limit')).toMatch(/^ok .*no rate-limit headers/);
  });
});

describe('doctor: the session', () => {
  it('a refresh the service refuses: fail, "run cssctl login"; the API is still asked with the stored token; exit 1', async () => {
    const w = await loggedIn((w) => [
      json({ detail: 'refresh token has been revoked', code: 'refresh_token_revoked' }, 401),
      apiAnswer(w),
    ]);
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    expect(line(w, 'refresh')).toMatch(
      /^fail .*the service refused the refresh token: refresh token has been revoked — run cssctl login/,
    );
    expect(w.sent[1]!.req.headers.authorization).toBe(`Bearer ${STORED_ACCESS}`);
    expect(w.stderr.text).toBe('error: 1 check failed: refresh\n');
    noSecrets(w);
  });

  it('not logged in: session fails; the API is asked without a token and a 401 is its answer', async () => {
    const w: VerbWorld = verbWorld(
      [apiAnswer(() => w, { status: 401, body: JSON.stringify({ detail: 'missing token' }) })],
      {
        env: { CSSCTL_TOKEN: undefined },
      },
    );
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    expect(line(w, 'session')).toMatch(/^fail .*not logged in \(profile "default"\) — run cssctl login/);
    expect(w.stdout.text).not.toMatch(/ refresh /);
    expect(w.sent[0]!.req.headers.authorization).toBeUndefined();
    expect(line(w, 'api')).toMatch(/^ok .*HTTP 401 without a session/);
  });

  it('an access token the API refuses: api fails with "run cssctl login"', async () => {
    const w = await loggedIn((w) => [
      refreshed(),
      apiAnswer(w, { status: 401, body: '{"detail":"access token is invalid"}' }),
    ]);
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    expect(line(w, 'api')).toMatch(
      /^fail .*refused the access token \(HTTP 401: access token is invalid\) — run cssctl login/,
    );
  });

  it('a locked keychain: credentials and session say locked (never "not logged in"), with the unlock hint; exit 1', async () => {
    const locked = {
      getPassword: async (_s: string, account: string) => {
        if (account === '__cssctl_probe__') return null;
        throw new KeychainLockedError();
      },
      setPassword: async () => {
        throw new KeychainLockedError();
      },
      deletePassword: async () => {
        throw new KeychainLockedError();
      },
    };
    const w = verbWorld([], {
      env: { CSSCTL_TOKEN: undefined, CSSCTL_CREDENTIAL_STORE: 'auto' },
      connectKeychain: async () => new KeychainStore(locked),
    });
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    expect(line(w, 'credentials')).toMatch(
      /^fail .*the OS keychain is locked \(CSSCTL_CREDENTIAL_STORE=auto\) — unlock your keyring/,
    );
    expect(line(w, 'session')).toMatch(/^fail .*keychain is locked/);
    expect(w.stdout.text).not.toMatch(/not logged in/);
  });

  it('a keychain that does not answer in auto mode: a warning naming the file store used instead', async () => {
    const w = verbWorld([], {
      output: 'json',
      env: { CSSCTL_TOKEN: undefined, CSSCTL_CREDENTIAL_STORE: 'keychain' },
    });
    expect(await w.run(doctorWith(probes()), {})).toBe(1);
    const doc = JSON.parse(w.stdout.text) as { checks: Check[] };
    expect(doc.checks.find((c) => c.name === 'credentials')).toMatchObject({
      status: 'fail',
      detail: 'no OS keychain could be reached (CSSCTL_CREDENTIAL_STORE=keychain)',
      hint: 'start a keyring/Secret Service, or set CSSCTL_CREDENTIAL_STORE=file',
    });
  });
});

describe('doctor: files and settings', () => {
  it.runIf(process.platform !== 'win32')(
    'credentials.json readable by others fails (chmod 600); the folder readable by others warns (chmod 700)',
    async () => {
      const w = await loggedIn((w) => [refreshed(), apiAnswer(w)]);
      chmodSync(join(w.ctx.configDir, 'credentials.json'), 0o644);
      chmodSync(w.ctx.configDir, 0o755);
      expect(await w.run(doctorWith(probes()), {})).toBe(1);
      const file = join(w.ctx.configDir, 'credentials.json');
      expect(line(w, 'credentials')).toMatch(/^fail /);
      expect(line(w, 'credentials')).toContain(`${file} can be read by other users (mode 0644)`);
      expect(line(w, 'credentials')).toContain(`chmod 600 ${file}; chmod 700 ${w.ctx.configDir}`);
      chmodSync(file, 0o600);
      const again = await loggedIn((w) => [refreshed(), apiAnswer(w)]);
      chmodSync(again.ctx.configDir, 0o755);
      expect(await again.run(doctorWith(probes()), {})).toBe(0);
      expect(line(again, 'credentials')).toMatch(
        /^warn .*can be read by other users \(mode 0755\) — chmod 700/,
      );
    },
  );

  it('config.json that is not JSON: config and profile fail naming the file; no online check; exit 1', async () => {
    const w = verbWorld([], { env: { CSSCTL_TOKEN: undefined } });
    writeFileSync(join(w.ctx.configDir, 'config.json'), '{ not json');
    const p = probes();
    expect(await w.run(doctorWith(p), {})).toBe(1);
    expect(statuses(w).map(([, n]) => n)).toStrictEqual([
      'config',
      'profile',
      'credentials',
      'versions',
      'proxy',
    ]);
    expect(line(w, 'config')).toMatch(/^fail .*config\.json: not valid JSON/);
    expect(p.calls).toStrictEqual([]);
  });

  it('a profile named that does not exist, and one without a workspace: profile fails with what to do', async () => {
    const missing = verbWorld([], { globals: { profile: 'nope' } });
    expect(await missing.run(doctorWith(probes()), {})).toBe(1);
    expect(line(missing, 'profile')).toMatch(
      /^fail .*no profile named "nope" \(--profile\) — cssctl config profiles/,
    );
    const noWorkspace = verbWorld([], { env: { CSSCTL_WORKSPACE: undefined } });
    expect(await noWorkspace.run(doctorWith(probes()), {})).toBe(1);
    expect(line(noWorkspace, 'profile')).toMatch(/^fail .*has no workspace — pass -w <slug>/);
  });
});

describe('doctor: the API and the rate limit', () => {
  it.each([
    [{ status: 503 }, 'fail', /the service has a problem \(HTTP 503/],
    [{ status: 404 }, 'fail', /HTTP 404 for the API(: not found)? — check base_url/],
    [
      { status: 403, body: '{"detail":"forbidden"}' },
      'warn',
      /may not list connections \(HTTP 403: forbidden\)/,
    ],
    [{ body: '<html>portal</html>' }, 'fail', /not JSON: this is not the service's API/],
  ] as const)('%j: %s', async (over, status, expected) => {
    const w = await loggedIn((w) => [refreshed(), apiAnswer(w, over)]);
    expect(await w.run(doctorWith(probes()), {})).toBe(status === 'fail' ? 1 : 0);
    expect(line(w, 'api').split(/\s+/)[0]).toBe(status);
    expect(line(w, 'api')).toMatch(expected);
  });

  it('a slow answer is a warning', async () => {
    const world = await loggedIn((w) => {
      const answer = apiAnswer(w) as Extract<Reply, (...args: never[]) => unknown>;
      return [
        refreshed(),
        (req) => {
          w().clock.t += 2500;
          return answer(req);
        },
      ];
    });
    expect(await world.run(doctorWith(probes()), {})).toBe(0);
    expect(line(world, 'api')).toMatch(/^warn .*slowly: HTTP 200 in 2\.5 s — raise --timeout/);
  });

  it.each([
    ['0', 'warn', /no request left \(limit 120\); it resets in 42s — commands wait for the reset/],
    ['5', 'warn', /5 of 120 requests left; it resets in 42s — another job may be spending/],
    ['12', 'ok', /12 of 120 requests left/],
  ])('X-RateLimit-Remaining %s: %s', async (remaining, status, expected) => {
    const w = await loggedIn((w) => [
      refreshed(),
      apiAnswer(w, { headers: { 'x-ratelimit-remaining': remaining } }),
    ]);
    expect(await w.run(doctorWith(probes()), {})).toBe(0);
    expect(line(w, 'rate-limit').split(/\s+/)[0]).toBe(status);
    expect(line(w, 'rate-limit')).toMatch(expected);
  });
});

describe('doctor: proxies', () => {
  it("HTTPS_PROXY with a password applies to an https service: shown masked; DNS and TCP probe the proxy; TLS is the request's", async () => {
    const p = probes();
    const w: VerbWorld = verbWorld([apiAnswer(() => w)], {
      env: {
        CSSCTL_BASE_URL: 'https://scanner.example.test',
        CSSCTL_TOKEN: ENV_TOKEN,
        HTTPS_PROXY: `http://alice:${PROXY_PASSWORD}@proxy.corp.test:3128`,
      },
    });
    expect(await w.run(doctorWith(p), {}), w.stdout.text).toBe(0);
    expect(line(w, 'proxy')).toMatch(
      /^ok .*HTTPS_PROXY=http:\/\/\*\*\*@proxy\.corp\.test:3128 applies: scanner\.example\.test is reached through it/,
    );
    expect(p.calls).toStrictEqual(['resolve proxy.corp.test', 'connect proxy.corp.test:3128']);
    expect(line(w, 'tls')).toMatch(/^ok .*accepted through the proxy proxy\.corp\.test:3128/);
    noSecrets(w);
  });

  it.each([
    [
      { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.test' },
      'https://scanner.example.test',
      /NO_PROXY matches scanner\.example\.test: it is reached directly/,
    ],
    [{ HTTPS_PROXY: 'http://p:1' }, 'http://127.0.0.1:8787', /127\.0\.0\.1 is loopback, reached directly/],
    [{ HTTP_PROXY: 'http://p:1' }, 'https://scanner.example.test', /HTTP_PROXY=http:\/\/p:1 applies/],
    [
      { https_proxy: '', HTTP_PROXY: 'http://p:1' },
      'https://scanner.example.test',
      /HTTP_PROXY=http:\/\/p:1 applies/,
    ],
    [
      { HTTPS_PROXY: 'http://p:1', ALL_PROXY: 'socks5://q:1' },
      'https://scanner.example.test',
      /^warn .*ALL_PROXY is set, but cssctl uses only/,
    ],
  ] as const)('%j for %s', (env, base, expected) => {
    const { check } = proxyCheck(env, base);
    expect(`${check.status} ${check.detail}`).toMatch(expected);
  });

  it('a proxy variable that is not a URL fails', () => {
    const { check } = proxyCheck({ HTTPS_PROXY: 'proxy.corp:3128' }, 'https://scanner.example.test');
    expect(check).toMatchObject({
      status: 'fail',
      detail: 'HTTPS_PROXY=proxy.corp:3128 is not an http:// or https:// URL',
    });
  });

  it('NO_PROXY as undici reads it: exact names, suffixes, *.wildcards (not the apex), ports, *', () => {
    expect(noProxyMatches('example.test', 'example.test', 443)).toBe(true);
    expect(noProxyMatches('example.test', 'api.example.test', 443)).toBe(true);
    expect(noProxyMatches('*.example.test', 'example.test', 443)).toBe(false);
    expect(noProxyMatches('*.example.test', 'api.example.test', 443)).toBe(true);
    expect(noProxyMatches('example.test:8443', 'example.test', 443)).toBe(false);
    expect(noProxyMatches('example.test:443', 'example.test', 443)).toBe(true);
    expect(noProxyMatches('other.test, *', 'example.test', 443)).toBe(true);
    expect(noProxyMatches('notexample.test', 'example.test', 443)).toBe(false);
    expect(noProxyMatches('', 'example.test', 443)).toBe(false);
  });

  it('redactProxy masks a user name and password, and leaves the rest', () => {
    expect(redactProxy(`http://u:${PROXY_PASSWORD}@p.test:3128`)).toBe('http://***@p.test:3128');
    expect(redactProxy('http://p.test:3128')).toBe('http://p.test:3128');
    expect(redactProxy(`not a url //u:${PROXY_PASSWORD}@x`)).not.toContain(PROXY_PASSWORD);
  });
});
