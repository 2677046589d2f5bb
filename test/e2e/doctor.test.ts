// `cssctl doctor` as a user runs it, against the sandbox healthy and broken each way: the service down, TLS
// from a CA this machine does not trust, a skewed clock, a refresh token the service no longer takes, a locked
// keychain. In every output (stdout and stderr, --verbose and --json included) no password or token appears.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand, keytarMissing, type CliResult } from './harness.js';

/** The tokens the world's file store holds for a profile now. */
function storedTokens(w: World, profile = 'default'): string[] {
  const file = join(w.configDir, 'credentials.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    profiles: Record<string, { access_token: string; refresh_token?: string }>;
  };
  const t = data.profiles[profile]!;
  return [t.access_token, t.refresh_token ?? ''].filter(Boolean);
}

function expectNoSecret(res: CliResult, secrets: string[]): void {
  for (const s of secrets) {
    expect(res.stdout).not.toContain(s);
    expect(res.stderr).not.toContain(s);
  }
  expect(`${res.stdout}${res.stderr}`).not.toMatch(/Bearer /i);
}

/** [status, name] of each line. */
function statuses(res: CliResult): [string, string][] {
  return res.stdout
    .trimEnd()
    .split('\n')
    .map((l) => l.split(/\s+/).slice(0, 2) as [string, string]);
}
function line(res: CliResult, name: string): string {
  const found = res.stdout.split('\n').find((l) => l.split(/\s+/)[1] === name);
  if (!found) throw new Error(`no ${name} line in:\n${res.stdout}\n${res.stderr}`);
  return found;
}

const ALL = [
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
];
const FILE_STORE = { CSSCTL_CREDENTIAL_STORE: 'file' };

