// `cssctl help <words>` names and suggests only the commands --help lists: a hidden command (commander's
// `{ hidden: true }`, such as `__complete`) is never offered, read through commander's public Help API.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { routeHelp } from '../../src/help/command.js';

function program(): Command {
  const p = new Command('cssctl');
  const scans = p.command('scans');
  scans.command('wait');
  scans.command('list');
  scans.command('waitall', { hidden: true });
  p.command('__complete', { hidden: true });
  const internal = p.command('internal', { hidden: true });
  internal.command('dump', { hidden: true });
  return p;
}

function refused(words: string[]): string {
  try {
    routeHelp(program(), words);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return `${(err as UsageError).message} | ${(err as UsageError).hint}`;
  }
  throw new Error(`${words.join(' ')} was accepted`);
}

describe('help <command>: hidden commands', () => {
  it('a hidden command is still routed when named in full', () => {
    expect(routeHelp(program(), ['scans', 'waitall'])).toEqual({ command: ['scans', 'waitall'] });
  });

  it('is neither listed nor suggested under a noun', () => {
    const msg = refused(['scans', 'waital']);
    expect(msg).toMatch(/\(commands: wait, list\)/);
    expect(msg).not.toMatch(/waitall/);
  });

  it('is neither listed nor suggested at the top', () => {
    const msg = refused(['__complet']);
    expect(msg).not.toMatch(/__complete|internal/);
    expect(msg).toMatch(/no help topic or command "__complet"/);
  });

  it('a noun whose commands are all hidden has none to offer', () => {
    expect(refused(['internal', 'dum'])).toMatch(
      /^cssctl internal has no command "dum" \| cssctl help internal$/,
    );
  });
});
