import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IO, type IOOptions } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

interface Make extends Partial<IOOptions> {
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** The width a TTY stderr reports (80 unless given; `null`: none reported). */
  stderrColumns?: number | null;
}

/** A stderr that can claim to be a terminal, with the cursor calls ora makes of a tty.WriteStream. */
class TtyCollect extends Collect {
  columns?: number;
  cursorTo(x: number): boolean {
    return this.write(`\u001b[${x + 1}G`);
  }
  moveCursor(dx: number, dy: number): boolean {
    return this.write(`\u001b[${dy}A${dx}`);
  }
  clearLine(): boolean {
    return this.write('\u001b[2K');
  }
}

function makeIO(o: Make = {}) {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (o.stdinTTY) stdin.isTTY = true;
  const stdout = new Collect(o.stdoutTTY);
  const stderr = new TtyCollect(o.stderrTTY);
  if (o.stderrTTY && o.stderrColumns !== null) stderr.columns = o.stderrColumns ?? 80;
  const io = new IO(
    { stdin, stdout, stderr },
    { env: o.env ?? {}, quiet: o.quiet, verbose: o.verbose, noColorFlag: o.noColorFlag },
  );
  return { io, stdout, stderr };
}

const secretArb = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'.split('')),
  minLength: 4,
  maxLength: 40,
});

