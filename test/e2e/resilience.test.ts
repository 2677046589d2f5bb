import { execFileSync, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliSpawn, World, received, type CliResult } from './harness.js';

function credFile(w: World) {
  return join(w.configDir, 'credentials.json');
}
function readCreds(w: World, profile = 'default') {
  return JSON.parse(readFileSync(credFile(w), 'utf8')).profiles[profile];
}
function patchCreds(w: World, patch: Record<string, unknown>, profile = 'default') {
  const data = JSON.parse(readFileSync(credFile(w), 'utf8'));
  Object.assign(data.profiles[profile], patch);
  writeFileSync(credFile(w), JSON.stringify(data), { mode: 0o600 });
}

describe('refresh', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start();
  });
  afterAll(() => w.close());
  beforeEach(async () => {
    w.sandbox.reset();
    w.sandbox.setTokenTtl(3600);
    await w.login();
    w.sandbox.clearRequests();
  });

  it('refreshes before the request when the token expires within 60 s', async () => {
    patchCreds(w, { expires_at: Date.now() + 30_000 });
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code).toBe(0);
    const paths = w.sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(paths).toEqual(['POST /api/v1/auth/refresh 200', 'GET /api/v1/connections 200']);
    const fresh = readCreds(w);
    expect(w.sandbox.requests[1]!.headers.authorization).toBe(`Bearer ${fresh.access_token}`);
    expect(fresh.expires_at).toBeGreaterThan(Date.now() + 3000_000);
  });

  it('on a 401 refreshes once and replays the request once', async () => {
    const expired = await w.sandbox.issueAccessToken(w.cred().email, -10);
    patchCreds(w, { access_token: expired, expires_at: Date.now() + 3600_000 });
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code).toBe(0);
    expect(w.sandbox.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      '/api/v1/connections 401',
      '/api/v1/auth/refresh 200',
      '/api/v1/connections 200',
    ]);
  });

  it('a refused refresh is exit 3: "session expired, run cssctl login"', async () => {
    w.sandbox.revokeAllRefreshTokens();
    patchCreds(w, { expires_at: Date.now() - 1000 });
    const res = await w.run(['connections', 'list']);
    expect(res.code).toBe(3);
    expect(res.stderr.trim()).toBe('error: session expired, run cssctl login');
    expect(received(w.sandbox, '/connections')).toHaveLength(0);
  });

  it('ten cssctl processes needing a refresh at once: exactly one refresh, all succeed, nobody logged out', async () => {
    const expired = await w.sandbox.issueAccessToken(w.cred().email, -10);
    patchCreds(w, { access_token: expired, expires_at: Date.now() - 1000 });
    const runs = await Promise.all(
      Array.from({ length: 10 }, () => w.run(['connections', 'list', '--json'], { timeoutMs: 60_000 })),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    for (const r of runs) expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    // Still logged in, with the rotated tokens of the one refresh.
    const after = await w.run(['auth', 'status', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(readCreds(w).access_token).not.toBe(expired);
    // Refresh tokens rotate and a reused one is refused: a second refresh would have failed a process.
    expect(received(w.sandbox, '/auth/refresh')).toHaveLength(1);
    expect(received(w.sandbox, '/connections').every((r) => r.status === 200)).toBe(true);
  });
});

describe('refresh answers without refresh_token or expires_in', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start({ refreshOmit: ['refresh_token', 'expires_in'] });
  });
  afterAll(() => w.close());

  it('keeps the old refresh token and reads the expiry from the JWT', async () => {
    await w.login();
    const before = readCreds(w);
    const res = await w.run(['auth', 'refresh']);
    expect(res.code, res.stderr).toBe(0);
    const after = readCreds(w);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
    const exp = JSON.parse(Buffer.from(after.access_token.split('.')[1], 'base64url').toString()).exp;
    expect(after.expires_at).toBe(exp * 1000);
  });
});

