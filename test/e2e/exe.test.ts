// The single executable (scripts/build-exe.mjs), when the suite runs against it (CSSCTL_TEST_BIN=dist/cssctl-
// linux-x64, as .ci/run does): it needs no Node, its keychain helper is itself, it starts from the code cache
// built into it, and an export runs in the executable started again with the export flags. The rest of the
// suite checks that it behaves as the package does.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, World } from './harness.js';
import { skipped } from '../helpers/skip.js';

const { EXPORT_V8_FLAGS } = createRequire(import.meta.url)('../../bin/cssctl.cjs') as {
  EXPORT_V8_FLAGS: string[];
};
const isExe = !!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN);

describe.skipIf(!isExe)(
  'the single executable',
  skipped(
    "they test the single executable, and this run is of the checkout's build",
    `npm run build:exe && bash scripts/test-shipped test/e2e/exe.test.ts`,
  ),
  () => {
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
      expect(res.stderr).toBe(
        'cssctl: compiled from code cache under --min-semi-space-size=16 --no-flush-bytecode\n',
      );
    });

    it('runs an export in itself started again with the export flags, with a code cache of its own', async () => {
      const cache = mkdtempSync(join(tmpdir(), 'cssctl-exe-cache-'));
      try {
        // NODE_OPTIONS is meant for the user's own node: the executable does not read it.
        const env = {
          PATH: empty,
          CSSCTL_DEBUG_STARTUP: '1',
          XDG_CACHE_HOME: cache,
          NODE_OPTIONS: '--require /nonexistent/preload.cjs',
        };
        await w.login('acme', 'owner', [], { env });
        const plain = await w.run(['findings', 'list', '--json'], { env });
        expect(plain.code, plain.stderr).toBe(0);
        expect(plain.stderr).toBe(
          'cssctl: compiled from code cache under --min-semi-space-size=16 --no-flush-bytecode\n',
        );
        const flags = [...EXPORT_V8_FLAGS, '--min-semi-space-size=0'].join(' ');
        const first = await w.run(['findings', 'list', '--all', '-o', 'ndjson'], { env });
        expect(first.code, first.stderr).toBe(0);
        expect(first.stderr).toBe(
          `cssctl: compiled from source under --min-semi-space-size=16 --no-flush-bytecode ${flags}\n`,
        );
        const again = await w.run(['findings', 'list', '--all', '-o', 'ndjson'], { env });
        expect(again.stderr).toBe(
          `cssctl: compiled from code cache under --min-semi-space-size=16 --no-flush-bytecode ${flags}\n`,
        );
        expect(again.stdout).toBe(first.stdout);
        const rows = first.stdout.trim().split('\n');
        expect(rows.length).toBeGreaterThan((JSON.parse(plain.stdout) as unknown[]).length);
        // An export's exit code and error are its own, passed on by the executable that started it.
        const unreachable = {
          ...env,
          CSSCTL_BASE_URL: 'http://127.0.0.1:9',
          CSSCTL_TOKEN: 'x',
          CSSCTL_WORKSPACE: 'acme',
        };
        const bad = await w.run(['findings', 'list', '--all', '-o', 'ndjson'], { env: unreachable });
        const direct = await w.run(['findings', 'list', '-o', 'ndjson'], { env: unreachable });
        expect(bad.code).toBe(1);
        expect(bad.code).toBe(direct.code);
        expect(bad.stderr.split('\n').slice(1)).toEqual(direct.stderr.split('\n').slice(1));
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    });

    it('--verbose: stack traces name the TypeScript sources; the files built apart load from its assets', async () => {
      // Under --verbose the bundle goes through Node's CommonJS loader, served from the assets by a module hook
      // (bin/cssctl.cjs serveAssets), so its inline source map applies; so do config-writer.cjs and jq.cjs.
      const env = { PATH: empty, CSSCTL_CREDENTIAL_STORE: 'file', CSSCTL_CONFIG_DIR: join(empty, 'verbose') };
      const stack = await w.run(['connections', 'list', '--verbose'], { env });
      expect(stack.code).toBe(2);
      expect(stack.stderr).toMatch(/^UsageError: no service address configured$/m);
      expect(stack.stderr).toMatch(/^ {4}at .*\(.*src\/core\/http\/client\.ts:\d+:\d+\)$/m);
      const set = await w.run(['config', 'set', 'workspace', 'acme', '--verbose'], { env });
      expect(set.code, set.stderr).toBe(0);
      const jq = await w.run(['config', 'list', '--json', '--jq', '.workspace', '--verbose'], { env });
      expect(jq.code, jq.stderr).toBe(0);
      expect(jq.stdout).toBe('acme\n');
      // And without --verbose, from the code cache: the same files, compiled from the assets (node:vm).
      const plain = await w.run(['config', 'list', '--json', '--jq', '.workspace'], { env });
      expect(plain.stdout).toBe('acme\n');
    });

    it.each<[string, string[]]>([
      ['cssctl mcp', []],
      ['cssctl mcp --verbose', ['--verbose']],
    ])('%s: the MCP SDK from its assets, with no node on PATH', async (_name, flags) => {
      const env = { PATH: empty, CSSCTL_CREDENTIAL_STORE: 'file', CSSCTL_CONFIG_DIR: join(empty, 'mcp') };
      const lines = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'auth_status', arguments: {} } },
      ];
      const res = await w.run(['mcp', ...flags], {
        env,
        input: lines.map((l) => `${JSON.stringify(l)}\n`).join(''),
      });
      expect(res.code, res.stderr).toBe(0);
      const answers = res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; result: { content?: { text: string }[] } });
      expect(answers.find((a) => a.id === 1)?.result).toMatchObject({ serverInfo: { name: 'cssctl' } });
      expect(answers.find((a) => a.id === 2)?.result.content?.[0]?.text).toMatch(/^error: not logged in/);
    });

    it.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS)(
      'keeps the session in the OS keychain through a helper that is itself (keytar inside), with no node on PATH',
      skipped(
        'it tests the single executable, in a D-Bus session with a keyring (test-shipped runs it in one)',
        'npm run build:exe && bash scripts/test-shipped test/e2e/exe.test.ts',
      ),
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
  },
);
