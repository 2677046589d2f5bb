// The config verbs and `auth switch` run through main() with a private config folder (no service involved).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { CONFIG_FORMAT_VERSION } from '../../src/core/config-writer.js';
import { Collect } from '../helpers/streams.js';

let tmp: string;
let dir: string;
let file: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cssctl-config-cmd-'));
  dir = join(tmp, 'cfg');
  file = join(dir, 'config.json');
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function run(argv: string[], env: Record<string, string> = {}) {
  const stdout = new Collect();
  const stderr = new Collect();
  const code = await main({
    argv,
    env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file', ...env },
    streams: { stdin: new PassThrough(), stdout, stderr },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function write(text: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, text);
}

describe('a config.json that is not JSON (issue 21)', () => {
  const broken = '{"profiles": {"default": {"workspace": "acme"},, oops\n';

  it.each([
    [['config', 'list']],
    [['config', 'list', '-o', 'csv']],
    [['config', 'get', 'workspace']],
    [['config', 'set', 'workspace', 'other']],
    [['config', 'unset', 'workspace']],
    [['auth', 'status']],
    [['connections', 'list', '--base-url', 'https://s.example.com', '-w', 'acme']],
  ])('%j: one error line naming the file, exit 1, nothing on stdout, the file untouched', async (argv) => {
    write(broken);
    const r = await run(argv, { CSSCTL_TOKEN: 'a.b.c' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: cannot read .*config\.json: not valid JSON/);
    expect(lines[0]).toContain(file);
    expect(r.stderr).not.toContain('(invalid)');
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('with -o json the one error is a JSON object', async () => {
    write(broken);
    const r = await run(['config', 'list', '-o', 'json']);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr) as { error: { detail: string; exit_code: number } };
    expect(err.error.exit_code).toBe(1);
    expect(err.error.detail).toContain(file);
  });

  it.each([['[1, 2]'], ['"text"'], ['{"profiles": []}']])(
    'JSON that is not a config (%s) is the same error',
    async (text) => {
      write(text);
      const r = await run(['config', 'list']);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(file);
    },
  );

  it('config path and logout still work', async () => {
    write(broken);
    const path = await run(['config', 'path']);
    expect([path.code, path.stdout]).toStrictEqual([0, `${file}\n`]);
    const out = await run(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/nothing to remove/);
    const json = await run(['logout', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({ profile: 'default', removed_from: [] });
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('a profile that is not an object: config list warns once and still lists', async () => {
    write(JSON.stringify({ profiles: { default: 'oops' } }));
    const r = await run(['config', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.trimEnd().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('profile "default" must be an object');
    expect(r.stdout).not.toContain('undefined');
    expect(readdirSync(dir)).toStrictEqual(['config.json']);
  });
});

describe('profiles: config profiles, auth switch, and a --profile that names none (issue 21)', () => {
  const profiles = {
    profiles: {
      default: { base_url: 'https://d.example.com', workspace: 'dw' },
      work: { base_url: 'https://w.example.com', workspace: 'ww', email: 'me@example.com' },
    },
  };

  it('config profiles lists every profile, the active one marked, no secret', async () => {
    write(JSON.stringify(profiles));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({
        version: 1,
        profiles: { work: { access_token: 'SECRET-ACCESS', refresh_token: 'SECRET-R', expires_at: 1 } },
      }),
      { mode: 0o600 },
    );
    const json = await run(['config', 'profiles', '--json'], { CSSCTL_PROFILE: 'work' });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual([
      {
        name: 'default',
        active: false,
        base_url: 'https://d.example.com',
        workspace: 'dw',
        email: null,
        token_store: 'none',
      },
      {
        name: 'work',
        active: true,
        base_url: 'https://w.example.com',
        workspace: 'ww',
        email: 'me@example.com',
        token_store: 'file',
      },
    ]);
    const table = await run(['config', 'profiles']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ACTIVE\s+NAME\s+BASE URL\s+WORKSPACE\s+EMAIL\s+TOKEN\n\*\s+default\s/);
    const csv = await run(['config', 'profiles', '-o', 'csv']);
    expect(csv.stdout.split('\n')[2]).toBe(',work,https://w.example.com,ww,me@example.com,file');
    const nd = await run(['config', 'profiles', '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name),
    ).toStrictEqual(['default', 'work']);
    for (const r of [json, table, csv, nd]) expect(r.stdout + r.stderr).not.toContain('SECRET');
  });

  it('config profiles with no config.json: no profiles, nothing created', async () => {
    const r = await run(['config', 'profiles', '--json']);
    expect([r.code, r.stdout]).toStrictEqual([0, '[]\n']);
    expect(existsSync(dir)).toBe(false);
  });

  it('auth switch sets default_profile; later commands use it; --profile and CSSCTL_PROFILE still win', async () => {
    write(JSON.stringify(profiles));
    const sw = await run(['auth', 'switch', 'work']);
    expect(sw.code, sw.stderr).toBe(0);
    expect(sw.stdout).toMatch(/Profile work is now the default/);
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { default_profile: string; profiles: object };
    expect(onDisk.default_profile).toBe('work');
    expect(onDisk.profiles).toStrictEqual(profiles.profiles);
    expect((await run(['config', 'get', 'workspace'])).stdout).toBe('ww\n');
    expect((await run(['--profile', 'default', 'config', 'get', 'workspace'])).stdout).toBe('dw\n');
    expect((await run(['config', 'get', 'workspace'], { CSSCTL_PROFILE: 'default' })).stdout).toBe('dw\n');
    // config set writes to the active profile.
    expect((await run(['config', 'set', 'email', 'x@example.com'])).code).toBe(0);
    expect((await run(['--profile', 'work', 'config', 'get', 'email'])).stdout).toBe('x@example.com\n');
    const p = await run(['config', 'profiles', '--json']);
    expect(
      (JSON.parse(p.stdout) as { name: string; active: boolean }[]).filter((x) => x.active),
    ).toMatchObject([{ name: 'work' }]);
    // Said when a flag or the environment still wins over the new default.
    const env = await run(['auth', 'switch', 'default'], { CSSCTL_PROFILE: 'work' });
    expect(env.code).toBe(0);
    expect(env.stderr).toMatch(/CSSCTL_PROFILE=work is set: it still wins/);
  });

  it('auth switch to a profile that does not exist: exit 2 naming it, nothing written', async () => {
    write(JSON.stringify(profiles));
    const r = await run(['auth', 'switch', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no profile named "nope"');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual(profiles);
    expect((await run(['auth', 'switch', '../x'])).code).toBe(2);
  });

  it.each([
    [['config', 'list']],
    [['config', 'get', 'workspace']],
    [['config', 'unset', 'workspace']],
    [['auth', 'status']],
    [['auth', 'token']],
    [['auth', 'refresh']],
    [['logout']],
    [['connections', 'list']],
  ])('--profile / CSSCTL_PROFILE naming no profile: %j is exit 2 naming it', async (argv) => {
    write(JSON.stringify(profiles));
    for (const [args, env] of [
      [['--profile', 'typo', ...argv], {}],
      [argv, { CSSCTL_PROFILE: 'typo' }],
    ] as const) {
      const r = await run([...args], env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: no profile named "typo" \((--profile|CSSCTL_PROFILE)\)/);
    }
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual(profiles);
  });

  it('a default_profile naming no profile: config list and logout still work and say how to fix it; commands that need the profile are exit 2 saying so', async () => {
    write(JSON.stringify({ ...profiles, default_profile: 'gone' }));
    const fix = 'choose one with cssctl auth switch <profile>';
    const r = await run(['config', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`no profile named "gone" (default_profile in ${file})`);
    expect(r.stderr).toContain(fix);
    expect(r.stdout).toMatch(/^workspace\s+\(invalid\)\s+profile$/m);
    // A flag still gives its value.
    const flagged = await run(['config', 'list', '--json', '-w', 'acme']);
    expect(flagged.code).toBe(0);
    expect(JSON.parse(flagged.stdout)).toMatchObject({
      workspace: 'acme',
      base_url: null,
      invalid: ['base_url', 'email'],
    });
    const out = await run(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('Not logged in (profile gone); nothing to remove\n');
    expect(out.stderr).toContain(fix);
    for (const argv of [
      ['scans', 'list'],
      ['auth', 'status'],
      ['config', 'get', 'workspace'],
      ['config', 'set', 'workspace', 'x'],
    ]) {
      const e = await run(argv);
      expect(e.code, argv.join(' ')).toBe(2);
      expect(e.stderr).toContain(`no profile named "gone" (default_profile in ${file})`);
      expect(e.stderr).toContain(fix);
    }
    // A profile chosen by --profile is used as usual.
    expect((await run(['--profile', 'work', 'config', 'get', 'workspace'])).stdout).toBe('ww\n');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({ ...profiles, default_profile: 'gone' });
    expect((await run(['auth', 'switch', 'work'])).code).toBe(0);
    expect((await run(['config', 'list'])).stderr).toBe('');
  });

  it.each([[['work']], [7], [{ name: 'work' }]])(
    'a default_profile that is not a name (%j): config list and logout work, naming the key and the fix',
    async (value) => {
      write(JSON.stringify({ ...profiles, default_profile: value }));
      const r = await run(['config', 'list']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`${file}: invalid default_profile: expected a profile name`);
      expect(r.stderr).toContain('cssctl auth switch <profile>');
      const out = await run(['logout', '--json']);
      expect(out.code, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toStrictEqual({ profile: null, removed_from: [] });
      expect(out.stderr).toContain('invalid default_profile');
      const need = await run(['auth', 'status']);
      expect(need.code).toBe(2);
      expect(need.stderr).toContain('fix it with cssctl auth switch <profile>');
    },
  );

  it('config set output: an unknown format names only the ones a profile can hold, not the report formats it refuses', async () => {
    const bad = await run(['config', 'set', 'output', 'yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: invalid output format "yaml": use one of table, json, ndjson, csv, wide\n',
    );
    const report = await run(['config', 'set', 'output', 'sarif']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('sarif is a report format for findings only');
    expect((await run(['config', 'set', 'output', 'wide'])).code).toBe(0);
  });

  it('config set does not create the profile it is given (only login does); `default` always exists', async () => {
    const r = await run(['--profile', 'ci', 'config', 'set', 'workspace', 'acme']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no profile named "ci" \(--profile\)/);
    expect(existsSync(file)).toBe(false);
    const d = await run(['--profile', 'default', 'config', 'set', 'workspace', 'acme']);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({
      __internal__: { migrations: { version: CONFIG_FORMAT_VERSION } },
      profiles: { default: { workspace: 'acme' } },
    });
    expect((await run(['config', 'get', 'workspace'])).stdout).toBe('acme\n');
  });

  it('logout of a profile config.json no longer lists still removes its tokens', async () => {
    write(JSON.stringify(profiles));
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({ version: 1, profiles: { orphan: { access_token: 'a', expires_at: 1 } } }),
      { mode: 0o600 },
    );
    const r = await run(['--profile', 'orphan', 'logout']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/removed from file/);
  });
});

describe('config.json versions (issue 19): read-only commands never migrate, the next write does', () => {
  it('an unversioned file is left byte for byte by every reading command, then migrated by config set', async () => {
    const old = '{"profiles": {"default": {"workspace": "acme", "output": "json"}, "b": {}}}\n';
    write(old);
    const mtime = statSync(file).mtimeMs;
    for (const argv of [
      ['config', 'list'],
      ['config', 'get', 'workspace'],
      ['config', 'path'],
      ['config', 'profiles'],
      ['auth', 'status'],
      ['--profile', 'b', 'config', 'list'],
      ['logout'],
    ]) {
      await run(argv);
      expect(readFileSync(file, 'utf8'), argv.join(' ')).toBe(old);
    }
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(readdirSync(dir).sort()).toStrictEqual(['config.json']);
    const set = await run(['config', 'set', 'email', 'me@example.com']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({
      __internal__: { migrations: { version: CONFIG_FORMAT_VERSION } },
      profiles: { default: { workspace: 'acme', output: 'json', email: 'me@example.com' }, b: {} },
    });
  });
});