describe('rate limits', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start({ rateLimit: 3, rateWindowSeconds: 2 });
  });
  afterAll(() => w.close());
  beforeEach(async () => {
    w.sandbox.reset();
    // The sandbox forgot its windows; so must cssctl's record of exhausted ones.
    rmSync(join(w.configDir, 'ratelimit-state.json'), { force: true });
    await w.login();
    // Let the window of the login turn over before measuring.
    await new Promise((r) => setTimeout(r, 100));
    w.sandbox.clearRequests();
  });

  it('with Remaining 0, waits for Reset before the next request: no 429 is ever provoked', async () => {
    const res = await w.run(['connections', 'list', '--all', '--limit', '1', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).length).toBeGreaterThanOrEqual(4);
    // The sandbox is the judge: had any request gone out before its window's Reset, it would have been a 429.
    const reqs = received(w.sandbox, '/connections');
    expect(reqs.length).toBeGreaterThan(3);
    expect(reqs.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(res.stderr).toMatch(/rate limit reached; waiting \d/);
  });

  it('a window exhausted by one cssctl process holds back the next process too', async () => {
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await w.run(['connections', 'list', '--json']));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(received(w.sandbox, '/connections').map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const state = readFileSync(join(w.configDir, 'ratelimit-state.json'), 'utf8');
    expect(Object.keys(JSON.parse(state))[0]).toBe(`${w.url} acme all`);
  });

  it('on 429 waits for Retry-After/Reset, says so once, then succeeds', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 1, path: '/connections' });
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const reqs = received(w.sandbox, '/connections');
    expect(reqs.map((r) => r.status)).toEqual([429, 200]);
    expect(reqs[1]!.time - reqs[0]!.time).toBeGreaterThanOrEqual(900);
    expect(res.stderr.match(/rate limited by the service; waiting/g)).toHaveLength(1);
  });

  it('past --max-wait it is exit 8, at once', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 30, path: '/connections' });
    const res = await w.run(['connections', 'list', '--max-wait', '2']);
    expect(res.code).toBe(8);
    expect(res.ms).toBeLessThan(5000);
    expect(res.stderr).toMatch(/^error: rate limited.*--max-wait/m);
    expect(received(w.sandbox, '/connections')).toHaveLength(1);
  });

  it('-q silences the waiting notice', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 1, path: '/connections' });
    const res = await w.run(['connections', 'list', '--json', '-q']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
  });
});

