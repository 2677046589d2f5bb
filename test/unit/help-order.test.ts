// A command's help lists its subcommands before the options (issue 28 #21): `cssctl findings --help` leads with
// its verbs, not with the global options every command shares.
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandsFirst } from '../../src/cli.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
const program = buildProgram(io, () => {
  throw new Error('no command runs here');
});
const all: Command[] = [];
(function walk(cmd: Command) {
  all.push(cmd);
  cmd.commands.forEach(walk);
})(program);

describe('help: commands first', () => {
  it('every command with subcommands lists them before its options and the global options', () => {
    const nouns = all.filter((c) => c.commands.some((s) => !(s as unknown as { _hidden?: boolean })._hidden));
    expect(nouns.map((c) => c.name())).toEqual(
      expect.arrayContaining(['cssctl', 'findings', 'scans', 'webhooks']),
    );
    for (const c of nouns) {
      const text = c.helpInformation();
      const commands = text.indexOf('\nCommands:\n');
      expect(commands, c.name()).toBeGreaterThan(0);
      expect(commands, c.name()).toBeLessThan(text.indexOf('\nOptions:\n'));
      const globals = text.indexOf('\nGlobal Options:\n');
      if (globals >= 0) expect(commands, c.name()).toBeLessThan(globals);
    }
    const findings = all.find((c) => c.name() === 'findings')!.helpInformation();
    expect(findings.split('\n').slice(4, 6)).toStrictEqual([
      'Commands:',
      expect.stringMatching(/^ {2}list \[options\]/),
    ]);
  });

  it('a command without subcommands is as commander writes it; the text moves whole', () => {
    const list = all.find((c) => c.name() === 'list' && c.parent?.name() === 'findings')!;
    expect(list.helpInformation()).toMatch(/^Usage: cssctl findings list \[options\]\n\n.*\n\nOptions:\n/);
    const text =
      'Usage: x\n\nabout x\n\nArguments:\n  a  an a\n\nOptions:\n  -h  help\n\nCommands:\n  y  a y\n  z  a z\n';
    expect(commandsFirst(text)).toBe(
      'Usage: x\n\nabout x\n\nCommands:\n  y  a y\n  z  a z\n\nArguments:\n  a  an a\n\nOptions:\n  -h  help\n',
    );
    expect(commandsFirst('Usage: x\n\nOptions:\n  -h  help\n')).toBe('Usage: x\n\nOptions:\n  -h  help\n');
  });

  it("no option is listed twice: a parent option the command declares itself is the command's only", () => {
    for (const c of all) {
      const flags = c
        .helpInformation()
        .split('\n')
        .map((line) => /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line)?.[1])
        .filter(Boolean);
      expect(flags, c.name()).toStrictEqual([...new Set(flags)]);
    }
    const config = all.find((c) => c.name() === 'config' && c.parent?.name() === 'mcp')!;
    expect(config.helpInformation()).toMatch(/--allow-write +register the server with --allow-write/);
  });
});