describe('IO redaction', () => {
  it('a registered secret never appears in anything written to stderr', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.string(),
        fc.string(),
        fc.constantFrom('writeErr', 'notice', 'warn', 'debug', 'hint') as fc.Arbitrary<
          'writeErr' | 'notice' | 'warn' | 'debug' | 'hint'
        >,
        fc.boolean(),
        (secret, before, after, method, tty) => {
          const { io, stderr } = makeIO({ verbose: true, stderrTTY: tty });
          io.addSecret(secret);
          io[method](`${before}${secret}${after}${secret}`);
          expect(stderr.text).not.toContain(secret);
          expect(stderr.text).toContain('[REDACTED]');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('several secrets are all redacted', () => {
    const { io, stderr } = makeIO({ verbose: true });
    io.addSecret('access-token-123');
    io.addSecret('refresh-token-456');
    io.addSecret('hunter2pass');
    io.warn('tokens access-token-123 and refresh-token-456, password hunter2pass');
    io.debug('Authorization: Bearer access-token-123');
    io.notice('again refresh-token-456');
    expect(stderr.text).not.toMatch(/access-token-123|refresh-token-456|hunter2pass/);
    expect(stderr.text.match(/\[REDACTED\]/g)).toHaveLength(5);
  });

  it('redacts a secret inside text that also gets coloured', () => {
    const { io, stderr } = makeIO({ verbose: true, env: { FORCE_COLOR: '1' }, stderrTTY: true });
    io.addSecret('s3cr3t-value');
    io.debug('token=s3cr3t-value');
    io.hint('use s3cr3t-value');
    io.warn('s3cr3t-value');
    expect(stderr.text).toContain('\u001b[');
    expect(stderr.text).not.toContain('s3cr3t-value');
  });

  it('ignores empty and very short values (they would blank out ordinary text)', () => {
    const { io, stderr } = makeIO();
    io.addSecret(undefined);
    io.addSecret('');
    io.addSecret('a');
    io.notice('a cat sat');
    expect(stderr.text).toBe('a cat sat\n');
  });

  it('stdout (data) is not redacted, stderr is', () => {
    const { io, stdout, stderr } = makeIO();
    io.addSecret('printed-token');
    io.out('printed-token\n');
    io.writeErr('printed-token');
    expect(stdout.text).toBe('printed-token\n');
    expect(stderr.text).toBe('[REDACTED]\n');
  });

  it('writeErr ends every message with exactly one newline', () => {
    const { io, stderr } = makeIO();
    io.writeErr('one');
    io.writeErr('two\n');
    expect(stderr.text).toBe('one\ntwo\n');
  });
});

describe('IO quiet and verbose', () => {
  it('quiet suppresses notice and hint but not warn or writeErr', () => {
    const { io, stderr } = makeIO({ quiet: true });
    io.notice('a notice');
    io.hint('a hint');
    io.warn('a warning');
    io.writeErr('error: boom');
    expect(stderr.text).not.toContain('a notice');
    expect(stderr.text).not.toContain('a hint');
    expect(stderr.text).toContain('warning: a warning');
    expect(stderr.text).toContain('error: boom');
  });

  it('without quiet, notice and hint go to stderr, never stdout', () => {
    const { io, stdout, stderr } = makeIO();
    io.notice('a notice');
    io.hint('a hint');
    expect(stderr.text).toBe('a notice\na hint\n');
    expect(stdout.text).toBe('');
  });

  it('debug prints only with verbose', () => {
    const quietly = makeIO();
    quietly.io.debug('GET /x 200');
    expect(quietly.stderr.text).toBe('');
    const loud = makeIO({ verbose: true });
    loud.io.debug('GET /x 200');
    expect(loud.stderr.text).toBe('GET /x 200\n');
  });

  it('warn is prefixed with "warning:"', () => {
    const { io, stderr } = makeIO();
    io.warn('careful');
    expect(stderr.text).toBe('warning: careful\n');
  });
});

describe('IO terminals', () => {
  it('spinners only on a TTY stderr, not quiet, not CI', () => {
    expect(makeIO({ stderrTTY: true }).io.spinnersEnabled).toBe(true);
    expect(makeIO({ stderrTTY: false }).io.spinnersEnabled).toBe(false);
    expect(makeIO({ stderrTTY: true, quiet: true }).io.spinnersEnabled).toBe(false);
    expect(makeIO({ stderrTTY: true, env: { CI: 'true' } }).io.spinnersEnabled).toBe(false);
    expect(makeIO({ stderrTTY: true, env: { CI: '1' } }).io.spinnersEnabled).toBe(false);
    // stdout being a terminal does not matter: spinners live on stderr.
    expect(makeIO({ stdoutTTY: true, stderrTTY: false }).io.spinnersEnabled).toBe(false);
  });

  it('CI=false or CI=0 is not CI', () => {
    expect(makeIO({ stderrTTY: true, env: { CI: 'false' } }).io.spinnersEnabled).toBe(true);
    expect(makeIO({ stderrTTY: true, env: { CI: '0' } }).io.spinnersEnabled).toBe(true);
  });

  it('spinners need a terminal at least 20 columns wide: 0, 19, none or NaN reported is off', () => {
    expect(makeIO({ stderrTTY: true, stderrColumns: 20 }).io.spinnersEnabled).toBe(true);
    for (const stderrColumns of [0, 19, null, Number.NaN]) {
      expect(makeIO({ stderrTTY: true, stderrColumns }).io.spinnersEnabled, String(stderrColumns)).toBe(
        false,
      );
    }
  });

  it('a 0-column terminal gets no spinner at all: nothing written, ora never asked', async () => {
    const { io, stderr } = makeIO({ stderrTTY: true, stderrColumns: 0 });
    const s = await io.spinner('waiting');
    s.update('still waiting');
    await new Promise((r) => setTimeout(r, 200));
    s.stop();
    expect(stderr.text).toBe('');
  });

  describe('a terminal narrowed while a spinner spins', () => {
    // ora draws only where is-interactive says so: a TTY, TERM not dumb, no CI variable.
    const saved = { CI: process.env.CI, TERM: process.env.TERM };
    beforeEach(() => {
      delete process.env.CI;
      process.env.TERM = 'xterm';
    });
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    it.each([
      ['a resize event', true],
      ['the next update', false],
    ])('to 0 columns stops it on %s, and nothing more is written', async (_how, resize) => {
      const { io, stderr } = makeIO({ stderrTTY: true, stderrColumns: 80 });
      const s = await io.spinner('waiting');
      await new Promise((r) => setTimeout(r, 100));
      expect(stderr.text).toContain('waiting');
      stderr.columns = 0;
      if (resize) stderr.emit('resize');
      else s.update('still waiting');
      const after = stderr.text.length;
      await new Promise((r) => setTimeout(r, 300)); // several of ora's 80 ms frames
      s.update('and again');
      s.stop();
      expect(stderr.text.length).toBe(after);
      expect(stderr.listenerCount('resize')).toBe(0);
    });
  });

  it('a disabled spinner writes nothing', async () => {
    const { io, stderr } = makeIO({ stderrTTY: false });
    const s = await io.spinner('waiting');
    s.update('still waiting');
    s.stop();
    expect(stderr.text).toBe('');
  });

  it('canPrompt needs both stdin and stderr to be terminals', () => {
    expect(makeIO({ stdinTTY: true, stderrTTY: true }).io.canPrompt).toBe(true);
    expect(makeIO({ stdinTTY: false, stderrTTY: true }).io.canPrompt).toBe(false);
    expect(makeIO({ stdinTTY: true, stderrTTY: false }).io.canPrompt).toBe(false);
    expect(makeIO({ stdinTTY: false, stderrTTY: false, stdoutTTY: true }).io.canPrompt).toBe(false);
  });

  it('stdoutIsTTY reflects stdout', () => {
    expect(makeIO({ stdoutTTY: true }).io.stdoutIsTTY).toBe(true);
    expect(makeIO({ stdoutTTY: false, stderrTTY: true }).io.stdoutIsTTY).toBe(false);
  });

  it('colour for stderr follows stderr, colour for stdout follows stdout', () => {
    const { io } = makeIO({ stdoutTTY: false, stderrTTY: true });
    expect(io.color.level).toBe(0);
    expect(io.errColor.level).toBeGreaterThan(0);
    const other = makeIO({ stdoutTTY: true, stderrTTY: false }).io;
    expect(other.color.level).toBeGreaterThan(0);
    expect(other.errColor.level).toBe(0);
  });

  it('--no-color beats FORCE_COLOR; FORCE_COLOR beats NO_COLOR; NO_COLOR beats a TTY', () => {
    expect(makeIO({ noColorFlag: true, env: { FORCE_COLOR: '1' }, stdoutTTY: true }).io.color.level).toBe(0);
    expect(makeIO({ env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).io.color.level).toBeGreaterThan(0);
    expect(makeIO({ env: { NO_COLOR: '1' }, stdoutTTY: true }).io.color.level).toBe(0);
    expect(makeIO({ env: {}, stdoutTTY: true }).io.color.level).toBeGreaterThan(0);
    expect(makeIO({ env: {}, stdoutTTY: false }).io.color.level).toBe(0);
  });

  it('warn is coloured on a colour stderr and plain otherwise', () => {
    const plain = makeIO();
    plain.io.warn('x');
    expect(plain.stderr.text).not.toContain('\u001b');
    const coloured = makeIO({ stderrTTY: true });
    coloured.io.warn('x');
    expect(coloured.stderr.text).toContain('\u001b[33m');
  });
});
