// The V8 code cache bin/cssctl.cjs makes on a first run, for the Node that runs it, in $XDG_CACHE_HOME/cssctl
// (docs/shipping.md): taken by the next run, kept apart per bundle, V8, architecture and flags, written
// atomically by concurrent first runs, and never a failure when the folder cannot take it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, World, runCli } from './harness.js';
import { skipped } from '../helpers/skip.js';

// bin/cssctl.cjs of this checkout: another cssctl (an installed one, the single executable) is tested elsewhere.
const installedBin = !!process.env.CSSCTL_TEST_BIN;

const helperDir = mkdtempSync(join(tmpdir(), 'cssctl-load-'));
const helper = join(helperDir, 'load.mjs');
// A script file, not node -e: the node runs with no flags, as cssctl does (flags name a cache of their own).
writeFileSync(
  helper,
  `const { loadCli } = await import(process.argv[2]);
   const { cli, from } = loadCli({ save: false });
   if (typeof cli.run !== 'function' || typeof cli.main !== 'function') throw new Error('no CLI');
   process.stdout.write(from);`,
);
afterAll(() => rmSync(helperDir, { recursive: true, force: true }));

/** How bin/cssctl.cjs loads dist/cli.cjs in a fresh node with `env` and `args`; it writes no cache. */
function loadedFrom(env: Record<string, string>, args: string[] = [], bin = BIN): string {
  return execFileSync(process.execPath, [helper, bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
}

describe.skipIf(installedBin)(
  'the code cache of a first run',
  skipped(
    "they test the checkout's launcher, and this run is of another cssctl (CSSCTL_TEST_BIN)",
    'bash scripts/test test/e2e/code-cache.test.ts',
  ),
  () => {
    let world: World;
    let cache: string;
    const all = () => (existsSync(join(cache, 'cssctl')) ? readdirSync(join(cache, 'cssctl')).sort() : []);
    const files = () => all().filter((f) => f.endsWith('.cache'));
    const list = (env: Record<string, string> = {}) =>
      world.run(['connections', 'list', '--json'], { env: { XDG_CACHE_HOME: cache, ...env } });

    beforeAll(async () => {
      world = await World.start();
      await world.login();
    });
    afterAll(() => world.close());
    beforeEach(() => {
      cache = mkdtempSync(join(tmpdir(), 'cssctl-cache-'));
      return () => rmSync(cache, { recursive: true, force: true });
    });

    it('is written to $XDG_CACHE_HOME/cssctl on the first run and taken by the next', async () => {
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('source');
      const first = await list();
      expect(first.code, first.stderr).toBe(0);
      const [file, ...more] = files();
      expect(more).toEqual([]);
      expect(file).toMatch(
        new RegExp(
          `^cli-\\w{16}-${process.versions.v8.replace(/\./g, '\\.')}-${process.arch}-default\\.cache$`,
        ),
      );
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
      const second = await list();
      expect(second.stdout).toBe(first.stdout);
      // Without XDG_CACHE_HOME: ~/.cache/cssctl.
      const home = join(cache, 'home');
      expect(loadedFrom({ HOME: home })).toBe('source');
      await world.run(['connections', 'list', '--json'], { env: { XDG_CACHE_HOME: undefined, HOME: home } });
      expect(readdirSync(join(home, '.cache', 'cssctl')).filter((f) => f.endsWith('.cache'))).toHaveLength(1);
    });

    it('is also made and taken where `module` and `require` are globals (node -e), and dist/cli.cjs is still a module', () => {
      // node -e is a flag: its cache is its own.
      const run = () =>
        execFileSync(
          process.execPath,
          [
            '-e',
            `const direct = require(${JSON.stringify(BIN.replace(/bin[\\/]cssctl\.cjs$/, 'dist/cli.cjs'))});
           import(${JSON.stringify(BIN)}).then(({ loadCli }) => {
             const { cli, from } = loadCli();
             process.stdout.write([from, typeof cli.main, typeof direct.main].join(' '));
           });`,
          ],
          { encoding: 'utf8', env: { PATH: process.env.PATH, XDG_CACHE_HOME: cache } },
        );
      expect(run()).toBe('source function function');
      expect(run()).toBe('code cache function function');
    });

    it('other V8 flags get a cache of their own', async () => {
      await list();
      const flags = { NODE_OPTIONS: '--stack-trace-limit=20' };
      expect(loadedFrom({ XDG_CACHE_HOME: cache, ...flags })).toBe('source');
      await list(flags);
      expect(files()).toHaveLength(2);
      expect(loadedFrom({ XDG_CACHE_HOME: cache, ...flags })).toBe('code cache');
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
    });

    it('a cache of another V8 is never read; a damaged one is refused and replaced', async () => {
      await list();
      const [file] = files();
      const real = readFileSync(join(cache, 'cssctl', file!));
      // Another Node's cache beside it: its name never matches.
      const other = file!.replace(process.versions.v8, '1.2.3.4');
      writeFileSync(join(cache, 'cssctl', other), real);
      // This V8's name, another's content (V8 checks its version, flags and the source's length).
      const damaged = Buffer.from(real);
      damaged.fill(7, 0, 64);
      writeFileSync(join(cache, 'cssctl', file!), damaged);
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('source (code cache refused)');
      const res = await list();
      expect(res.code, res.stderr).toBe(0);
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
      expect(readFileSync(join(cache, 'cssctl', other))).toEqual(real);
    });

    it('a bundle of the same length from another build never meets this cache', async () => {
      // V8 would take it (it checks the source's length only); the build id on the first line keeps them apart.
      await list();
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-build-'));
      try {
        const root = join(BIN, '..', '..');
        cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
        cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
        cpSync(join(root, 'package.json'), join(dir, 'package.json'));
        const bundle = join(dir, 'dist', 'cli.cjs');
        const text = readFileSync(bundle, 'utf8');
        const other = text.replace(
          /^\/\*cssctl-build:(\w)/,
          (_m, c: string) => `/*cssctl-build:${c === '0' ? '1' : '0'}`,
        );
        expect(other.length).toBe(text.length);
        writeFileSync(bundle, other);
        expect(loadedFrom({ XDG_CACHE_HOME: cache }, [], join(dir, 'bin', 'cssctl.cjs'))).toBe('source');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('concurrent first runs all succeed and leave one whole cache, which the next run takes', async () => {
      const runs = await Promise.all(Array.from({ length: 6 }, () => list()));
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      expect(new Set(runs.map((r) => r.stdout)).size).toBe(1);
      expect(files()).toHaveLength(1);
      expect(all().filter((f) => f.endsWith('.tmp'))).toEqual([]); // no temporary file left behind
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
    });

    it('a cache folder that cannot be made or written costs nothing but the speed-up', async () => {
      const notAFolder = join(cache, 'file');
      writeFileSync(notAFolder, '');
      for (const place of ['/proc', notAFolder]) {
        const res = await list({ XDG_CACHE_HOME: place });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr).toBe('');
        expect(JSON.parse(res.stdout)).not.toHaveLength(0);
      }
    });

    it('a full disk: the write fails part-way, the command succeeds and no partial cache is left', async () => {
      // A file-size limit of 16 KiB stands in for a full disk (SIGXFSZ ignored, so the write fails with EFBIG).
      const script = `trap '' XFSZ; ulimit -f 32; exec "$0" "$@"`;
      const res = await runCli(
        ['-c', script, process.execPath, BIN, 'connections', 'list', '--json'],
        world.env,
        {
          command: 'sh',
          env: { XDG_CACHE_HOME: cache },
        },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout)).not.toHaveLength(0);
      expect(all()).toEqual([]);
    });

    it('a command the cache has not seen adds what it compiled, once', async () => {
      const run = (args: string[]) => world.run(args, { env: { XDG_CACHE_HOME: cache } });
      const state = () => {
        const [file] = files();
        const path = join(cache, 'cssctl', file!);
        return { bytes: readFileSync(path).length, commands: readFileSync(`${path}.commands`, 'utf8') };
      };
      await run(['config', 'path']);
      const first = state();
      expect(first.commands).toBe('config path');
      await run(['config', 'path', '--json']); // the same command: nothing written
      expect(state()).toEqual(first);
      const res = await list();
      expect(res.code, res.stderr).toBe(0);
      const second = state();
      expect(second.commands).toBe('config path\nconnections list');
      expect(second.bytes).toBeGreaterThan(first.bytes); // the HTTP stack, the formatter
      await list();
      expect(state()).toEqual(second);
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
    });

    it('a --jq command (which changes V8 flags for the moment it compiles jq) writes a cache the next run takes', async () => {
      // src/jq/here.ts raises V8's wasm tiering budget around compiling jq's WebAssembly and puts it back: a flag
      // left changed would give the cache written at exit a flag hash no other process has (refused every time).
      const res = await world.run(['connections', 'list', '--jq', '.[0].alias'], {
        env: { XDG_CACHE_HOME: cache },
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe('prod\n');
      expect(files()).toHaveLength(1);
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
      // And a --jq command run on a cache it did not write still reads it, and rewrites nothing.
      const [file] = files();
      const before = readFileSync(join(cache, 'cssctl', file!));
      await world.run(['connections', 'list', '--jq', 'length'], { env: { XDG_CACHE_HOME: cache } });
      expect(readFileSync(join(cache, 'cssctl', file!)).equals(before)).toBe(true);
      expect(loadedFrom({ XDG_CACHE_HOME: cache })).toBe('code cache');
    });

    it('--verbose requires the bundle, so stack traces go through its source map', () => {
      expect(loadedFrom({ XDG_CACHE_HOME: cache }, ['--verbose'])).toBe('require');
      expect(loadedFrom({ XDG_CACHE_HOME: cache, CSSCTL_DEBUG: '1' })).toBe('require');
    });

    it('a command prints the same from the cache, from source and under --verbose', async () => {
      const fresh = await list();
      const cached = await list();
      const verbose = await world.run(['connections', 'list', '--json', '--verbose'], {
        env: { XDG_CACHE_HOME: cache },
      });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(cached.stdout).toBe(fresh.stdout);
      expect(verbose.stdout).toBe(fresh.stdout);
    });
  },
);

describe.skipIf(installedBin)(
  'an export runs in a node started with the export settings',
  skipped(
    "they test the checkout's launcher, and this run is of another cssctl (CSSCTL_TEST_BIN)",
    'bash scripts/test test/e2e/code-cache.test.ts',
  ),
  () => {
    it('--all and --paginate relaunch with EXPORT_V8_FLAGS; other commands do not', async () => {
      const world = await World.start();
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-argv-'));
      try {
        await world.login();
        const report = join(dir, 'argv.txt');
        const preload = join(dir, 'preload.cjs');
        writeFileSync(
          preload,
          `process.on('exit', () => require('fs').appendFileSync(${JSON.stringify(report)},
           JSON.stringify(process.execArgv) + '\\n'));`,
        );
        const env = { NODE_OPTIONS: `--require ${preload}` };
        const plain = await world.run(['connections', 'list', '--json'], { env });
        expect(plain.code, plain.stderr).toBe(0);
        expect(readFileSync(report, 'utf8').trim().split('\n')).toEqual(['[]']);
        rmSync(report);
        const all = await world.run(['connections', 'list', '--all', '--json'], { env });
        expect(all.code, all.stderr).toBe(0);
        expect(JSON.parse(all.stdout)).toEqual(JSON.parse(plain.stdout));
        const { EXPORT_V8_FLAGS } = (await import(BIN)) as { EXPORT_V8_FLAGS: string[] };
        // The relaunched node (with the flags) and the one that started it, which exits after it.
        expect(
          readFileSync(report, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as string[]),
        ).toEqual([EXPORT_V8_FLAGS, []]);
        // Its exit code and output are the export's.
        const unreachable = {
          CSSCTL_BASE_URL: 'http://127.0.0.1:9',
          CSSCTL_TOKEN: 'x',
          CSSCTL_WORKSPACE: 'acme',
        };
        const bad = await world.run(['connections', 'list', '--all', '--json'], { env: unreachable });
        const direct = await world.run(['connections', 'list', '--json'], { env: unreachable });
        expect(bad.code).not.toBe(0);
        expect(bad.code).toBe(direct.code);
        expect(bad.stderr).toBe(direct.stderr);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await world.close();
      }
    });
  },
);
