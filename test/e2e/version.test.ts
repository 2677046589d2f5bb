// `cssctl version` and `cssctl --version --verbose` (cli-contract.md §12): the version, the Node, the platform
// and the credential store a login would use now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, lines } from './harness.js';

let w: World;
beforeAll(async () => {
  w = await World.start();
});
afterAll(() => w.close());

const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };

describe('version', () => {
  it('--version alone is the version only', async () => {
    const res = await w.run(['--version']);
    expect(res.stdout).toBe(`${pkg.version}\n`);
  });

  it('version --json names the version, Node, platform and the store; --version --verbose says the same', async () => {
    const env = { CSSCTL_CREDENTIAL_STORE: 'file' };
    const res = await w.run(['version', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    const v = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(v).toMatchObject({
      version: pkg.version,
      platform: `${process.platform}-${process.arch}`,
      credential_store: 'file',
      credential_store_mode: 'file',
      credential_file: `${w.configDir}/credentials.json`,
    });
    expect(v.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(['npm package', 'single executable']).toContain(v.build);
    const verbose = await w.run(['--version', '--verbose', '--json'], { env });
    expect(JSON.parse(verbose.stdout)).toEqual(v);
    const text = await w.run(['--version', '--verbose'], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(lines(text.stdout)[0]).toMatch(new RegExp(`^CSSCTL\\s+${pkg.version.replace(/\./g, '\\.')}$`));
    expect(text.stdout).toMatch(new RegExp(`^NODE\\s+${String(v.node).replace(/\./g, '\\.')}$`, 'm'));
    expect(text.stdout).toMatch(
      /^CREDENTIAL STORE\s+file .*credentials\.json \(CSSCTL_CREDENTIAL_STORE=file\)$/m,
    );
  });

  it('auto without a keychain: the file; keychain without one: none', async () => {
    const auto = JSON.parse((await w.run(['version', '--json'])).stdout) as Record<string, unknown>;
    expect(auto).toMatchObject({ credential_store: 'file', credential_store_mode: 'auto' });
    const res = await w.run(['version', '--json'], { env: { CSSCTL_CREDENTIAL_STORE: 'keychain' } });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ credential_store: 'none', credential_file: null });
  });

  it.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS)('with a keychain that answers: the keychain', async () => {
    const env = { DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS };
    const res = await w.run(['version', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ credential_store: 'keychain', credential_file: null });
  });
});
