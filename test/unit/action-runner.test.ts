// The Action's side of the runner's protocol (src/action/runner.ts) against @actions/core, GitHub's own toolkit:
// the same inputs read, the same masks printed, and outputs and state that the runner's parser reads back to the
// same values as what @actions/core writes.
import * as core from '@actions/core';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  appendFileCommand,
  keyValueEntry,
  maskCommand,
  maskCommands,
  readInput,
  readState,
} from '../../src/action/runner.js';
import { maskedLog, parseFileCommands } from '../helpers/runner-files.js';

let dir: string;
const saved = { ...process.env };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-runner-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

/** What @actions/core prints on stdout while `fn` runs. */
function printedBy(fn: () => void): string {
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    fn();
  } finally {
    vi.restoreAllMocks();
  }
  return printed.join('');
}

// Values that test the escaping and the heredoc form: line ends, `%`, `=`, `<<`, the delimiter's prefix.
const tricky = fc
  .array(
    fc.constantFrom(
      '%',
      '\r',
      '\n',
      '\r\n',
      '=',
      '<<',
      'ghadelimiter_',
      ':',
      ',',
      ' ',
      'é',
      '😀',
      'a',
      '0',
      '\t',
    ),
    { maxLength: 20 },
  )
  .map((a) => a.join(''));

describe('inputs and state', () => {
  it('reads an input as @actions/core getInput does: INPUT_ with the name upper-cased, a `-` kept, trimmed', () => {
    for (const [name, value] of [
      ['base-url', '  http://127.0.0.1:8787  '],
      ['scan-id', 'scn_1'],
      ['fail on', 'high'],
      ['missing', undefined],
    ] as const) {
      if (value !== undefined) process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
      expect(readInput(process.env, name)).toBe(core.getInput(name));
      expect(readInput(process.env, name, false)).toBe(core.getInput(name, { trimWhitespace: false }));
    }
    expect(readInput(process.env, 'base-url')).toBe('http://127.0.0.1:8787');
  });

  it('reads state as @actions/core getState does', () => {
    process.env['STATE_session-dir'] = '/tmp/x';
    expect(readState(process.env, 'session-dir')).toBe(core.getState('session-dir'));
    expect(readState(process.env, 'none')).toBe(core.getState('none'));
  });
});

describe('masks', () => {
  it('prints the same ::add-mask:: line as @actions/core setSecret, for any value', () => {
    fc.assert(
      fc.property(tricky, (secret) => {
        expect(maskCommand(secret)).toBe(printedBy(() => core.setSecret(secret)));
      }),
    );
  });

  it('masks a value on several lines whole and line by line, and an empty value not at all', () => {
    expect(maskCommands('')).toBe('');
    expect(maskCommands('   ')).toBe('');
    expect(maskCommands('pass word')).toBe('::add-mask::pass word\n');
    const log = maskedLog(`${maskCommands('first\r\nsecond')}first line\nthe second: second\n`);
    expect(log).not.toMatch(/first|second/);
    expect(log).toContain('*** line');
  });
});

describe('outputs and state files', () => {
  it('writes what the runner reads back as the value @actions/core setOutput and saveState give it', () => {
    fc.assert(
      fc.property(tricky, (value) => {
        const ours = join(dir, 'ours');
        const theirs = join(dir, 'theirs');
        writeFileSync(ours, '');
        writeFileSync(theirs, '');
        expect(
          appendFileCommand({ GITHUB_OUTPUT: ours }, 'OUTPUT', { gate: value, 'scan-id': 'scn_1' }),
        ).toBe(true);
        process.env.GITHUB_OUTPUT = theirs;
        core.setOutput('gate', value);
        core.setOutput('scan-id', 'scn_1');
        expect(parseFileCommands(readFileSync(ours, 'utf8'))).toEqual(
          parseFileCommands(readFileSync(theirs, 'utf8')),
        );
        expect(parseFileCommands(readFileSync(ours, 'utf8')).gate).toBe(value);

        writeFileSync(ours, '');
        writeFileSync(theirs, '');
        appendFileCommand({ GITHUB_STATE: ours }, 'STATE', { 'session-dir': value });
        process.env.GITHUB_STATE = theirs;
        core.saveState('session-dir', value);
        expect(parseFileCommands(readFileSync(ours, 'utf8'))).toEqual(
          parseFileCommands(readFileSync(theirs, 'utf8')),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('appends: what earlier steps and writes left stays', () => {
    const file = join(dir, 'output');
    writeFileSync(file, 'earlier=step\n');
    appendFileCommand({ GITHUB_OUTPUT: file }, 'OUTPUT', { a: '1' });
    appendFileCommand({ GITHUB_OUTPUT: file }, 'OUTPUT', { b: '2\n3' });
    expect(parseFileCommands(readFileSync(file, 'utf8'))).toEqual({ earlier: 'step', a: '1', b: '2\n3' });
  });

  it('writes nothing where no runner named a file', () => {
    expect(appendFileCommand({}, 'OUTPUT', { a: '1' })).toBe(false);
  });

  it('refuses a value that holds its delimiter, which would end the entry early', () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    expect(() => keyValueEntry('a', `x\nghadelimiter_${uuid}\ny`, uuid)).toThrow(/delimiter/);
    expect(parseFileCommands(keyValueEntry('a', 'x\ny', uuid))).toEqual({ a: 'x\ny' });
  });
});
