import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Credentials,
  FileStore,
  KEYCHAIN_SERVICE,
  KeychainStore,
  parseStoreMode,
  type Tokens,
} from '../../src/core/credentials.js';
import { CliError, UsageError, exitCodeFor } from '../../src/core/errors.js';
import { KeychainLockedError } from '../../src/core/keychain.js';

const posix = process.platform !== 'win32';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cssctl-cred-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const tokA: Tokens = {
  access_token: 'access-A',
  refresh_token: 'refresh-A',
  token_type: 'bearer',
  expires_at: 1_900_000_000_000,
};
const tokB: Tokens = {
  access_token: 'access-B',
  refresh_token: 'refresh-B',
  token_type: 'bearer',
  expires_at: 1_800_000_000_000,
};

/** An in-memory keytar with a call log. */
class FakeKeytar {
  readonly data = new Map<string, string>();
  readonly calls: string[] = [];
  async getPassword(service: string, account: string): Promise<string | null> {
    this.calls.push(`get ${service}/${account}`);
    return this.data.get(`${service}/${account}`) ?? null;
  }
  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.calls.push(`set ${service}/${account}`);
    this.data.set(`${service}/${account}`, password);
  }
  async deletePassword(service: string, account: string): Promise<boolean> {
    this.calls.push(`delete ${service}/${account}`);
    return this.data.delete(`${service}/${account}`);
  }
}

function withKeychain(fake = new FakeKeytar()) {
  let connects = 0;
  const connect = async () => {
    connects++;
    return new KeychainStore(fake);
  };
  return { fake, connect, connects: () => connects };
}

const noKeychain = async () => undefined;

const mode = (p: string) => statSync(p).mode & 0o777;

