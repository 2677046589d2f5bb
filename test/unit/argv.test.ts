// The one tokenizer of argv (bin/argv.cjs) that the launcher and the CLI share before commander parses: which
// command is asked for, and the flags that shape an error. Checked against commander itself: for every argv
// below, the words the tokenizer finds are the ones commander leaves as operands of the program.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, joinPairs, tokenize } from '../../bin/argv.cjs';

/** What commander itself makes of argv with the same global options: the operands and the option values. */
function commanderReads(argv: string[]) {
  const program = new Command('cssctl').exitOverride().allowUnknownOption().allowExcessArguments();
  for (const o of GLOBAL_OPTIONS) program.addOption(new Option(o.flags, o.description));
  const { operands } = program.parseOptions(joinPairs(argv).argv ?? argv);
  return operands;
}

describe('tokenize', () => {
  it.each([
    [
      ['--profile', 'diff', 'findings', 'list'],
      ['findings', 'list'],
    ],
    [
      ['-w', 'acme', 'scans', 'wait', 'scn_1'],
      ['scans', 'wait', 'scn_1'],
    ],
    [
      ['-wacme', 'scans', 'list'],
      ['scans', 'list'],
    ],
    [
      ['-qo', 'json', 'connections', 'list'],
      ['connections', 'list'],
    ],
    [
      ['-ojson', 'connections', 'list'],
      ['connections', 'list'],
    ],
    [
      ['--output=json', 'api', '/x'],
      ['api', '/x'],
    ],
    [
      ['--jq', '.[]', '--arg', 'a', 'b', 'findings', 'list'],
      ['findings', 'list'],
    ],
    [
      ['--timeout', '5', '--no-color', 'auth', 'status'],
      ['auth', 'status'],
    ],
    [
      ['help', 'scans', 'wait'],
      ['help', 'scans', 'wait'],
    ],
    [
      ['api', '/findings', '--', '--all'],
      ['api', '/findings'],
    ],
  ])('%j: the words commander leaves as operands', (argv, words) => {
    expect(tokenize(argv).words.map((w) => w.word)).toEqual(words);
    // Up to `--`, commander agrees.
    expect(commanderReads(argv).slice(0, words.length)).toEqual(words);
  });

  it('reads the flags that shape an error: output, quiet, verbose, json, jq, no-color', () => {
    const { flags } = tokenize(['-qo', 'ndjson', '--verbose', 'x', '--no-color', '--jq=.a']);
    expect(flags.get('output')).toEqual(['ndjson']);
    expect(flags.has('quiet')).toBe(true);
    expect(flags.has('verbose')).toBe(true);
    expect(flags.has('no-color')).toBe(true);
    expect(flags.get('jq')).toEqual(['.a']);
    // A subcommand's own option is a switch to the tokenizer; nothing after -- is read.
    expect(tokenize(['findings', 'list', '--all', '--', '-o', 'json']).flags.has('output')).toBe(false);
    expect(tokenize(['findings', 'list', '--all']).flags.has('all')).toBe(true);
  });

  it('joins the two values of --arg and --argjson for commander, and says which one lacks a value', () => {
    expect(joinPairs(['--arg', 'a', 'b', '--argjson', 'n', '1']).argv).toEqual([
      '--arg',
      'a\u0000b',
      '--argjson',
      'n\u00001',
    ]);
    expect(joinPairs(['--jq', '.', '--argjson', 'n']).missing).toBe('--argjson');
    expect(tokenize(['--arg', 'a']).short).toEqual(['arg']);
  });
});
