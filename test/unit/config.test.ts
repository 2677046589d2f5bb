import {
  chmodSync,
  existsSync,
  lstatSync,
  symlinkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigStore,
  checkProfileValue,
  configDir,
  type RawProfile,
  validateConfigValue,
  validateProfileName,
  validateWorkspace,
} from '../../src/core/config.js';
import { resolveSettings, type GlobalOptions } from '../../src/core/settings.js';
import { withFileLock } from '../../src/core/lock.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  CONFIG_FORMAT_VERSION,
  CONFIG_MIGRATIONS,
  CONFIG_SCHEMA,
  noSecret,
} from '../../src/core/config-writer.js';

/** What conf records in config.json: the version of its format (migrations run from it). */
const VERSIONED = { __internal__: { migrations: { version: CONFIG_FORMAT_VERSION } } };
import { CliError, UsageError } from '../../src/core/errors.js';
import { buildUrl, isLoopbackHost, normalizeBaseUrl } from '../../src/core/url.js';
import { usageError } from '../helpers/assert.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cssctl-config-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('resolveSettings precedence: flag > env > profile > default', () => {
  const profile = { base_url: 'https://profile.example.com', workspace: 'from-profile', output: 'csv' };

  it('base_url', () => {
    const env = { CSSCTL_BASE_URL: 'https://env.example.com' };
    const flag: GlobalOptions = { baseUrl: 'https://flag.example.com/' };
    let s = resolveSettings(flag, env, profile, 'default');
    expect(s.baseUrl).toBe('https://flag.example.com');
    expect(s.sources.base_url).toBe('flag');
    s = resolveSettings({}, env, profile, 'default');
    expect(s.baseUrl).toBe('https://env.example.com');
    expect(s.sources.base_url).toBe('env');
    s = resolveSettings({}, {}, profile, 'default');
    expect(s.baseUrl).toBe('https://profile.example.com');
    expect(s.sources.base_url).toBe('profile');
    s = resolveSettings({}, {}, {}, 'default');
    expect(s.baseUrl).toBeUndefined();
    expect(s.sources.base_url).toBe('unset');
  });

  it('base_url from flag and env is normalised (trailing /api/v1 accepted)', () => {
    expect(resolveSettings({ baseUrl: 'https://a.example.com/api/v1/' }, {}, {}, 'p').baseUrl).toBe(
      'https://a.example.com',
    );
    expect(resolveSettings({}, { CSSCTL_BASE_URL: 'https://b.example.com/API/V1' }, {}, 'p').baseUrl).toBe(
      'https://b.example.com',
    );
  });

  it('an insecure base_url from a flag or env is a UsageError', () => {
    usageError(() => resolveSettings({ baseUrl: 'http://example.com' }, {}, {}, 'p').baseUrl);
    usageError(() => resolveSettings({}, { CSSCTL_BASE_URL: 'http://example.com' }, {}, 'p').baseUrl);
  });

  it('workspace', () => {
    const env = { CSSCTL_WORKSPACE: 'from-env' };
    let s = resolveSettings({ workspace: 'from-flag' }, env, profile, 'default');
    expect([s.workspace, s.sources.workspace]).toStrictEqual(['from-flag', 'flag']);
    s = resolveSettings({}, env, profile, 'default');
    expect([s.workspace, s.sources.workspace]).toStrictEqual(['from-env', 'env']);
    s = resolveSettings({}, {}, profile, 'default');
    expect([s.workspace, s.sources.workspace]).toStrictEqual(['from-profile', 'profile']);
    s = resolveSettings({}, {}, {}, 'default');
    expect([s.workspace, s.sources.workspace]).toStrictEqual([undefined, 'unset']);
  });

  it('an empty environment variable does not override the profile', () => {
    const s = resolveSettings({}, { CSSCTL_WORKSPACE: '', CSSCTL_BASE_URL: '' }, profile, 'default');
    expect(s.workspace).toBe('from-profile');
    expect(s.baseUrl).toBe('https://profile.example.com');
  });

  it('a bad workspace slug from a flag or env is a UsageError', () => {
    usageError(() => resolveSettings({ workspace: 'acme\r\nX-Evil: 1' }, {}, {}, 'p').workspace);
    usageError(() => resolveSettings({}, { CSSCTL_WORKSPACE: 'has space' }, {}, 'p').workspace);
  });

  it('a bad workspace slug from a hand-edited profile is caught before any request', () => {
    const err = usageError(
      () =>
        resolveSettings({}, {}, { workspace: 'acme\r\nX-Evil: 1' }, 'p', { file: '/c/config.json' })
          .workspace,
    );
    expect(err.message).toContain('/c/config.json');
    expect(err.message).toContain('workspace');
  });

  it('output: --json, -o, profile, default', () => {
    let s = resolveSettings({ json: true }, {}, profile, 'default');
    expect([s.output, s.sources.output]).toStrictEqual(['json', 'flag']);
    s = resolveSettings({ output: 'NDJSON' }, {}, profile, 'default');
    expect([s.output, s.sources.output]).toStrictEqual(['ndjson', 'flag']);
    s = resolveSettings({}, {}, profile, 'default');
    expect([s.output, s.sources.output]).toStrictEqual(['csv', 'profile']);
    s = resolveSettings({}, {}, {}, 'default');
    expect([s.output, s.sources.output]).toStrictEqual(['table', 'default']);
    expect(s.values.output).toBe('table');
    usageError(() => resolveSettings({ output: 'yaml' }, {}, {}, 'default').output);
  });

  it('values hold the effective values, email from env', () => {
    const s = resolveSettings(
      { workspace: 'w1' },
      { CSSCTL_EMAIL: ' me@example.com ' },
      { base_url: 'https://p.example.com', email: 'old@example.com' },
      'work',
    );
    expect(s.profile).toBe('work');
    expect(s.values).toStrictEqual({
      base_url: 'https://p.example.com',
      workspace: 'w1',
      email: 'me@example.com',
      output: 'table',
    });
    expect(s.sources).toStrictEqual({
      base_url: 'profile',
      workspace: 'flag',
      email: 'env',
      output: 'default',
    });
  });

  it('timeout and max-wait defaults and parsing', () => {
    let s = resolveSettings({}, {}, {}, 'p');
    expect(s.timeoutMs).toBe(30_000);
    expect(s.maxWaitMs).toBe(300_000);
    s = resolveSettings({ timeout: '1.5', maxWait: '0' }, {}, {}, 'p');
    expect(s.timeoutMs).toBe(1500);
    expect(s.maxWaitMs).toBe(0);
  });

  it.each(['abc', '-1', '0', '', ' ', 'NaN', 'Infinity'])('invalid --timeout %j is a UsageError', (v) => {
    const e = usageError(() => resolveSettings({ timeout: v }, {}, {}, 'p'));
    expect(e.message).toContain('--timeout');
  });

  it.each(['abc', '-1', '', 'Infinity'])('invalid --max-wait %j is a UsageError', (v) => {
    const e = usageError(() => resolveSettings({ maxWait: v }, {}, {}, 'p'));
    expect(e.message).toContain('--max-wait');
  });
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://scanner.example.com', 'https://scanner.example.com'],
    ['https://scanner.example.com/', 'https://scanner.example.com'],
    ['  https://scanner.example.com  ', 'https://scanner.example.com'],
    ['https://scanner.example.com/api/v1', 'https://scanner.example.com'],
    ['https://scanner.example.com/api/v1/', 'https://scanner.example.com'],
    ['https://scanner.example.com/API/V1', 'https://scanner.example.com'],
    ['https://scanner.example.com/Api/v1//', 'https://scanner.example.com'],
    ['https://scanner.example.com/prefix/api/v1', 'https://scanner.example.com/prefix'],
    ['https://scanner.example.com/prefix/', 'https://scanner.example.com/prefix'],
    ['https://Scanner.Example.com:443/', 'https://scanner.example.com'],
    ['https://scanner.example.com:8443', 'https://scanner.example.com:8443'],
    ['http://localhost:8080/api/v1', 'http://localhost:8080'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.9.8.7', 'http://127.9.8.7'],
    ['http://[::1]:9000/', 'http://[::1]:9000'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it('the /api/v1 prefix is never doubled in request URLs', () => {
    for (const input of [
      'https://s.example.com/api/v1',
      'https://s.example.com/api/v1/',
      'https://s.example.com/API/v1',
    ]) {
      expect(buildUrl(normalizeBaseUrl(input), '/findings')).toBe('https://s.example.com/api/v1/findings');
    }
  });

  it('is idempotent for generated https URLs', () => {
    const host = fc.constantFrom(
      'example.com',
      'Scanner.Example.COM',
      'a-b.example.org',
      '10.0.0.1',
      '[::1]',
    );
    const port = fc.option(fc.constantFrom(443, 8443, 1), { nil: undefined });
    const segment = fc.constantFrom('', 'api', 'v1', 'API', 'V1', 'x', 'prefix', '.', 'a%20b', '~u');
    const path = fc.array(segment, { maxLength: 6 }).map((s) => (s.length ? `/${s.join('/')}` : ''));
    const trailing = fc.constantFrom('', '/', '//', '/api/v1', '/api/v1/', '/API/V1');
    fc.assert(
      fc.property(host, port, path, trailing, (h, p, pa, t) => {
        const url = `https://${h}${p ? `:${p}` : ''}${pa}${t}`;
        const once = normalizeBaseUrl(url);
        expect(normalizeBaseUrl(once)).toBe(once);
        // ...and requests never go to a doubled prefix or an empty path segment before it.
        expect(buildUrl(once, '/x')).not.toMatch(/\/\/api\/v1\/x$/);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    'http://example.com',
    'http://10.0.0.1',
    'http://192.168.1.10:8080',
    'http://128.0.0.1',
    'http://[::2]',
    'http://evil.localhost',
    'ftp://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
    'scanner.example.com',
    '',
  ])('rejects %j with a UsageError', (input) => {
    usageError(() => normalizeBaseUrl(input));
  });

  it.each(['https://user:pass@example.com', 'https://user@example.com', 'http://u:p@localhost:1'])(
    'rejects credentials in %s, without echoing them',
    (input) => {
      const e = usageError(() => normalizeBaseUrl(input));
      expect(e.message).toMatch(/credential/i);
      expect(e.message).not.toContain('pass@');
    },
  );

  it('rejects a query or a fragment', () => {
    usageError(() => normalizeBaseUrl('https://example.com/?x=1'));
    usageError(() => normalizeBaseUrl('https://example.com/#frag'));
  });

  it('isLoopbackHost', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '[::1]', '::1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of [
      'example.com',
      '10.0.0.1',
      '0.0.0.0',
      '128.0.0.1',
      '[::2]',
      'localhost.example.com',
      '127.0.0.1.nip.io',
    ]) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
});

describe('buildUrl', () => {
  it('joins base, /api/v1, path and query; drops undefined; repeats arrays', () => {
    expect(
      buildUrl('https://s.example.com', '/findings', {
        limit: 50,
        offset: 0,
        severity: undefined,
        tag: ['a', 'b c'],
        all: true,
      }),
    ).toBe('https://s.example.com/api/v1/findings?limit=50&offset=0&tag=a&tag=b+c&all=true');
  });

  it('adds a missing leading slash and keeps a base path prefix', () => {
    expect(buildUrl('https://s.example.com/prefix', 'connections')).toBe(
      'https://s.example.com/prefix/api/v1/connections',
    );
  });

  it('encodes query values', () => {
    const u = new URL(buildUrl('http://127.0.0.1:1', '/x', { q: 'a&b=c#d' }));
    expect(u.searchParams.get('q')).toBe('a&b=c#d');
    expect(u.hash).toBe('');
  });

  it('no query string when every value is undefined', () => {
    expect(buildUrl('https://s.example.com', '/x', { a: undefined })).toBe('https://s.example.com/api/v1/x');
  });
});

describe('ConfigStore', () => {
  it('round-trips a profile through update and a fresh open', async () => {
    const dir = join(tmp, 'cfg');
    const store = await ConfigStore.open(dir);
    expect(store.profile('default')).toStrictEqual({});
    await store.update('default', { base_url: 'https://s.example.com', workspace: 'acme' });
    await store.update('work', { workspace: 'other' });
    await store.update('default', { email: 'me@example.com', workspace: undefined });

    const again = await ConfigStore.open(dir);
    expect(again.profile('default')).toStrictEqual({
      base_url: 'https://s.example.com',
      email: 'me@example.com',
    });
    expect(again.profile('work')).toStrictEqual({ workspace: 'other' });
    expect(again.profileNames().sort()).toStrictEqual(['default', 'work']);
    expect(again.path).toBe(join(dir, 'config.json'));
    const onDisk = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown;
    expect(onDisk).toStrictEqual({
      ...VERSIONED,
      profiles: {
        default: { base_url: 'https://s.example.com', email: 'me@example.com' },
        work: { workspace: 'other' },
      },
    });
  });

  it('profile() returns a copy', async () => {
    const store = await ConfigStore.open(join(tmp, 'cfg'));
    await store.update('default', { workspace: 'acme' });
    const p = store.profile('default');
    p.workspace = 'changed';
    expect(store.profile('default').workspace).toBe('acme');
  });

  it.runIf(process.platform !== 'win32')(
    'opening creates nothing; a write creates the folder 0700 and the file 0600, never chmods an existing folder',
    async () => {
      const dir = join(tmp, 'new', 'cssctl');
      const store = await ConfigStore.open(dir);
      expect(store.profile('default')).toStrictEqual({});
      expect(existsSync(join(tmp, 'new'))).toBe(false);
      await store.update('default', { workspace: 'acme' });
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);

      const loose = join(tmp, 'loose');
      mkdirSync(loose, { mode: 0o755 });
      chmodSync(loose, 0o755);
      await (await ConfigStore.open(loose)).update('default', { workspace: 'acme' });
      expect(statSync(loose).mode & 0o777).toBe(0o755);
    },
  );

  it('leaves no temporary files behind after writes', async () => {
    const dir = join(tmp, 'cfg');
    const store = await ConfigStore.open(dir);
    for (let i = 0; i < 5; i++) await store.update('default', { workspace: `w${i}` });
    expect(readdirSync(dir).sort()).toStrictEqual(['config.json', 'locks']);
    expect(readdirSync(join(dir, 'locks'))).toStrictEqual(['config.lock-target']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toStrictEqual({
      ...VERSIONED,
      profiles: { default: { workspace: 'w4' } },
    });
  });

  it('an invalid config.json is a CliError naming the file, and the file is left as it was', async () => {
    const dir = join(tmp, 'cfg');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    const broken = '{"profiles": {"default": {"workspace": "acme"},, oops\n';
    writeFileSync(file, broken);
    // Opening does not fail (logout must still work); reading a profile or writing does.
    const store = await ConfigStore.open(dir);
    let caught: unknown;
    try {
      store.profile('default');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CliError);
    await expect(store.update('default', { workspace: 'x' })).rejects.toThrow(CliError);
    expect((caught as CliError).message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(readdirSync(dir).filter((f) => f !== 'locks')).toStrictEqual(['config.json']);
  });
});

describe('ConfigStore: every change is read-modify-write under the config lock (issue 20 #6)', () => {
  it('waits for the lock, then re-reads: a profile written meanwhile by another process is kept', async () => {
    const dir = join(tmp, 'cfg');
    const file = join(dir, 'config.json');
    const stale = await ConfigStore.open(dir); // read before the other process wrote
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const isTaken = new Promise<void>((r) => (taken = r));
    // Another cssctl process holding the lock while it writes its profile.
    const other = withFileLock(dir, 'config', async () => {
      taken();
      await held;
      writeFileSync(file, JSON.stringify({ profiles: { p1: { workspace: 'w1' } } }));
    });
    await isTaken;
    let done = false;
    const mine = stale.update('p2', { workspace: 'w2' }).then(() => (done = true));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false); // never writes while another process holds the lock
    expect(existsSync(file)).toBe(false);
    release();
    await Promise.all([other, mine]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({
      ...VERSIONED,
      profiles: { p1: { workspace: 'w1' }, p2: { workspace: 'w2' } },
    });
    expect(stale.profileNames()).toStrictEqual(['p1', 'p2']);
  });

  it('twelve concurrent updates from separate stores keep all twelve profiles', async () => {
    const dir = join(tmp, 'cfg');
    const stores = await Promise.all(Array.from({ length: 12 }, () => ConfigStore.open(dir)));
    await Promise.all(stores.map((s, i) => s.update(`p${i}`, { workspace: `w${i}` })));
    const onDisk = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
    };
    expect(Object.keys(onDisk.profiles).sort()).toStrictEqual(
      Array.from({ length: 12 }, (_, i) => `p${i}`).sort(),
    );
  });
});

describe('ConfigStore writes through conf: schema, migrations, and the contract first (issue 19)', () => {
  const file = () => join(tmp, 'cfg', 'config.json');
  const put = (data: unknown) => {
    mkdirSync(join(tmp, 'cfg'), { recursive: true, mode: 0o700 });
    writeFileSync(file(), typeof data === 'string' ? data : JSON.stringify(data));
  };
  const onDisk = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;

  it.runIf(process.platform !== 'win32')(
    'a config.json that is a symbolic link is refused (conf would write to its target)',
    async () => {
      const target = join(tmp, 'someone-elses.json');
      writeFileSync(target, '{"profiles":{}}');
      mkdirSync(join(tmp, 'cfg'), { recursive: true });
      symlinkSync(target, file());
      const store = await ConfigStore.open(join(tmp, 'cfg'));
      await expect(store.update('default', { workspace: 'x' })).rejects.toThrow(/symbolic link/);
      expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
      expect(lstatSync(file()).isSymbolicLink()).toBe(true);
    },
  );

  it('a secret hand-put in config.json: the schema refuses every write, naming the profile and the key', async () => {
    const data = { profiles: { ci: { workspace: 'w', access_token: 'eyJ.secret' } } };
    put(data);
    const store = await ConfigStore.open(join(tmp, 'cfg'));
    const err = await store.update('ci', { workspace: 'other' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toBe(
      `refusing to write ${file()}: profile "ci" holds access_token, and config.json never holds a secret`,
    );
    expect((err as Error).message).not.toContain('eyJ');
    expect(onDisk()).toStrictEqual(data);
    put({ profiles: {}, password: 'p' });
    const top = await (await ConfigStore.open(join(tmp, 'cfg'))).update('x', {}).catch((e: unknown) => e);
    expect((top as Error).message).toMatch(/: it holds password, and config\.json never holds a secret$/);
  });

  it('an unversioned file is migrated by the next write: the version is added, every other key kept', async () => {
    put({ profiles: { a: { workspace: 'wa', custom: 1 }, b: 'not an object' }, other: [1, 2] });
    const store = await ConfigStore.open(join(tmp, 'cfg'));
    await store.update('c', { workspace: 'wc' });
    expect(onDisk()).toStrictEqual({
      ...VERSIONED,
      profiles: { a: { workspace: 'wa', custom: 1 }, b: 'not an object', c: { workspace: 'wc' } },
      other: [1, 2],
    });
  });

  it('the schema is valid JSON Schema 2020-12 (conf is told not to check it at run time)', () => {
    // conf's ajv settings, with the warnings it would log (strictTypes) made errors.
    const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strictTypes: true });
    expect(ajv.validateSchema({ type: 'object', properties: CONFIG_SCHEMA, ...noSecret })).toBe(true);
    const validate = ajv.compile({ type: 'object', properties: CONFIG_SCHEMA, ...noSecret });
    expect(validate({ profiles: { a: { workspace: 'w', output: 42 } }, default_profile: 7 })).toBe(true);
    expect(validate({ profiles: { a: { refresh_token: 'r' } } })).toBe(false);
    expect(validate({ profiles: { a: 'not an object' } })).toBe(true);
    expect(validate({ profiles: [] })).toBe(false);
    expect(validate({ profiles: {}, token: 't' })).toBe(false);
  });

  it('the 1.0.0 migration gives a file without profiles an empty one', async () => {
    put('{}');
    await (await ConfigStore.open(join(tmp, 'cfg'))).setDefaultProfile('default');
    expect(onDisk()).toStrictEqual({ ...VERSIONED, profiles: {}, default_profile: 'default' });
    const seen: unknown[] = [];
    const fake = { get: () => undefined, set: (k: string, v: unknown) => seen.push([k, v]) };
    CONFIG_MIGRATIONS['1.0.0']!(fake as never);
    expect(seen).toStrictEqual([['profiles', {}]]);
    const kept = { get: () => ({ x: {} }), set: () => seen.push('written') };
    CONFIG_MIGRATIONS['1.0.0']!(kept as never);
    expect(seen).toHaveLength(1);
  });

  it('a file from a later format version is never downgraded by a write', async () => {
    put({ __internal__: { migrations: { version: '2.0.0' } }, profiles: {} });
    await (await ConfigStore.open(join(tmp, 'cfg'))).update('a', { workspace: 'w' });
    expect(onDisk()).toStrictEqual({
      __internal__: { migrations: { version: '2.0.0' } },
      profiles: { a: { workspace: 'w' } },
    });
  });

  it('conf bookkeeping is not a profile, and a read never writes it', async () => {
    put({ ...VERSIONED, profiles: { a: {} } });
    const before = readFileSync(file(), 'utf8');
    const store = await ConfigStore.open(join(tmp, 'cfg'));
    expect(store.profileNames()).toStrictEqual(['a']);
    expect(readFileSync(file(), 'utf8')).toBe(before);
  });
});

describe('configDir', () => {
  it('CSSCTL_CONFIG_DIR wins', () => {
    expect(configDir({ CSSCTL_CONFIG_DIR: '/x/y', XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/x/y');
  });

  it.runIf(process.platform === 'linux')(
    'then $XDG_CONFIG_HOME/cssctl, then ~/.config/cssctl on Linux',
    () => {
      expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/cssctl');
      expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/cssctl');
      expect(configDir({ CSSCTL_CONFIG_DIR: '', XDG_CONFIG_HOME: '', HOME: '/home/u' })).toBe(
        '/home/u/.config/cssctl',
      );
      expect(configDir({})).toBe(join(homedir(), '.config', 'cssctl'));
    },
  );
});

describe('validation', () => {
  it.each(['acme', 'Acme-Prod_1.eu', '0', 'a'.repeat(100)])('validateWorkspace accepts %j', (slug) => {
    expect(validateWorkspace(slug)).toBe(slug);
  });

  it.each([
    '',
    ' acme',
    'ac me',
    'acme\n',
    'acme\r\nX-Evil: 1',
    'acme\u0000',
    '-acme',
    '.acme',
    'a/b',
    'a:b',
    'a'.repeat(101),
    'café',
  ])('validateWorkspace rejects %j', (slug) => {
    usageError(() => validateWorkspace(slug));
  });

  it.each(['default', 'work', 'prod.eu-1', 'A_b'])('validateProfileName accepts %j', (name) => {
    expect(validateProfileName(name)).toBe(name);
  });

  it.each(['', 'has space', 'x\ny', 'a\r\nX-Evil: 1', '../etc', 'a/b', '.hidden', 'a'.repeat(65)])(
    'validateProfileName rejects %j',
    (name) => {
      usageError(() => validateProfileName(name));
    },
  );

  it('property: any workspace slug with whitespace or a control character is rejected', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.constantFrom(' ', '\t', '\r', '\n', '\r\n', '\u0000', '\u007f'),
        fc.string({ maxLength: 20 }),
        (a, bad, b) => {
          expect(() => validateWorkspace(`${a}${bad}${b}`)).toThrow(UsageError);
          expect(() => validateProfileName(`${a}${bad}${b}`)).toThrow(UsageError);
        },
      ),
    );
  });

  it('validateConfigValue checks and normalises each key', () => {
    expect(validateConfigValue('base_url', 'https://s.example.com/api/v1/')).toBe('https://s.example.com');
    expect(validateConfigValue('output', 'JSON')).toBe('json');
    expect(validateConfigValue('email', ' me@example.com ')).toBe('me@example.com');
    usageError(() => validateConfigValue('base_url', 'http://example.com'));
    usageError(() => validateConfigValue('email', 'nope'));
    usageError(() => validateConfigValue('token', 'x'));
  });
});

describe('hand-edited profiles (issue 9 #19)', () => {
  const KEYS = ['base_url', 'workspace', 'email', 'output'] as const;

  it('property: any JSON value for any key is a valid string or a UsageError naming config.json and the key', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KEYS), fc.jsonValue(), (key, raw) => {
        try {
          expect(typeof checkProfileValue('/c/config.json', 'p', key, raw)).toBe('string');
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect((err as Error).message).toContain('/c/config.json');
          expect((err as Error).message).toContain(key);
          expect((err as Error).message).not.toMatch(/is not a function|Cannot read/);
        }
      }),
    );
  });

  it('property: with any profile, what config list reads never throws; each value throws only a UsageError', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS, 'other'), fc.jsonValue()), (profile) => {
        const s = resolveSettings({}, {}, profile as RawProfile, 'p', { file: '/c/config.json' });
        expect(Object.keys(s.sources).sort()).toEqual([...KEYS].sort());
        void s.values;
        for (const k of KEYS) void [s.problem(k), s.raw(k)];
        expect(['table', 'json', 'ndjson', 'csv']).toContain(s.outputOr('table'));
        for (const k of KEYS) {
          try {
            s.value(k);
          } catch (err) {
            expect(err).toBeInstanceOf(UsageError);
            expect(s.problem(k)).toBe((err as Error).message);
          }
        }
      }),
    );
  });

  it('one bad value leaves the others readable', () => {
    const s = resolveSettings({}, {}, { base_url: 42, workspace: 'acme', output: 'json' }, 'p', {
      file: '/c/config.json',
    });
    expect(s.workspace).toBe('acme');
    expect(s.output).toBe('json');
    const err = usageError(() => s.baseUrl);
    expect(err.message).toBe('/c/config.json: invalid base_url in profile "p": expected a string, found 42');
    expect(s.values).toStrictEqual({ workspace: 'acme', output: 'json' });
    expect(s.raw('base_url')).toBe(42);
  });
});