describe('retries, timeouts and idempotency', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start();
    await w.login();
  });
  afterAll(() => w.close());
  beforeEach(() => w.sandbox.clearRequests());

  it('retries 500/502/503 and succeeds on the third attempt', async () => {
    w.sandbox.injectFaults(
      { kind: 'status', status: 500, path: '/connections' },
      { kind: 'status', status: 503, path: '/connections' },
    );
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(received(w.sandbox, '/connections').map((r) => r.status)).toEqual([500, 503, 200]);
    expect(res.stderr).toMatch(/retrying in .* \(attempt 2 of 3\)/);
  });

  it('gives up after three attempts: exit 1', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 502, count: 5, path: '/connections' });
    const res = await w.run(['connections', 'list']);
    expect(res.code).toBe(1);
    expect(received(w.sandbox, '/connections')).toHaveLength(3);
    w.sandbox.reset();
    await w.login();
  });

  it('a POST whose answer was lost is retried with the same Idempotency-Key and not created twice', async () => {
    w.sandbox.injectFaults({ kind: 'cut', after: true, path: '/connections', method: 'POST' });
    const res = await w.run(['connections', 'create', '--alias', 'once-only', '--provider', 'gcp', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const posts = received(w.sandbox, '/connections', 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key']);
    expect(JSON.parse(res.stdout).alias).toBe('once-only');
  });

  it('a reset connection is retried', async () => {
    w.sandbox.injectFaults({ kind: 'cut', path: '/connections' });
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(received(w.sandbox, '/connections')).toHaveLength(2);
  });

  it('--timeout bounds each request; a slow answer is retried, and a service that stays slow is exit 1', async () => {
    w.sandbox.injectFaults({ kind: 'slow', ms: 1500, path: '/connections' });
    const ok = await w.run(['connections', 'list', '--json', '--timeout', '0.4']);
    expect(ok.code, ok.stderr).toBe(0);
    w.sandbox.injectFaults({ kind: 'slow', ms: 1500, count: 3, path: '/connections' });
    const bad = await w.run(['connections', 'list', '--timeout', '0.3']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/timed out after 0.3s/);
  });
});

describe('proxies and verbose logging', () => {
  let w: World;
  let proxy: Server;
  const proxied: string[] = [];
  beforeAll(async () => {
    w = await World.start();
    await w.login();
    // A minimal forward proxy: absolute-form request lines, relayed to the target.
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const up = httpRequest(target, { method: req.method, headers: req.headers }, (upRes) => {
        res.writeHead(upRes.statusCode!, upRes.headers);
        upRes.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await w.close();
  });

  it('never sends loopback traffic through HTTP_PROXY or http_proxy: the proxy sees no token, no password', async () => {
    const port = (proxy.address() as AddressInfo).port;
    const env = { HTTP_PROXY: `http://127.0.0.1:${port}`, http_proxy: `http://127.0.0.1:${port}` };
    const c = w.cred();
    const login = await w.run(
      ['login', '--base-url', w.url, '-w', 'acme', '--email', c.email, '--password-stdin'],
      { env, input: `${c.password}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const res = await w.run(['connections', 'list', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(proxied).toEqual([]);
    expect(received(w.sandbox, '/connections').length).toBeGreaterThan(0);
  });

  it('--verbose logs one line per exchange with method, URL, status, duration and rate-limit headers', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 500, path: '/connections' });
    const res = await w.run(['connections', 'list', '--json', '--verbose']);
    expect(res.code).toBe(0);
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('* '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\* GET ${w.url}/api/v1/connections -> 500 \\d+ms ratelimit=\\d+/120 reset=\\d+ request_id=req_\\w+$`,
      ),
    );
    expect(lines[1]).toMatch(/-> 200 \d+ms .* attempt=2/);
    const viaEnv = await w.run(['connections', 'list', '--json'], { env: { CSSCTL_DEBUG: '1' } });
    expect(viaEnv.stderr).toMatch(/^\* GET /m);
  });
});

describe('secrets canary', () => {
  it('no token, refresh token or password appears in any output, log or config file', async () => {
    const w = await World.start();
    try {
      const c = w.cred();
      const outputs: CliResult[] = [];
      const run = async (args: string[], opts = {}) => {
        const r = await w.run(args, opts);
        outputs.push(r);
        return r;
      };
      outputs.push(await w.login('acme', 'owner', ['--verbose']));
      const tokensAtLogin = readCreds(w);
      await run(['auth', 'status', '--verbose']);
      await run(['connections', 'list', '--verbose', '--json']);
      await run(['auth', 'refresh', '--verbose']);
      const tokensAfter = readCreds(w);
      w.sandbox.injectFaults({ kind: 'status', status: 500, path: '/connections' });
      await run(['connections', 'list', '--verbose', '-o', 'json']);
      await run(['connections', 'create', '--alias', 'prod', '--provider', 'aws', '--verbose']); // 409
      await run(['api', '/nope', '--verbose']); // 404
      await run(
        ['login', '--base-url', w.url, '-w', 'acme', '--email', c.email, '--password-stdin', '--verbose'],
        {
          input: `${c.password}x\n`,
        },
      ); // wrong password
      await run(['config', 'list', '--verbose']);
      const secrets = [
        c.password,
        tokensAtLogin.access_token,
        tokensAtLogin.refresh_token,
        tokensAfter.access_token,
        tokensAfter.refresh_token,
      ];
      const text = outputs.map((o) => o.stdout + o.stderr).join('\n');
      expect(text).toMatch(/^\* POST .*auth\/login -> 200/m); // the verbose log did run
      const configFiles = readdirSync(w.configDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== 'credentials.json')
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
        .join('\n');
      for (const s of secrets) {
        expect(s.length).toBeGreaterThan(8);
        expect(text).not.toContain(s);
        expect(configFiles).not.toContain(s);
      }
      // The password and tokens never reach a URL either.
      for (const r of w.sandbox.requests)
        for (const s of secrets) expect(r.path + JSON.stringify(r.query)).not.toContain(s);
    } finally {
      await w.close();
    }
  });
});

describe('interrupts', () => {
  it('Ctrl-C during a rate-limit wait stops at once with exit 130', async () => {
    const w = await World.start();
    try {
      await w.login();
      w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 30, path: '/connections' });
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(w.env)) if (v !== undefined) env[k] = v;
      const child = spawn(...cliSpawn(['connections', 'list']), { env });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (stderr.includes('waiting')) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      const sent = Date.now();
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code).toBe(130);
      expect(Date.now() - sent).toBeLessThan(1500);
      expect(stderr).toMatch(/error: interrupted/);
    } finally {
      await w.close();
    }
  });
});

