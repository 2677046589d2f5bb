// A profile you cannot fix (issue 9, #19), and the files cssctl may and may not touch (#4, cli-contract.md §6).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine } from './harness.js';

let w: World;
let n = 0;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** A fresh config folder holding `profile` as the default profile, hand-written. */
function brokenProfile(profile: Record<string, unknown>): {
  dir: string;
  file: string;
  env: Record<string, string>;
} {
  const dir = join(w.dir, `p${n++}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ profiles: { default: profile } }));
  return { dir, file, env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' } };
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe('one bad hand-edited value breaks only the commands that use it', () => {
  it.each([
    ['base_url', 'http://scanner.example.com'],
    ['base_url', 42],
    ['base_url', null],
    ['base_url', { url: 'x' }],
    ['workspace', 'has space'],
    ['workspace', 7],
    ['output', 'yaml'],
    ['output', 'sarif'],
    ['output', true],
    ['email', ['a@b.c']],
  ])('%s = %j', async (key, value) => {
    const { file, env } = brokenProfile({ workspace: 'acme', email: 'a@b.test', [key]: value });
    if (key !== 'base_url') {
      const p = JSON.parse(readFileSync(file, 'utf8')) as { profiles: { default: Record<string, unknown> } };
      p.profiles.default.base_url = w.url;
      writeFileSync(file, JSON.stringify(p));
    }
    // A command that needs the value: one line naming config.json and the key, exit 2, no crash.
    if (value !== null) {
      const key2 = key === 'email' ? 'workspace' : key; // email is only used by login
      const res = await w.run(key === 'email' ? ['login', '--password-stdin'] : ['connections', 'list'], {
        env: { ...env, CSSCTL_TOKEN: 'x.y.z' },
        input: 'pw\n',
      });
      expect(res.code, res.stderr).toBe(2);
      const line = errorLine(res);
      expect(line).toContain(file);
      expect(line).toContain(key === 'email' ? 'email' : key2);
      expect(line).not.toMatch(/is not a function|Cannot read/);
    }
    // The commands that fix it always work.
    const list = await w.run(['config', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    if (value !== null) {
      expect(list.stdout).toMatch(new RegExp(`${key}\\s.*\\(invalid\\)`));
      expect(list.stderr).toContain(file);
    }
    expect((await w.run(['config', 'get', key === 'workspace' ? 'email' : 'workspace'], { env })).code).toBe(
      0,
    );
    expect((await w.run(['config', 'path'], { env })).stdout).toBe(`${file}\n`);
    const lo = await w.run(['logout'], { env });
    expect(lo.code, lo.stderr).toBe(0);
    const unset = await w.run(['config', 'unset', key], { env });
    expect(unset.code, unset.stderr).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8')) as {
      profiles: { default: Record<string, unknown> };
    };
    expect(after.profiles.default).not.toHaveProperty(key);
    expect(after.profiles.default.workspace ?? after.profiles.default.email).toBeDefined();
    const set = await w.run(
      [
        'config',
        'set',
        key,
        key === 'output' ? 'json' : key === 'email' ? 'x@y.test' : key === 'workspace' ? 'acme' : w.url,
      ],
      { env },
    );
    expect(set.code, set.stderr).toBe(0);
  });

  it('a flag overrides a bad profile value', async () => {
    const { env } = brokenProfile({
      base_url: 'http://scanner.example.com',
      workspace: 'acme',
      output: 'yaml',
    });
    const res = await w.run(['connections', 'list', '--base-url', w.url, '-o', 'json'], {
      env: { ...env, CSSCTL_TOKEN: await w.sandbox.issueAccessToken(w.cred('acme').email, 600) },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
  });
});

describe('concurrent changes of config.json (issue 20 #6)', () => {
  it('12 concurrent `--profile pN config set workspace wN` keep all 12 changes', async () => {
    const dir = join(w.dir, 'concurrent');
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    // Twelve profiles, as twelve logins would leave them; each command changes its own.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: Object.fromEntries(ids.map((i) => [`p${i}`, { base_url: w.url }])) }),
      { mode: 0o600 },
    );
    const runs = await Promise.all(
      ids.map((i) =>
        w.run(['--profile', `p${i}`, 'config', 'set', 'workspace', `w${i}`], { env, timeoutMs: 60_000 }),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const onDisk = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, { workspace?: string }>;
    };
    for (const i of ids) expect(onDisk.profiles[`p${i}`]?.workspace, `p${i}`).toBe(`w${i}`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a config.json that is not JSON (issue 21)', () => {
  it('config list, config get, auth status: one line naming it, exit 1; config path and logout work', async () => {
    const dir = join(w.dir, 'not-json');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {,\n');
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    for (const args of [
      ['config', 'list'],
      ['config', 'get', 'workspace'],
      ['auth', 'status'],
    ]) {
      const r = await w.run(args, { env });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(errorLine(r)).toContain(`cannot read ${file}: not valid JSON`);
    }
    const path = await w.run(['config', 'path'], { env });
    expect([path.code, path.stdout]).toStrictEqual([0, `${file}\n`]);
    const out = await w.run(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {,\n');
  });
});

describe('profiles: config profiles and auth switch (issue 21)', () => {
  it('login creates a profile; config profiles lists it with its token store; auth switch makes it the default', async () => {
    const dir = join(w.dir, 'profiles');
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    // A --profile naming no profile: exit 2 naming it, nothing written.
    const typo = await w.run(['--profile', 'work', 'connections', 'list'], { env });
    expect(typo.code).toBe(2);
    expect(errorLine(typo)).toContain('no profile named "work" (--profile)');
    expect(existsSync(dir)).toBe(false);
    // Only login creates one: config set names the profile it does not know, and writes nothing.
    const set = await w.run(['--profile', 'ci', 'config', 'set', 'workspace', 'ci-ws'], { env });
    expect(set.code).toBe(2);
    expect(errorLine(set)).toContain('no profile named "ci" (--profile)');
    expect(existsSync(dir)).toBe(false);
    await w.login('acme', 'owner', ['--profile', 'work'], { env });
    await w.login('acme', 'owner', ['--profile', 'ci'], { env });
    expect((await w.run(['--profile', 'ci', 'config', 'set', 'workspace', 'ci-ws'], { env })).code).toBe(0);
    const list = await w.run(['config', 'profiles', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toStrictEqual([
      {
        name: 'work',
        active: false,
        base_url: w.url,
        workspace: 'acme',
        email: w.cred().email,
        token_store: 'file',
      },
      {
        name: 'ci',
        active: false,
        base_url: w.url,
        workspace: 'ci-ws',
        email: w.cred().email,
        token_store: 'file',
      },
    ]);
    expect(list.stdout).not.toMatch(/eyJ/); // no JWT
    // Without a default, requests use `default`, which has no session.
    expect((await w.run(['connections', 'list'], { env })).code).toBe(2); // no service address
    const sw = await w.run(['auth', 'switch', 'work'], { env });
    expect(sw.code, sw.stderr).toBe(0);
    const conn = await w.run(['connections', 'list', '--json'], { env });
    expect(conn.code, conn.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(conn.stdout))).toBe(true);
    const table = await w.run(['config', 'profiles'], { env });
    expect(table.stdout).toMatch(/^\*\s+work\s/m);
    // --profile and CSSCTL_PROFILE still win over default_profile.
    expect((await w.run(['--profile', 'ci', 'config', 'get', 'workspace'], { env })).stdout).toBe('ci-ws\n');
    const envWins = await w.run(['config', 'get', 'workspace'], { env: { ...env, CSSCTL_PROFILE: 'ci' } });
    expect(envWins.stdout).toBe('ci-ws\n');
    expect((await w.run(['auth', 'switch', 'nope'], { env })).code).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({
      default_profile: 'work',
    });
  });
});

describe('config.json written through conf (issue 19)', () => {
  it('an unversioned file: requests and reads leave it as it is; config set migrates it (dist/config-writer.cjs)', async () => {
    const dir = join(w.dir, 'unversioned');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    const old = JSON.stringify({ profiles: { default: { base_url: w.url, workspace: 'acme' } } });
    writeFileSync(file, old);
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    const token = await w.sandbox.issueAccessToken(w.cred('acme').email, 600);
    const req = await w.run(['connections', 'list', '--json'], { env: { ...env, CSSCTL_TOKEN: token } });
    expect(req.code, req.stderr).toBe(0);
    for (const args of [
      ['config', 'list'],
      ['config', 'profiles'],
      ['auth', 'status'],
    ])
      await w.run(args, { env });
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(readdirSync(dir)).toStrictEqual(['config.json']);
    const set = await w.run(['config', 'set', 'output', 'json'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({
      profiles: { default: { base_url: w.url, workspace: 'acme', output: 'json' } },
      __internal__: { migrations: { version: '1.0.0' } },
    });
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir).sort()).toStrictEqual(['config.json', 'locks']);
  });
});

describe('errors follow the resolved output format', () => {
  it('a profile saving output: json prints errors as JSON', async () => {
    const { env } = brokenProfile({ base_url: w.url, workspace: 'acme', output: 'json' });
    const res = await w.run(['connections', 'list'], { env });
    expect(res.code).toBe(3);
    const err = JSON.parse(res.stderr) as { error: { exit_code: number } };
    expect(err.error.exit_code).toBe(3);
    // -o table on the command line wins.
    const text = await w.run(['connections', 'list', '-o', 'table'], { env });
    expect(errorLine(text)).toMatch(/not logged in/);
  });

  it.each([['-qo', 'json'], ['-qojson'], ['-o', 'ndjson', '-q']])(
    '%j prints errors as JSON',
    async (...flags) => {
      const { env } = brokenProfile({ base_url: w.url, workspace: 'acme' });
      const res = await w.run(['connections', 'list', ...flags], { env });
      expect(res.code).toBe(3);
      expect(JSON.parse(res.stderr)).toHaveProperty('error');
    },
  );
});

describe('cssctl help', () => {
  it('help, help <cmd> and help <cmd> <sub> are --help', async () => {
    for (const [args, flag] of [
      [['help'], ['--help']],
      [
        ['help', 'connections'],
        ['connections', '--help'],
      ],
      [
        ['help', 'connections', 'list'],
        ['connections', 'list', '--help'],
      ],
      [
        ['--profile', 'x', 'help', 'auth'],
        ['auth', '--help'],
      ],
    ] as const) {
      const a = await w.run([...args]);
      const b = await w.run([...flag]);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      expect(a.stdout).toMatch(/Usage: cssctl/);
    }
  });
});

describe('read-only commands write nothing; cssctl chmods only what it created (§6)', () => {
  it('auth status logged out, config get/list/path create no folder and no file', async () => {
    const dir = join(w.dir, 'never-created');
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    expect((await w.run(['auth', 'status'], { env })).code).toBe(3);
    for (const args of [
      ['config', 'list'],
      ['config', 'get', 'workspace'],
      ['config', 'path'],
    ]) {
      expect((await w.run(args, { env })).code).toBe(0);
    }
    expect(existsSync(dir)).toBe(false);
  });

  it.runIf(process.platform !== 'win32')(
    'a CSSCTL_CONFIG_DIR that exists (a shared folder, $HOME) is never chmod-ed, even by a login',
    async () => {
      const dir = join(w.dir, 'shared');
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o755);
      const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
      expect((await w.run(['config', 'path'], { env })).code).toBe(0);
      expect((await w.run(['auth', 'status'], { env })).code).toBe(3);
      expect(mode(dir)).toBe(0o755);
      const login = await w.login('acme', 'owner', [], { env });
      expect(login.stderr).toMatch(/can be read by other users/);
      expect(mode(dir)).toBe(0o755);
      expect(mode(join(dir, 'credentials.json'))).toBe(0o600);
      expect(mode(join(dir, 'config.json'))).toBe(0o600);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
  );

  it.runIf(process.platform !== 'win32')(
    'a credentials.json that is a symlink: its target is never chmod-ed nor overwritten',
    async () => {
      const dir = join(w.dir, 'linked');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(w.dir, 'someone-elses-file');
      writeFileSync(target, '{"version":1,"profiles":{}}');
      chmodSync(target, 0o644);
      symlinkSync(target, join(dir, 'credentials.json'));
      const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
      expect((await w.run(['auth', 'status'], { env })).code).toBe(3);
      expect(mode(target)).toBe(0o644);
      const c = w.cred('acme');
      const res = await w.run(
        ['login', '--base-url', w.url, '-w', 'acme', '--email', c.email, '--password-stdin'],
        { env, input: `${c.password}\n` },
      );
      expect(res.code).toBe(1);
      expect(errorLine(res)).toMatch(/symbolic link/);
      expect(mode(target)).toBe(0o644);
      expect(readFileSync(target, 'utf8')).toBe('{"version":1,"profiles":{}}');
    },
  );
});

describe('CSSCTL_TOKEN and absurd expiries', () => {
  it('a stray newline around CSSCTL_TOKEN is trimmed; another control character is exit 2, nothing sent', async () => {
    const token = await w.sandbox.issueAccessToken(w.cred('acme').email, 600);
    const env = { CSSCTL_BASE_URL: w.url, CSSCTL_WORKSPACE: 'acme', CSSCTL_CONFIG_DIR: join(w.dir, 'tok') };
    const ok = await w.run(['connections', 'list', '--json'], {
      env: { ...env, CSSCTL_TOKEN: `${token}\n` },
    });
    expect(ok.code, ok.stderr).toBe(0);
    w.sandbox.clearRequests();
    const bad = await w.run(['connections', 'list'], {
      env: { ...env, CSSCTL_TOKEN: `${token}\nX-Evil: 1` },
    });
    expect(bad.code).toBe(2);
    expect(errorLine(bad)).toMatch(/CSSCTL_TOKEN/);
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('an absurd stored expires_at never breaks auth status', async () => {
    const dir = join(w.dir, 'absurd');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: w.url } } }));
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({
        version: 1,
        profiles: { default: { access_token: 'a', refresh_token: 'r', expires_at: 1e19 } },
      }),
      { mode: 0o600 },
    );
    const res = await w.run(['auth', 'status', '--json'], {
      env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/Invalid time value/);
    expect(() =>
      new Date((JSON.parse(res.stdout) as { expires_at: string }).expires_at).toISOString(),
    ).not.toThrow();
  });
});
