// The single executable (scripts/build-exe.mjs), when the suite runs against it (CSSCTL_TEST_BIN=dist/cssctl-
// linux-x64, as .ci/run does): it needs no Node, its keychain helper is itself, and it starts from the code
// cache built into it. The rest of the suite checks that it behaves as the package does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, World } from './harness.js';

const isExe = !!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN);

describe.skipIf(!isExe)('the single executable', () => {
  let w: World;
  let empty: string;
  beforeAll(async () => {
    w = await World.start();
    // A PATH with nothing in it: no node, no npm, no shell tools.
    empty = mkdtempSync(join(tmpdir(), 'cssctl-nopath-'));
  });
  afterAll(async () => {
    await w.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('runs with no node on PATH, compiled from the code cache inside it', async () => {
    const env = { PATH: empty, CSSCTL_DEBUG_STARTUP: '1', CSSCTL_CREDENTIAL_STORE: 'file' };
    expect((await w.run(['--version'], { env })).stdout).toMatch(/^\d+\.\d+\.\d+/);
    await w.login('acme', 'owner', [], { env });
    const res = await w.run(['connections', 'list', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).not.toHaveLength(0);
    expect(res.stderr).toBe('cssctl: compiled from code cache\n');
  });

  it.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS)(
    'keeps the session in the OS keychain through a helper that is itself (keytar inside), with no node on PATH',
    async () => {
      const env = { PATH: empty, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS };
      const login = await w.login('acme', 'owner', [], { env });
      expect(login.stderr + login.stdout).toMatch(/token stored in the OS keychain/);
      const status = await w.run(['auth', 'status', '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ token_source: 'keychain' });
      await w.run(['logout'], { env });
    },
  );
});