/** A 64 KiB tmpfs, when this machine lets us mount one (root in a container that allows it). */
function smallTmpfs(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('disk full during a refresh (issue 9 #3)', () => {
  let w: World;
  let mounted = false;
  beforeAll(async () => {
    w = await World.start();
    mounted = process.platform === 'linux' && smallTmpfs(w.configDir);
  });
  afterAll(async () => {
    if (mounted) execFileSync('umount', [w.configDir]);
    await w.close();
  });

  it('the new tokens cannot be saved: one clear line, exit 1, old file intact, no temporary files', async (t) => {
    if (!mounted) return t.skip();
    await w.login();
    patchCreds(w, { expires_at: Date.now() - 1000 });
    expect((await w.run(['connections', 'list', '--json'])).code).toBe(0); // creates the lock files
    patchCreds(w, { expires_at: Date.now() - 1000 });
    const before = readFileSync(credFile(w), 'utf8');
    // Fill the disk.
    try {
      writeFileSync(join(w.configDir, 'filler'), Buffer.alloc(128 * 1024));
    } catch {
      // ENOSPC: full, as wanted
    }
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list']);
    expect(res.code).toBe(1);
    expect(received(w.sandbox, '/auth/refresh')).toHaveLength(1);
    const line = res.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(/could not be saved.*no space left.*cssctl login/);
    expect(readFileSync(credFile(w), 'utf8')).toBe(before);
    expect(readdirSync(w.configDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('disk full during config set (conf writes config.json)', () => {
  let w: World;
  let mounted = false;
  beforeAll(async () => {
    w = await World.start();
    mounted = process.platform === 'linux' && smallTmpfs(w.configDir);
  });
  afterAll(async () => {
    if (mounted) execFileSync('umount', [w.configDir]);
    await w.close();
  });

  it('one line naming config.json, exit 1, the old file intact, no temporary file', async (t) => {
    if (!mounted) return t.skip();
    expect((await w.run(['config', 'set', 'workspace', 'acme'])).code).toBe(0);
    const file = join(w.configDir, 'config.json');
    const before = readFileSync(file, 'utf8');
    try {
      writeFileSync(join(w.configDir, 'filler'), Buffer.alloc(128 * 1024));
    } catch {
      // ENOSPC: full, as wanted
    }
    const res = await w.run(['config', 'set', 'email', `${'x'.repeat(60_000)}@example.com`]);
    expect(res.code).toBe(1);
    const line = res.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      new RegExp(`^error: cannot write ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no space left`),
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(w.configDir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
});
