// Every command's --help ends with two or three examples (issue 21, as gh does), both as bin/cssctl.cjs
// answers it (dist/help.json) and as commander prints it; and every example names a command of the tree.
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { EXAMPLES } from '../../src/commands/examples.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { runCli } from './harness.js';

const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
const program = buildProgram(io, () => {
  throw new Error('no command runs here');
});
const hidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;
const paths: string[][] = [];
(function walk(cmd: Command, path: string[]) {
  paths.push(path);
  for (const c of cmd.commands) if (!hidden(c)) walk(c, [...path, c.name()]);
})(program, []);

/** The command path an example runs: the words after `cssctl` that name commands. */
function commandOf(example: string): string[] {
  const words = example.slice(example.indexOf('cssctl ') + 7).split(/\s+/);
  const path: string[] = [];
  let cmd: Command | undefined = program;
  for (const word of words) {
    const w = word.replace(/[)"']+$/, ''); // the end of $(cssctl auth token)
    const next: Command | undefined = cmd?.commands.find((c) => c.name() === w);
    if (!next) break;
    path.push(w);
    cmd = next;
  }
  return path;
}

describe('--help ends with examples', () => {
  it.each(paths.map((p) => [p.join(' ') || '(cssctl)', p] as const))(
    'cssctl %s --help',
    async (_name, path) => {
      const res = await runCli([...path, '--help'], { PATH: process.env.PATH });
      expect(res.code).toBe(0);
      const tail = res.stdout.trimEnd().split('\n');
      const at = tail.lastIndexOf('Examples:');
      expect(at, `add examples for "cssctl ${path.join(' ')}" to src/commands/examples.ts`).toBeGreaterThan(
        0,
      );
      const examples = tail.slice(at + 1);
      expect(examples.length).toBeGreaterThanOrEqual(path.length === 0 ? 2 : 1);
      expect(examples.length).toBeLessThanOrEqual(3);
      for (const e of examples) expect(e).toMatch(/^ {2}\$ .*cssctl /);
    },
  );

  it('every example runs a command of the tree, the one it documents or one below it', () => {
    for (const [path, examples] of Object.entries(EXAMPLES)) {
      expect(paths.map((p) => p.join(' '))).toContain(path);
      for (const e of examples) {
        const ran = commandOf(e).join(' ');
        expect(ran, e).not.toBe('');
        expect(`${ran} `.startsWith(path ? `${path} ` : ''), `${path}: ${e}`).toBe(true);
      }
    }
  });
});
