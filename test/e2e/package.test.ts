// The npm package as a new user gets it (cli-contract.md §12): `npm pack` of the build, `npm install -g` of
// the tarball into an empty prefix, and the installed `cssctl` run from another folder. The tarball holds
// what the CLI runs and its licence texts, nothing else; nothing the bundle holds is downloaded again.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCommand, runCli, World } from './harness.js';
import { skipped } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
// npm from PATH (scripts/lib.sh puts the Node it brings there, with its npm).
const npm = 'npm';
const npmEnv = {
  ...process.env,
  npm_config_loglevel: 'error',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

// Of the checkout's build: skipped when the suite runs against another cssctl (CSSCTL_TEST_BIN).
describe.skipIf(!!process.env.CSSCTL_TEST_BIN)(
  'the package',
  skipped(
    'they pack the checkout, and this run is of another cssctl (CSSCTL_TEST_BIN)',
    'bash scripts/test test/e2e/package.test.ts',
  ),
  () => {
    let dir: string;
    let tarball: string;
    let files: string[];

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'cssctl-pack-'));
      // The build is the test run's own (test/global-setup.ts): packed as it is, not built again.
      const out = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: root,
        env: npmEnv,
        encoding: 'utf8',
      });
      const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
      tarball = join(dir, packed!.filename);
      files = packed!.files.map((f) => f.path).sort();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('holds what the CLI runs and the licences, and no test service, benchmark or code cache', () => {
      const completions = readdirSync(join(root, 'completions')).map((f) => `completions/${f}`);
      expect(files).toEqual(
        [
          'LICENSE',
          'README.md',
          'bin/argv.cjs',
          'bin/dirs.cjs',
          'bin/cssctl.cjs',
          'dist/THIRD-PARTY-NOTICES.md',
          'dist/cli.cjs',
          'dist/cli.cjs.map',
          'dist/config-writer.cjs',
          'dist/help.json',
          'dist/help-topics.cjs',
          'dist/jq.cjs',
          'dist/launch.json',
          'dist/jq.wasm',
          'dist/keychain-worker.js',
          'dist/mcp.cjs',
          'package.json',
          ...completions,
          ...(pkg.man as string[]),
        ].sort(),
      );
    });

    it('is publishable, and downloads nothing the bundle holds', () => {
      expect(pkg.private).toBeUndefined();
      expect(pkg).toMatchObject({ license: 'MIT', bin: { cssctl: 'bin/cssctl.cjs' } });
      expect(pkg.repository).toBeDefined();
      expect((pkg.engines as Record<string, string>).node).toBe('>=22.19.0');
      // Only keytar (a native addon, optional) loads from node_modules at run time, pinned to one version.
      expect(pkg.dependencies).toBeUndefined();
      expect(pkg.optionalDependencies).toEqual({ keytar: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
      // undici is bundled from its own files (src/core/http/undici.ts): the version the build saw, exactly.
      expect((pkg.devDependencies as Record<string, string>).undici).toMatch(/^\d+\.\d+\.\d+$/);
    });

    it('carries the licence of every package bundled into it', () => {
      const notices = readFileSync(join(root, 'dist/THIRD-PARTY-NOTICES.md'), 'utf8');
      for (const name of [
        'commander',
        'undici',
        'chalk',
        'cli-table3',
        'ora',
        'proper-lockfile',
        '@inquirer/core',
        // bundled apart: dist/config-writer.cjs, dist/jq.cjs, dist/help-topics.cjs and dist/mcp.cjs
        'marked',
        'conf',
        'ajv',
        'jq-wasm',
        'yaml',
        '@modelcontextprotocol/sdk',
        'zod',
      ])
        expect(notices).toMatch(new RegExp(`^## ${name.replace('/', '\\/')} \\d`, 'm'));
      expect(notices).toContain('Permission is hereby granted');
      // jq itself and the Oniguruma it is built with, compiled into jq-wasm's WebAssembly (dist/jq.wasm).
      expect(notices).toContain('jq is copyright (C) 2012 Stephen Dolan');
      expect(notices).toMatch(/^### Oniguruma 6\.9\.10, compiled into jq-wasm's WebAssembly/m);
      expect(notices).toContain('Copyright (c) 2002-2021  K.Kosako');
    });

    it('installs as the README says (npm install -g) into an empty prefix, quietly, and runs from another folder', async () => {
      const prefix = join(dir, 'prefix');
      // The README's install line and docs/install.md's, as written but for the tarball's folder and the prefix.
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      const guide = readFileSync(join(root, 'docs/install.md'), 'utf8');
      const line = /^npm install -g (.*\.tgz)/m.exec(readme)?.[1];
      expect(line).toBe(`--allow-scripts=keytar ./${String(pkg.name)}-${String(pkg.version)}.tgz`);
      expect(guide).toContain(`npm install -g ${line}`);
      const args = line!.split(' ').map((a) => (a.endsWith('.tgz') ? tarball : a));
      // keytar is optional: where it cannot be built the install still succeeds, and the file store is used.
      // npm's warnings stay on (npm 11 warns about an install script nobody allowed): there must be none.
      const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, ...args], {
        env: { ...npmEnv, npm_config_loglevel: 'warn' },
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(install.status, install.stderr).toBe(0);
      expect(install.stderr).not.toMatch(/npm warn/i);
      const installed = join(prefix, 'lib/node_modules/cssctl');
      const bundledAgain = readdirSync(join(installed, 'node_modules')).filter((d) =>
        ['commander', 'undici', 'chalk', 'ora', 'cli-table3', '@inquirer', 'proper-lockfile'].includes(d),
      );
      expect(bundledAgain).toEqual([]);

      const world = await World.start();
      try {
        const elsewhere = mkdtempSync(join(tmpdir(), 'cssctl-elsewhere-'));
        const bin = join(prefix, 'bin/cssctl');
        const env = { ...world.env, CSSCTL_CREDENTIAL_STORE: 'file' };
        const run = async (args: string[], input?: string) => {
          const res = await runCli(args, env, { command: bin, cwd: elsewhere, input });
          expect(res.code, res.stderr).toBe(0);
          return res.stdout;
        };
        expect(await run(['--version'])).toBe(`${String(pkg.version)}\n`);
        const c = world.cred();
        await run(
          ['login', '--base-url', world.url, '-w', 'acme', '--email', c.email, '--password-stdin'],
          `${c.password}\n`,
        );
        const list = JSON.parse(await run(['connections', 'list', '--json'])) as unknown[];
        expect(list.length).toBeGreaterThan(0);
        // The same answer as the build in the checkout.
        const here = await runCli(['connections', 'list', '--json'], env);
        expect(JSON.parse(here.stdout)).toEqual(list);
        // A help topic, from the text the package carries.
        expect(await run(['help', 'exit-codes'])).toMatch(/^8 +rate limited past --max-wait \(429\)/m);
        // The MCP server, with the SDK the package carries (dist/mcp.cjs): a tool call answered over stdio.
        const mcp = await run(
          ['mcp'],
          [
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
            {
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'list_connections', arguments: {} },
            },
          ]
            .map((m) => `${JSON.stringify(m)}\n`)
            .join(''),
        );
        const answers = mcp
          .trim()
          .split('\n')
          .map(
            (l) =>
              JSON.parse(l) as { id: number; result: { structuredContent?: { connections: unknown[] } } },
          );
        expect(answers.find((a) => a.id === 2)?.result.structuredContent?.connections).toEqual(list);
        rmSync(elsewhere, { recursive: true, force: true });
      } finally {
        await world.close();
      }
    }, 300_000);

    // npm links package.json `man` into <prefix>/share/man/man1, where man finds it (man-db; scripts/lib.sh
    // installs it for the tests).
    it.runIf(hasCommand('man') || process.env.CI === 'true')(
      'man cssctl works after npm install -g: every page linked, found and rendered',
      () => {
        const prefix = join(dir, 'prefix');
        const man1 = join(prefix, 'share/man/man1');
        expect(readdirSync(man1).sort()).toEqual(
          (pkg.man as string[]).map((m) => m.replace('dist/man/', '')).sort(),
        );
        const manEnv = {
          ...process.env,
          MANPATH: join(prefix, 'share/man'),
          MANPAGER: 'cat',
          PAGER: 'cat',
          MANWIDTH: '80',
          LANG: 'C.UTF-8',
        };
        for (const page of ['cssctl', 'cssctl-findings-list']) {
          const where = execFileSync('man', ['-w', page], { env: manEnv, encoding: 'utf8' }).trim();
          expect(realpathSync(where)).toBe(
            realpathSync(join(prefix, 'lib/node_modules/cssctl/dist/man', `${page}.1`)),
          );
        }
        const text = execFileSync('man', ['cssctl-scans-wait'], { env: manEnv, encoding: 'utf8' });
        expect(text).toMatch(/^NAME\n\s+cssctl-scans-wait - wait until a scan is final/m);
        expect(text).toContain('--wait-timeout <seconds>');
        const root = execFileSync('man', ['cssctl'], { env: manEnv, encoding: 'utf8' });
        expect(root).toMatch(/^EXIT STATUS$/m);
      },
    );
  },
);