describe('doctor against the sandbox', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start();
    await w.login('acme', 'owner', [], { env: FILE_STORE });
  });
  afterAll(async () => {
    await w.close();
  });

  it('healthy: every check ok, exit 0; the refresh is done (new tokens stored) and no secret is shown, --verbose included', async () => {
    const before = storedTokens(w);
    const res = await w.run(['doctor', '--verbose'], { env: FILE_STORE });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(statuses(res)).toStrictEqual(ALL.map((n) => ['ok', n]));
    const after = storedTokens(w);
    expect(after[1]).not.toBe(before[1]);
    expect(res.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/connections\?limit=1/);
    expectNoSecret(res, [...before, ...after, w.cred().password]);
  });

  it('--json: {"checks": [...]} with name, status, detail, hint; a bad flag is exit 2', async () => {
    const res = await w.run(['doctor', '--json'], { env: FILE_STORE });
    expect(res.code, res.stderr).toBe(0);
    const doc = JSON.parse(res.stdout) as { checks: Record<string, unknown>[] };
    expect(doc.checks.map((c) => c.name)).toStrictEqual(ALL);
    for (const c of doc.checks) expect(Object.keys(c)).toStrictEqual(['name', 'status', 'detail', 'hint']);
    expectNoSecret(res, [...storedTokens(w), w.cred().password]);
    for (const args of [
      ['doctor', '-o', 'csv'],
      ['doctor', '--bogus'],
    ]) {
      const bad = await w.run(args, { env: FILE_STORE });
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stdout).toBe('');
    }
  });

  it.each([
    [120, 'warn', 0, /the local clock is 2m00s behind the service's/],
    [-90, 'warn', 0, /the local clock is 90s ahead of the service's/],
    [600, 'fail', 1, /the local clock is 10m00s behind the service's: tokens would look expired/],
  ] as const)('the service %i s off: clock %s, exit %i', async (skew, status, exit, expected) => {
    w.sandbox.setClockSkew(skew);
    try {
      const res = await w.run(['doctor'], { env: FILE_STORE });
      expect(res.code, res.stdout + res.stderr).toBe(exit);
      expect(line(res, 'clock')).toMatch(new RegExp(`^${status} `));
      expect(line(res, 'clock')).toMatch(expected);
      expect(line(res, 'clock')).toMatch(/NTP/);
      if (exit === 1) expect(res.stderr).toBe('error: 1 check failed: clock\n');
    } finally {
      w.sandbox.setClockSkew(0);
    }
  });

  it('the sandbox started with SANDBOX_CLOCK_SKEW_S answers a skewed Date header', async () => {
    const { optionsFromEnv } = await import('../sandbox/env.js');
    expect(optionsFromEnv({ SANDBOX_CLOCK_SKEW_S: '-400' })).toMatchObject({ clockSkewSeconds: -400 });
    expect(() => optionsFromEnv({ SANDBOX_CLOCK_SKEW_S: '1.5' })).toThrow('SANDBOX_CLOCK_SKEW_S');
    const skewed = await World.start({ clockSkewSeconds: 400 });
    try {
      const res = await fetch(`${skewed.url}/api/v1/connections`);
      const off = Date.parse(res.headers.get('date')!) - Date.now();
      expect(off).toBeGreaterThan(398_000);
      expect(off).toBeLessThan(402_000);
    } finally {
      await skewed.close();
    }
  });
});

describe('doctor with the service broken', () => {
  it('the service down: the offline checks still answer, tcp fails with what to do; exit 1, nothing shown of the session', async () => {
    const down = await World.start();
    try {
      await down.login('acme', 'owner', [], { env: FILE_STORE });
      const secrets = [...storedTokens(down), down.cred().password];
      await down.sandbox.close();
      const res = await down.run(['doctor'], { env: FILE_STORE });
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(statuses(res)).toStrictEqual([
        ['ok', 'config'],
        ['ok', 'profile'],
        ['ok', 'credentials'],
        ['ok', 'session'],
        ['ok', 'versions'],
        ['ok', 'proxy'],
        ['ok', 'dns'],
        ['fail', 'tcp'],
      ]);
      expect(line(res, 'tcp')).toMatch(
        /nothing listens at 127\.0\.0\.1:\d+ \(connection refused\) — is the service running/,
      );
      expect(res.stderr).toBe('error: 1 check failed: tcp\n');
      expectNoSecret(res, secrets);
    } finally {
      await down.close();
    }
  });

  it('a port that accepts and never answers: the run ends within its --timeout', async () => {
    const silent = createNetServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const w = await World.start();
    try {
      const port = (silent.address() as AddressInfo).port;
      const res = await w.run(
        ['doctor', '--timeout', '1', '--base-url', `http://127.0.0.1:${port}`, '-w', 'acme'],
        {
          env: { ...FILE_STORE, CSSCTL_TOKEN: 'canary-env-token-7777' },
          timeoutMs: 15_000,
        },
      );
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(line(res, 'api')).toMatch(/^fail .*timed out after 1s/);
      expectNoSecret(res, ['canary-env-token-7777']);
    } finally {
      silent.close();
      await w.close();
    }
  });

  it('a refresh token the service no longer takes: refresh fails with "run cssctl login"; exit 1', async () => {
    const w = await World.start();
    try {
      await w.login('acme', 'owner', [], { env: FILE_STORE });
      const secrets = [...storedTokens(w), w.cred().password];
      w.sandbox.revokeAllRefreshTokens();
      const res = await w.run(['doctor', '--verbose'], { env: FILE_STORE });
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(line(res, 'refresh')).toMatch(
        /^fail .*the service refused the refresh token: refresh token has been revoked — run cssctl login/,
      );
      // The access token still works: the API answers.
      expect(line(res, 'api')).toMatch(/^ok /);
      expect(res.stderr).toMatch(/^error: 1 check failed: refresh$/m);
      expectNoSecret(res, secrets);
    } finally {
      await w.close();
    }
  });
});

describe.runIf(hasCommand('openssl'))('doctor over TLS', () => {
  let w: World;
  let front: Server;
  let base: string;
  let cert: string;

  beforeAll(async () => {
    w = await World.start();
    cert = join(w.dir, 'ca.pem');
    const key = join(w.dir, 'key.pem');
    // A private CA's certificate (self-signed), as a company's internal service has.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '365',
        '-subj',
        '/CN=localhost/O=Private Test CA',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const target = new URL(w.url);
    front = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const up = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (upRes) => {
          res.writeHead(upRes.statusCode!, upRes.headers);
          upRes.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    base = `https://localhost:${(front.address() as AddressInfo).port}`;
    const c = w.cred();
    const login = await w.run(
      ['login', '--base-url', base, '-w', 'acme', '--email', c.email, '--password-stdin'],
      {
        env: { ...FILE_STORE, NODE_EXTRA_CA_CERTS: cert },
        input: `${c.password}\n`,
      },
    );
    expect(login.code, login.stderr).toBe(0);
  });

  afterAll(async () => {
    front?.closeAllConnections();
    await new Promise((r) => front?.close(r));
    await w?.close();
  });

  it('a CA this machine does not trust: tls fails with the NODE_EXTRA_CA_CERTS hint; nothing after it; exit 1', async () => {
    const secrets = [...storedTokens(w), w.cred().password];
    const res = await w.run(['doctor'], { env: FILE_STORE });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(line(res, 'dns')).toMatch(/^ok .*localhost resolves to/);
    expect(line(res, 'tls')).toMatch(
      /^fail .*the TLS certificate of localhost:\d+ is not accepted: self[- ]signed certificate — to trust a private CA, set NODE_EXTRA_CA_CERTS=/,
    );
    expect(statuses(res).at(-1)).toStrictEqual(['fail', 'tls']);
    expectNoSecret(res, secrets);
  });

  it('with NODE_EXTRA_CA_CERTS naming the CA: tls ok, the issuer and the end date said; exit 0', async () => {
    const res = await w.run(['doctor'], { env: { ...FILE_STORE, NODE_EXTRA_CA_CERTS: cert } });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(line(res, 'tls')).toMatch(
      /^ok +tls +TLSv1\.[23], certificate issued by localhost, valid until \d{4}-\d\d-\d\d$/,
    );
    expect(statuses(res).map(([, n]) => n)).toStrictEqual(ALL);
  });

  it('NODE_EXTRA_CA_CERTS naming another CA: the hint says it does not hold this one', async () => {
    const res = await w.run(['doctor'], {
      env: { ...FILE_STORE, NODE_EXTRA_CA_CERTS: join(w.dir, 'missing.pem') },
    });
    expect(res.code).toBe(1);
    expect(line(res, 'tls')).toContain(`NODE_EXTRA_CA_CERTS=${join(w.dir, 'missing.pem')} names no file`);
  });
});

describe('doctor with a keychain that never answers (D-Bus accepts, says nothing)', () => {
  it('ends within the keychain bound: credentials warn and the file store is used; exit 0', async (ctx) => {
    ctx.skip(Boolean(keytarMissing()), keytarMissing());
    const w = await World.start();
    const sockets: Socket[] = [];
    const bus = createNetServer((s) => {
      sockets.push(s);
      s.on('data', () => undefined);
      s.on('error', () => undefined);
    });
    const path = join(w.dir, 'hung-bus');
    await new Promise<void>((r) => bus.listen(path, r));
    try {
      await w.login('acme', 'owner', [], { env: FILE_STORE });
      const res = await w.run(['doctor'], {
        env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` },
        timeoutMs: 20_000,
      });
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(line(res, 'credentials')).toMatch(
        /^warn +credentials +the OS keychain did not answer within 3 s, so the file store is used \(CSSCTL_CREDENTIAL_STORE=auto\)/,
      );
      expect(line(res, 'session')).toMatch(/^ok .*\(profile "default", file\)/);
      // One bound (3 s) for the keychain, not one per question; the rest is the run itself.
      expect(res.ms).toBeLessThan(12_000);
    } finally {
      for (const s of sockets) s.destroy();
      bus.close();
      await w.close();
    }
  });
});

// A locked keychain is made in a private D-Bus session with its own gnome-keyring (as keychain.test.ts does):
// log in (the tokens go to the keychain), lock the collection, run doctor.
const canLock = hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon') && hasCommand('gdbus');
describe.runIf(canLock)('doctor with a locked keychain', () => {
  it('credentials: fail, the keychain is locked, with the unlock hint — never "not logged in"; exit 1; no secret', async (ctx) => {
    ctx.skip(Boolean(keytarMissing()), keytarMissing());
    const w = await World.start();
    try {
      const data = join(w.dir, 'locked-keyring');
      const c = w.cred('acme');
      const script = `
        eval "$(printf %s pw | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
        export GNOME_KEYRING_CONTROL
        cli() { ${CLI_SHELL} "$@"; echo "rc=$?"; }
        printf '%s\\n' "$PASSWORD" | cli login --base-url "${w.url}" -w acme --email "${c.email}" --password-stdin
        command -v secret-tool >/dev/null && secret-tool lookup service cssctl account default >"$TOKENS"
        echo '--- unlocked'; cli doctor --verbose 2>&1
        gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
          --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null
        echo '--- locked'; cli doctor --verbose 2>&1
        echo '--- json'; cli doctor --json 2>/dev/null
      `;
      const outFile = join(w.dir, 'locked.out');
      const tokensFile = join(w.dir, 'locked.tokens');
      const home = join(w.dir, 'locked-home');
      mkdirSync(home, { recursive: true });
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn('dbus-run-session', ['--', 'bash', '-c', `exec >"$OUT" 2>&1\n${script}`], {
          env: {
            PATH: process.env.PATH,
            HOME: home,
            XDG_DATA_HOME: data,
            CSSCTL_CONFIG_DIR: join(w.dir, 'locked-config'),
            PASSWORD: c.password,
            OUT: outFile,
            TOKENS: tokensFile,
          },
          stdio: 'ignore',
        });
        const t = setTimeout(() => child.kill('SIGKILL'), 40_000);
        child.on('exit', (c) => {
          clearTimeout(t);
          resolve(c);
        });
      });
      const out = readFileSync(outFile, 'utf8');
      rmSync(data, { recursive: true, force: true });
      expect(code, out).toBe(0);
      expect(out).toMatch(/token stored in the OS keychain/);
      const unlocked = out.slice(out.indexOf('--- unlocked'), out.indexOf('--- locked'));
      const locked = out.slice(out.indexOf('--- locked'), out.indexOf('--- json'));
      const json = out.slice(out.indexOf('--- json'));
      expect(unlocked).toMatch(/ok +credentials +the OS keychain answers \(CSSCTL_CREDENTIAL_STORE=auto\)/);
      expect(unlocked).toMatch(/ok +refresh +a refresh works/);
      expect(unlocked).toMatch(/rc=0/);
      expect(locked).toMatch(
        /fail +credentials +the OS keychain is locked \(CSSCTL_CREDENTIAL_STORE=auto\) — unlock your keyring/,
      );
      expect(locked).toMatch(/fail +session +.*keychain is locked/);
      expect(locked).not.toMatch(/not logged in/i);
      expect(locked).toMatch(/ok +api /); // the service is still asked, without a token
      expect(locked).toMatch(/rc=1/);
      const doc = JSON.parse(json.slice(json.indexOf('{'), json.lastIndexOf('rc=')).trim()) as {
        checks: { name: string; status: string }[];
      };
      expect(doc.checks.find((x) => x.name === 'credentials')?.status).toBe('fail');
      expect(out).not.toContain(c.password);
      if (hasCommand('secret-tool')) {
        const stored = JSON.parse(readFileSync(tokensFile, 'utf8')) as {
          access_token: string;
          refresh_token: string;
        };
        expect(out).not.toContain(stored.access_token);
        expect(out).not.toContain(stored.refresh_token);
      }
      expect(out).not.toMatch(/Bearer /i);
    } finally {
      await w.close();
    }
  });
});
