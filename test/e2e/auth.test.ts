import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, hasCommand, keytarMissing, received } from './harness.js';

let w: World;
beforeAll(async () => {
  w = await World.start();
});
afterAll(() => w.close());

function readAllFiles(dir: string): string {
  let out = '';
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

describe('login with the file store (no D-Bus session: auto falls back with a warning)', () => {
  it('logs in, stores tokens in a 0600 file in a 0700 folder, and never prints the token', async () => {
    const res = await w.login();
    const c = w.cred();
    expect(res.stdout).toContain(`Logged in to ${w.url} as ${c.email}`);
    expect(res.stdout).toContain('workspace acme');
    expect(res.stderr).toMatch(/warning: no OS keychain could be reached/);
    const credFile = join(w.configDir, 'credentials.json');
    expect(statSync(credFile).mode & 0o777).toBe(0o600);
    expect(statSync(w.configDir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(credFile, 'utf8'));
    const token = stored.profiles.default.access_token as string;
    expect(token.split('.')).toHaveLength(3);
    expect(res.stdout + res.stderr).not.toContain(token);
    // The profile keeps the base URL, workspace and email, and nothing secret.
    const config = JSON.parse(readFileSync(join(w.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toEqual({ base_url: w.url, workspace: 'acme', email: c.email });
  });

  it('auth status shows profile, URL, workspace, email, source "file" and expiry; JSON too', async () => {
    const res = await w.run(['auth', 'status']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/TOKEN SOURCE\s+file/);
    expect(res.stdout).toMatch(/WORKSPACE\s+acme/);
    expect(res.stdout).toMatch(/TOKEN EXPIRES\s+in \d+m/);
    const json = JSON.parse((await w.run(['auth', 'status', '--json'])).stdout);
    expect(json).toMatchObject({
      profile: 'default',
      base_url: w.url,
      workspace: 'acme',
      token_source: 'file',
      expired: false,
    });
  });

  it('auth token prints a token the service accepts; auth refresh rotates it', async () => {
    const before = (await w.run(['auth', 'token'])).stdout.trim();
    expect(before.split('.')).toHaveLength(3);
    const refreshed = await w.run(['auth', 'refresh']);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(/Refreshed/);
    const after = (await w.run(['auth', 'token'])).stdout.trim();
    expect(after).not.toBe(before);
    w.sandbox.clearRequests();
    const list = await w.run(['connections', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(received(w.sandbox, '/connections')[0]!.headers.authorization).toBe(`Bearer ${after}`);
  });

  it('sends every header the contract names', async () => {
    w.sandbox.clearRequests();
    await w.run(['connections', 'create', '--alias', 'hdr-check', '--provider', 'aws']);
    const [post] = received(w.sandbox, '/connections', 'POST');
    expect(post).toBeDefined();
    const h = post!.headers;
    expect(h.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(h['x-tenant-slug']).toBe('acme');
    expect(h.accept).toBe('application/json');
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toMatch(/^cssctl\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+ linux-\w+$/);
    expect(h['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(post!.body)).toEqual({ alias: 'hdr-check', provider: 'aws' });
  });

  it('logout removes the tokens, is idempotent, and then commands exit 3', async () => {
    const out = await w.run(['logout']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/Logged out of profile default \(removed from file\)/);
    const again = await w.run(['logout']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to remove/);
    const status = await w.run(['auth', 'status']);
    expect(status.code).toBe(3);
    expect(status.stderr).toMatch(/^error: not logged in .*cssctl login/m);
    const list = await w.run(['connections', 'list']);
    expect(list.code).toBe(3);
  });
});

describe('login input', () => {
  it('wrong password is exit 3 with the service detail, and the password is not echoed', async () => {
    const res = await w.run(
      ['login', '--base-url', w.url, '-w', 'acme', '--email', w.cred().email, '--password-stdin'],
      { input: 'not-the-password-xyz\n' },
    );
    expect(res.code).toBe(3);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^error: /);
    expect(res.stderr + res.stdout).not.toContain('not-the-password-xyz');
  });

  it('CSSCTL_EMAIL and CSSCTL_PASSWORD log in without a terminal', async () => {
    const c = w.cred('globex');
    const res = await w.run(['login', '--base-url', w.url, '-w', 'globex'], {
      env: { CSSCTL_EMAIL: c.email, CSSCTL_PASSWORD: c.password, CSSCTL_PROFILE: 'g' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(c.email);
    const st = JSON.parse((await w.run(['auth', 'status', '--json', '--profile', 'g'])).stdout);
    expect(st.workspace).toBe('globex');
  });

  it('with no terminal and no password source: exit 2 naming --password-stdin and CSSCTL_PASSWORD', async () => {
    const res = await w.run(['login', '--base-url', w.url, '-w', 'acme', '--email', 'x@y.z']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--password-stdin/);
    expect(res.stderr).toMatch(/CSSCTL_PASSWORD/);
  });

  it('empty password on stdin is exit 2', async () => {
    const res = await w.run(
      ['login', '--base-url', w.url, '-w', 'acme', '--email', 'x@y.z', '--password-stdin'],
      { input: '' },
    );
    expect(res.code).toBe(2);
  });

  it('a plain-http non-loopback base URL is refused before any request (exit 2)', async () => {
    const res = await w.run(
      [
        'login',
        '--base-url',
        'http://scanner.example.com',
        '-w',
        'acme',
        '--email',
        'x@y.z',
        '--password-stdin',
      ],
      {
        input: 'pw\n',
      },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/https/);
  });

  it('a trailing /api/v1 on the base URL is accepted and not doubled', async () => {
    const c = w.cred();
    w.sandbox.clearRequests();
    const res = await w.run(
      [
        'login',
        '--base-url',
        `${w.url}/api/v1/`,
        '-w',
        'acme',
        '--email',
        c.email,
        '--password-stdin',
        '--profile',
        'slash',
      ],
      {
        input: `${c.password}\n`,
      },
    );
    expect(res.code).toBe(0);
    expect(received(w.sandbox, '/auth/login')).toHaveLength(1);
    expect(w.sandbox.requests.some((r) => r.path.includes('/api/v1/api/v1'))).toBe(false);
  });
});

describe('the real OS keychain (gnome-keyring over D-Bus)', () => {
  const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
  const hasKeychain = Boolean(bus) && hasCommand('secret-tool');
  // In CI the keyring session is part of the test command: a missing one must fail, not skip.
  const run = hasKeychain || process.env.CI === 'true' ? it : it.skip;

  run(
    'stores the session in the keychain (read back with secret-tool) and logout removes it',
    async (ctx) => {
      ctx.skip(Boolean(keytarMissing()), keytarMissing());
      expect(bus, 'CI must run the tests inside a D-Bus session with gnome-keyring').toBeTruthy();
      const env = { DBUS_SESSION_BUS_ADDRESS: bus, CSSCTL_PROFILE: 'kc' };
      const res = await w.login('acme', 'owner', [], { env });
      expect(res.stdout).toMatch(/token stored in the OS keychain/);
      expect(res.stderr).not.toMatch(/warning/);
      const secret = execFileSync('secret-tool', ['lookup', 'service', 'cssctl', 'account', 'kc'], {
        env: { ...process.env },
      }).toString();
      const tokens = JSON.parse(secret);
      expect(tokens.access_token.split('.')).toHaveLength(3);
      expect(tokens.refresh_token).toBeTruthy();
      // Not in the file store, nor anywhere in the config folder.
      expect(readAllFiles(w.configDir)).not.toContain(tokens.access_token);
      const st = JSON.parse((await w.run(['auth', 'status', '--json'], { env })).stdout);
      expect(st.token_source).toBe('keychain');
      const list = await w.run(['connections', 'list', '--json'], { env });
      expect(list.code).toBe(0);
      const out = await w.run(['logout'], { env });
      expect(out.stdout).toMatch(/removed from keychain/);
      expect(() =>
        execFileSync('secret-tool', ['lookup', 'service', 'cssctl', 'account', 'kc'], { stdio: 'pipe' }),
      ).toThrow();
    },
  );

  run('CSSCTL_CREDENTIAL_STORE=file keeps the session out of the keychain', async () => {
    const env = { DBUS_SESSION_BUS_ADDRESS: bus, CSSCTL_PROFILE: 'kc-file', CSSCTL_CREDENTIAL_STORE: 'file' };
    await w.login('acme', 'owner', [], { env });
    const st = JSON.parse((await w.run(['auth', 'status', '--json'], { env })).stdout);
    expect(st.token_source).toBe('file');
    expect(() =>
      execFileSync('secret-tool', ['lookup', 'service', 'cssctl', 'account', 'kc-file'], { stdio: 'pipe' }),
    ).toThrow();
  });
});

describe('CSSCTL_CREDENTIAL_STORE and CSSCTL_TOKEN', () => {
  it('keychain mode with no keychain fails clearly (exit 1), and an unknown mode is exit 2', async () => {
    const c = w.cred();
    const args = ['login', '--base-url', w.url, '-w', 'acme', '--email', c.email, '--password-stdin'];
    const kc = await w.run(args, {
      input: `${c.password}\n`,
      env: { CSSCTL_CREDENTIAL_STORE: 'keychain', CSSCTL_PROFILE: 'nokc' },
    });
    expect(kc.code).toBe(1);
    expect(kc.stderr).toMatch(/keychain/);
    const bad = await w.run(['auth', 'status'], { env: { CSSCTL_CREDENTIAL_STORE: 'vault' } });
    expect(bad.code).toBe(2);
  });

  it('CSSCTL_TOKEN is used as it is: status says env, no store is read or written', async () => {
    const token = await w.sandbox.issueAccessToken(w.cred().email, 600);
    const env = {
      CSSCTL_TOKEN: token,
      CSSCTL_BASE_URL: w.url,
      CSSCTL_WORKSPACE: 'acme',
    };
    const st = JSON.parse((await w.run(['auth', 'status', '--json'], { env })).stdout);
    expect(st.token_source).toBe('env');
    const list = await w.run(['connections', 'list', '--json'], { env });
    expect(list.code).toBe(0);
    const refresh = await w.run(['auth', 'refresh'], { env });
    expect(refresh.code).not.toBe(0);
    expect(refresh.stderr).toMatch(/CSSCTL_TOKEN/);
  });

  it('an expired CSSCTL_TOKEN is exit 3 and never refreshed', async () => {
    const token = await w.sandbox.issueAccessToken(w.cred().email, -60);
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list'], {
      env: { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: w.url, CSSCTL_WORKSPACE: 'acme' },
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/CSSCTL_TOKEN/);
    expect(received(w.sandbox, '/auth/refresh')).toHaveLength(0);
  });
});