describe('FileStore', () => {
  it.runIf(posix)('set writes a 0600 file in a 0700 folder', async () => {
    const dir = join(tmp, 'cfg');
    const store = new FileStore(dir);
    await store.set('default', tokA);
    expect(mode(store.path)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(store.path).toBe(join(dir, 'credentials.json'));
  });

  it.runIf(posix)('never chmods an existing folder it did not create; warns once instead', async () => {
    const dir = join(tmp, 'cfg');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    const store = new FileStore(dir, (m) => warnings.push(m));
    await store.set('default', tokA);
    await store.set('work', tokB);
    expect(mode(dir)).toBe(0o755);
    expect(mode(store.path)).toBe(0o600);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
  });

  it('get round-trips tokens per profile', async () => {
    const store = new FileStore(tmp);
    await store.set('default', tokA);
    await store.set('work', tokB);
    expect(await store.get('default')).toStrictEqual(tokA);
    expect(await store.get('work')).toStrictEqual(tokB);
    expect(await store.get('other')).toBeUndefined();
    // A fresh instance reads the same file.
    expect(await new FileStore(tmp).get('work')).toStrictEqual(tokB);
  });

  it('get on a missing file is undefined and creates nothing', async () => {
    const store = new FileStore(join(tmp, 'none'));
    expect(await store.get('default')).toBeUndefined();
    expect(existsSync(join(tmp, 'none'))).toBe(false);
  });

  it('leaves no temporary files behind', async () => {
    const store = new FileStore(tmp);
    for (let i = 0; i < 5; i++) await store.set(`p${i}`, tokA);
    await store.delete('p0');
    expect(readdirSync(tmp).filter((f) => f.includes('credentials'))).toStrictEqual(['credentials.json']);
  });

  it('delete is idempotent and only removes that profile', async () => {
    const store = new FileStore(tmp);
    expect(await store.delete('default')).toBe(false);
    await store.set('default', tokA);
    await store.set('work', tokB);
    expect(await store.delete('default')).toBe(true);
    expect(await store.delete('default')).toBe(false);
    expect(await store.get('default')).toBeUndefined();
    expect(await store.get('work')).toStrictEqual(tokB);
  });

  it.runIf(posix)('reading changes nothing: no chmod of the file, nor of a symlink target', async () => {
    const store = new FileStore(tmp);
    await store.set('default', tokA);
    chmodSync(store.path, 0o644);
    expect(await store.get('default')).toStrictEqual(tokA);
    expect(mode(store.path)).toBe(0o644);

    const other = join(tmp, 'other');
    mkdirSync(other);
    const target = join(tmp, 'target.json');
    writeFileSync(target, JSON.stringify({ version: 1, profiles: {} }), { mode: 0o644 });
    chmodSync(target, 0o644);
    symlinkSync(target, join(other, 'credentials.json'));
    const linked = new FileStore(other);
    expect(await linked.get('default')).toBeUndefined();
    expect(mode(target)).toBe(0o644);
    // A write never goes through the link: refused, target untouched.
    await expect(linked.set('default', tokA)).rejects.toThrow(/symbolic link/);
    expect(mode(target)).toBe(0o644);
    expect(readFileSync(target, 'utf8')).toBe(JSON.stringify({ version: 1, profiles: {} }));
  });

  it('invalid JSON is a CliError naming the file, and the file is left untouched', async () => {
    const store = new FileStore(tmp);
    const broken = '{"version":1,"profiles":{"default":{"access_token":"keep-me"'; // truncated
    writeFileSync(store.path, broken, { mode: 0o600 });
    await expect(store.get('default')).rejects.toBeInstanceOf(CliError);
    await expect(store.get('default')).rejects.toThrow(store.path);
    await expect(store.get('default')).rejects.toMatchObject({
      hint: expect.stringMatching(/cssctl logout/),
    });
    // A write must not replace a file it could not read (that would lose the other profiles).
    await expect(store.set('work', tokB)).rejects.toBeInstanceOf(CliError);
    expect(readFileSync(store.path, 'utf8')).toBe(broken);
    // …but logout, which the error advises, removes it.
    expect(await store.delete('default')).toBe(true);
    expect(existsSync(store.path)).toBe(false);
  });

  it('an entry without an access token is treated as absent', async () => {
    const store = new FileStore(tmp);
    writeFileSync(store.path, JSON.stringify({ version: 1, profiles: { default: { refresh_token: 'r' } } }));
    expect(await store.get('default')).toBeUndefined();
  });
});

describe('KeychainStore', () => {
  it('stores the tokens as JSON under service cssctl, account = profile', async () => {
    const fake = new FakeKeytar();
    const k = new KeychainStore(fake);
    await k.set('work', tokA);
    expect(KEYCHAIN_SERVICE).toBe('cssctl');
    expect(JSON.parse(fake.data.get('cssctl/work')!)).toStrictEqual(tokA);
    expect(await k.get('work')).toStrictEqual(tokA);
    expect(await k.delete('work')).toBe(true);
    expect(await k.delete('work')).toBe(false);
    expect(await k.get('work')).toBeUndefined();
  });

  it('a failing keychain call is a CliError', async () => {
    const fake = new FakeKeytar();
    fake.getPassword = async () => {
      throw new Error('dbus went away');
    };
    await expect(new KeychainStore(fake).get('default')).rejects.toBeInstanceOf(CliError);
  });

  it.runIf(process.platform === 'linux')(
    'connect without a D-Bus session resolves undefined quickly',
    async () => {
      const started = Date.now();
      await expect(KeychainStore.connect({})).resolves.toBeUndefined();
      await expect(KeychainStore.connect({ DBUS_SESSION_BUS_ADDRESS: '' })).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(500);
    },
  );
});

describe('Credentials', () => {
  it('auto with a keychain: saves to the keychain and removes a stale copy from the file', async () => {
    const kc = withKeychain();
    const creds = new Credentials('auto', tmp, {}, kc.connect);
    await creds.file.set('default', tokB); // stale, from an earlier file-based login
    await creds.file.set('other', tokB);
    expect(await creds.save('default', tokA)).toEqual({ store: 'keychain' });
    expect(JSON.parse(kc.fake.data.get('cssctl/default')!)).toStrictEqual(tokA);
    expect(await creds.file.get('default')).toBeUndefined();
    expect(await creds.file.get('other')).toStrictEqual(tokB);
    expect(await creds.load('default')).toStrictEqual({ tokens: tokA, source: 'keychain' });
  });

  it('auto without a keychain: saves to the file', async () => {
    const creds = new Credentials('auto', tmp, {}, noKeychain);
    expect(await creds.save('default', tokA)).toEqual({
      store: 'file',
      fallback: 'no OS keychain could be reached',
    });
    expect(await new FileStore(tmp).get('default')).toStrictEqual(tokA);
    expect(await creds.load('default')).toStrictEqual({ tokens: tokA, source: 'file' });
  });

  it('auto with a keychain that answers but refuses the write: falls back to the file and says why', async () => {
    const fake = new FakeKeytar();
    fake.setPassword = async () => {
      throw new Error('Object does not exist at path /org/freedesktop/secrets/collection/login');
    };
    const creds = new Credentials('auto', tmp, {}, withKeychain(fake).connect);
    const saved = await creds.save('default', tokA);
    expect(saved.store).toBe('file');
    expect(saved.fallback).toMatch(/keychain refused the write .*collection\/login/);
    expect(await creds.file.get('default')).toStrictEqual(tokA);
  });

  it('keychain mode: a login removes the plaintext copy left in the file', async () => {
    await new FileStore(tmp).set('default', tokB);
    const kc = withKeychain();
    const creds = new Credentials('keychain', tmp, {}, kc.connect);
    expect((await creds.save('default', tokA)).store).toBe('keychain');
    expect(await creds.file.get('default')).toBeUndefined();
    expect(readFileSync(creds.file.path, 'utf8')).not.toContain('access-B');
  });

  it('auto: connects to the keychain once per instance', async () => {
    const kc = withKeychain();
    const creds = new Credentials('auto', tmp, {}, kc.connect);
    await creds.save('default', tokA);
    await creds.load('default');
    await creds.load('default');
    expect(kc.connects()).toBe(1);
  });

  it('keychain mode with no keychain: save and load fail', async () => {
    const creds = new Credentials('keychain', tmp, {}, noKeychain);
    await expect(creds.save('default', tokA)).rejects.toBeInstanceOf(CliError);
    await expect(creds.load('default')).rejects.toBeInstanceOf(CliError);
    expect(existsSync(join(tmp, 'credentials.json'))).toBe(false);
  });

  it('keychain mode does not fall back to the file on load', async () => {
    const kc = withKeychain();
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials('keychain', tmp, {}, kc.connect);
    expect(await creds.load('default')).toBeUndefined();
  });

  it('file mode never touches the keychain on save or load', async () => {
    const kc = withKeychain();
    kc.fake.data.set('cssctl/default', JSON.stringify(tokB));
    const creds = new Credentials('file', tmp, {}, kc.connect);
    expect(await creds.save('default', tokA)).toEqual({ store: 'file' });
    expect(await creds.load('default')).toStrictEqual({ tokens: tokA, source: 'file' });
    expect(kc.connects()).toBe(0);
    expect(kc.fake.calls).toStrictEqual([]);
    expect(JSON.parse(kc.fake.data.get('cssctl/default')!)).toStrictEqual(tokB);
  });

  it('auto: load prefers the keychain, then the file, else undefined', async () => {
    const kc = withKeychain();
    const creds = new Credentials('auto', tmp, {}, kc.connect);
    expect(await creds.load('default')).toBeUndefined();
    await creds.file.set('default', tokB);
    expect(await creds.load('default')).toStrictEqual({ tokens: tokB, source: 'file' });
    kc.fake.data.set('cssctl/default', JSON.stringify(tokA));
    expect(await creds.load('default')).toStrictEqual({ tokens: tokA, source: 'keychain' });
  });

  it('a refresh (save with where) goes back to the same store and leaves the other alone', async () => {
    const kc = withKeychain();
    const creds = new Credentials('auto', tmp, {}, kc.connect);
    kc.fake.data.set('cssctl/default', JSON.stringify(tokB));
    expect(await creds.save('default', tokA, 'file')).toEqual({ store: 'file' });
    expect(await creds.file.get('default')).toStrictEqual(tokA);
    expect(kc.fake.data.has('cssctl/default')).toBe(true);
  });

  it('auto without a keychain, then with one: the file copy is removed on the next login', async () => {
    await new Credentials('auto', tmp, {}, noKeychain).save('default', tokB);
    const kc = withKeychain();
    await new Credentials('auto', tmp, {}, kc.connect).save('default', tokA);
    expect(await new FileStore(tmp).get('default')).toBeUndefined();
  });

  it.each(['auto', 'keychain'] as const)('remove (%s) clears both stores and is idempotent', async (m) => {
    const kc = withKeychain();
    kc.fake.data.set('cssctl/default', JSON.stringify(tokA));
    kc.fake.data.set('cssctl/work', JSON.stringify(tokA));
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials(m, tmp, {}, kc.connect);
    expect((await creds.remove('default')).sort()).toStrictEqual(['file', 'keychain']);
    expect(kc.fake.data.has('cssctl/default')).toBe(false);
    expect(kc.fake.data.has('cssctl/work')).toBe(true);
    expect(await new FileStore(tmp).get('default')).toBeUndefined();
    expect(await creds.remove('default')).toStrictEqual([]);
  });

  it('remove with no keychain at all clears the file', async () => {
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials('auto', tmp, {}, noKeychain);
    expect(await creds.remove('default')).toStrictEqual(['file']);
    expect(await creds.load('default')).toBeUndefined();
  });

  it('file mode: remove clears the file and never asks the keychain', async () => {
    const kc = withKeychain();
    kc.fake.data.set('cssctl/default', JSON.stringify(tokA));
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials('file', tmp, {}, kc.connect);
    expect(await creds.remove('default')).toStrictEqual(['file']);
    expect(kc.connects()).toBe(0);
    expect(kc.fake.calls).toStrictEqual([]);
  });

  it('a locked keychain: load says locked, remove clears the file then fails naming the keychain (exit 1)', async () => {
    const fake = new FakeKeytar();
    fake.getPassword = async () => Promise.reject(new KeychainLockedError());
    fake.deletePassword = async () => Promise.reject(new KeychainLockedError());
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials('auto', tmp, {}, withKeychain(fake).connect);
    await expect(creds.load('default')).rejects.toThrow(/keychain is locked/);
    const err = await creds.remove('default').catch((e: unknown) => e);
    expect(exitCodeFor(err)).toBe(1);
    expect((err as Error).message).toMatch(
      /could not remove .* keychain: the OS keychain is locked; removed the copy in file/,
    );
    expect((err as CliError).hint).toMatch(/unlock/);
    expect(await new FileStore(tmp).get('default')).toBeUndefined();
  });

  it('file mode remove survives a keychain that cannot be reached', async () => {
    await new FileStore(tmp).set('default', tokB);
    const creds = new Credentials('file', tmp, {}, async () => {
      throw new Error('no dbus');
    });
    expect(await creds.remove('default')).toStrictEqual(['file']);
  });
});

describe('parseStoreMode', () => {
  it.each([
    [undefined, 'auto'],
    ['', 'auto'],
    ['auto', 'auto'],
    ['FILE', 'file'],
    [' keychain ', 'keychain'],
  ])('%j -> %s', (input, expected) => {
    expect(parseStoreMode(input)).toBe(expected);
  });

  it.each(['vault', 'files', 'none', 'plaintext'])('rejects %j with a UsageError naming the choices', (v) => {
    let caught: unknown;
    try {
      parseStoreMode(v);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toMatch(/auto.*keychain.*file/);
  });
});
