// bin/cssctl.cjs answers --version and --help from dist/help.json (scripts/gen-help.mjs) without loading
// the CLI. These tests fail when that file parts ways with what commander itself prints. The rest of the file
// checks what else start-up leaves out: the part of the command tree a command needs, and the built-in modules
// a request needs (the code cache: test/e2e/code-cache.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { BIN, cliSpawn, World } from './harness.js';

interface HelpFile {
  version: string;
  width: number;
  help: Record<string, { text: string; wide: string; wideFrom: number }>;
}

const helpFile = JSON.parse(
  readFileSync(new URL('../../dist/help.json', import.meta.url), 'utf8'),
) as HelpFile;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The command tree from the sources: the whole of it, or what `argv` needs. */
function tree(argv?: string[]): Command {
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
  return buildProgram(
    io,
    () => {
      throw new Error('no command runs here');
    },
    {},
    argv,
  );
}

/** Every command path of the tree, from the sources. */
function commandPaths(): string[][] {
  const program = tree();
  const paths: string[][] = [];
  const walk = (cmd: Command, path: string[]) => {
    paths.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return paths;
}

/** What commander prints for `cssctl <argv>` in-process, on a pipe or on a terminal of `columns`. */
async function commanderHelp(argv: string[], columns?: number): Promise<string> {
  const stdout = new Collect(columns !== undefined) as Collect & { columns?: number };
  if (columns !== undefined) stdout.columns = columns;
  const stderr = new Collect();
  const code = await main({ argv, env: {}, streams: { stdin: new PassThrough(), stdout, stderr } });
  expect(code, stderr.text).toBe(0);
  return stdout.text;
}

describe('dist/help.json matches commander', () => {
  it('holds every command of the tree, and nothing else', () => {
    const paths = commandPaths().map((p) => p.join(' '));
    expect(paths.length).toBeGreaterThan(10);
    expect(Object.keys(helpFile.help).sort()).toEqual(paths.sort());
  });

  it('each text is what commander prints on a pipe, and (wide) on a terminal at least wideFrom wide', async () => {
    for (const path of commandPaths()) {
      const entry = helpFile.help[path.join(' ')]!;
      expect(entry.text, path.join(' ')).toBe(await commanderHelp([...path, '--help']));
      expect(entry.text, path.join(' ')).toBe(await commanderHelp([...path, '-h'], helpFile.width));
      expect(entry.wide, path.join(' ')).toBe(await commanderHelp([...path, '--help'], entry.wideFrom));
      expect(entry.wide, path.join(' ')).toBe(await commanderHelp([...path, '--help'], 300));
    }
  });

  it('the version is the package version', () => {
    expect(helpFile.version).toBe(pkg.version); // the sources say 0.0.0-dev: the build sets the version
  });
});

describe('bin/cssctl.cjs answers early', () => {
  const run = (args: string[]) =>
    execFileSync(...cliSpawn(args), { encoding: 'utf8', env: { PATH: process.env.PATH } });

  it('--version and --help print what the CLI would', async () => {
    expect(run(['--version'])).toBe(`${pkg.version}\n`);
    expect(run(['--help'])).toBe(await commanderHelp(['--help']));
    expect(run(['connections', 'list', '-h'])).toBe(await commanderHelp(['connections', 'list', '--help']));
  });

  it('what it has no answer for goes to the CLI, with the same text (options before --help)', async () => {
    expect(run(['--json', 'connections', '--help'])).toBe(
      await commanderHelp(['--json', 'connections', '--help']),
    );
    // A word that names a property of every object is no entry of help.json (it printed "cannot write output").
    for (const word of ['constructor', '__proto__'])
      expect(run([word, '--help'])).toBe(await commanderHelp([word, '--help']));
  });
});

describe('start-up builds the part of the command tree a command needs', () => {
  const top = (argv?: string[]) => tree(argv).commands.map((c) => c.name());
  const always = ['completion', '__complete'];

  it('a command word builds its own noun (or top-level verbs) and nothing else', () => {
    expect(top(['connections', 'list', '--json'])).toEqual(['connections', ...always]);
    expect(top(['--profile', 'p', '-o', 'json', 'scans', 'list'])).toEqual(['scans', ...always]);
    expect(top(['logout'])).toEqual(['login', 'logout', 'auth', ...always]);
    // Each word of the whole tree builds a tree that has it, with the same subcommands.
    const whole = tree();
    for (const cmd of whole.commands) {
      const part = tree([cmd.name()]).commands.find((c) => c.name() === cmd.name());
      expect(part, cmd.name()).toBeDefined();
      expect(part!.commands.map((c) => c.name())).toEqual(cmd.commands.map((c) => c.name()));
    }
  });

  it('no word, help, completion, an unknown word or one after -- builds the whole tree', () => {
    const all = top();
    expect(all.length).toBeGreaterThan(8);
    for (const argv of [
      [],
      ['--json'],
      ['help', 'scans'],
      ['completion', 'bash'],
      ['conections'],
      ['--', 'scans'],
    ])
      expect(top(argv), argv.join(' ')).toEqual(all);
  });

  it('a mistyped verb is still offered its siblings', async () => {
    const stderr = new Collect();
    const code = await main({
      argv: ['connections', 'lsit'],
      env: {},
      streams: { stdin: new PassThrough(), stdout: new Collect(), stderr },
    });
    expect(code).toBe(2);
    expect(stderr.text).toMatch(/Did you mean list\?/);
  });
});

describe('a request loads the built-in modules it uses, and no others', () => {
  it('connections list --json loads neither node:http, node:assert nor node:crypto', async () => {
    const world = await World.start();
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-modules-'));
    try {
      await world.login();
      const report = join(dir, 'modules.txt');
      const preload = join(dir, 'preload.cjs');
      writeFileSync(
        preload,
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)},
           process.moduleLoadList.join('\\n')));`,
      );
      // The single executable reads no NODE_OPTIONS; it takes Node's flags as its first argument.
      const exe = !/\.[cm]?js$/.test(BIN);
      const res = exe
        ? await world.run([`--node-options=--require ${preload}`, 'connections', 'list', '--json'])
        : await world.run(['connections', 'list', '--json'], {
            env: { NODE_OPTIONS: `--require ${preload}` },
          });
      expect(res.code, res.stderr).toBe(0);
      const loaded = readFileSync(report, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule net'); // the request went out through undici
      for (const m of ['http', '_http_client', 'assert', 'crypto'])
        expect(loaded, m).not.toContain(`NativeModule ${m}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await world.close();
    }
  });
});
