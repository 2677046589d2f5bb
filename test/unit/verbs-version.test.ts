// `cssctl version` through its run function: what runs, and where a login would keep its session. Offline.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { version } from '../../src/commands/version/version.js';
import { VERSION } from '../../src/version.js';
import { memoryKeychain } from '../helpers/fake-context.js';
import { verbWorld } from '../helpers/verb.js';

const platform = `${process.platform}-${process.arch}`;

describe('version', () => {
  it('table: version, Node, V8, platform, build, and the file store with its path; nothing sent or written', async () => {
    const w = verbWorld([]);
    expect(await w.run(version, {})).toBe(0);
    const file = join(w.ctx.configDir, 'credentials.json');
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      `CSSCTL            ${VERSION}`,
      `NODE              ${process.versions.node}`,
      `V8                ${process.versions.v8}`,
      `PLATFORM          ${platform}`,
      'BUILD             npm package',
      `CREDENTIAL STORE  file ${file} (CSSCTL_CREDENTIAL_STORE=file)`,
    ]);
    expect(w.stderr.text).toBe('');
    expect(w.sent).toHaveLength(0);
    expect(readdirSync(w.ctx.configDir)).toStrictEqual([]);
  });

  it('-o json: the same facts as fields', async () => {
    const w = verbWorld([], { output: 'json' });
    expect(await w.run(version, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      version: VERSION,
      node: process.versions.node,
      v8: process.versions.v8,
      platform,
      build: 'npm package',
      credential_store: 'file',
      credential_store_mode: 'file',
      credential_file: join(w.ctx.configDir, 'credentials.json'),
    });
  });

  it('auto with a keychain that answers: the keychain, no file', async () => {
    const keychain = memoryKeychain();
    const w = verbWorld([], {
      output: 'json',
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await w.run(version, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toMatchObject({
      credential_store: 'keychain',
      credential_store_mode: 'auto',
      credential_file: null,
    });
    const table = verbWorld([], {
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await table.run(version, {})).toBe(0);
    expect(table.stdout.text).toContain('CREDENTIAL STORE  OS keychain (CSSCTL_CREDENTIAL_STORE=auto)\n');
  });

  it('auto with no keychain: the file; keychain with none: none — said without a warning', async () => {
    const auto = verbWorld([], { output: 'json', env: { CSSCTL_CREDENTIAL_STORE: 'auto' } });
    expect(await auto.run(version, {})).toBe(0);
    expect(JSON.parse(auto.stdout.text)).toMatchObject({
      credential_store: 'file',
      credential_store_mode: 'auto',
    });
    const none = verbWorld([], { env: { CSSCTL_CREDENTIAL_STORE: 'keychain' } });
    expect(await none.run(version, {})).toBe(0);
    expect(none.stdout.text).toContain(
      'CREDENTIAL STORE  none: no OS keychain answers (CSSCTL_CREDENTIAL_STORE=keychain)\n',
    );
    expect(none.stderr.text).toBe('');
  });

  it('an invalid CSSCTL_CREDENTIAL_STORE: exit 2 naming the valid ones', async () => {
    const w = verbWorld([], { env: { CSSCTL_CREDENTIAL_STORE: 'vault' } });
    expect(await w.run(version, {})).toBe(2);
    expect(w.stderr.text).toBe(
      'error: invalid CSSCTL_CREDENTIAL_STORE "vault": use auto, keychain or file\n',
    );
  });
});
