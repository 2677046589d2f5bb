// bin/cssctl.js answers --version and --help from dist/help.json (scripts/gen-help.mjs) without loading
// the CLI. These tests fail when that file parts ways with what commander itself prints.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { BIN } from './harness.js';

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

/** Every command path of the tree, from the sources. */
function commandPaths(): string[][] {
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
  const program = buildProgram(io, () => {
    throw new Error('no command runs here');
  });
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

describe('bin/cssctl.js answers early', () => {
  const run = (args: string[]) =>
    execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH } });

  it('--version and --help print what the CLI would', async () => {
    expect(run(['--version'])).toBe(`${pkg.version}\n`);
    expect(run(['--help'])).toBe(await commanderHelp(['--help']));
    expect(run(['connections', 'list', '-h'])).toBe(await commanderHelp(['connections', 'list', '--help']));
  });

  it('what it has no answer for goes to the CLI, with the same text (options before --help)', async () => {
    expect(run(['--json', 'connections', '--help'])).toBe(
      await commanderHelp(['--json', 'connections', '--help']),
    );
  });
});
