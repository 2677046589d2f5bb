import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { ProgressLine, progressOf, type ProgressClock } from '../../src/core/progress.js';
import { Collect } from '../helpers/streams.js';

function makeIO(o: { columns?: number; tty?: boolean; quiet?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const stderr = new Collect(o.tty ?? true) as Collect & { columns?: number };
  stderr.columns = o.columns ?? 80;
  const io = new IO(
    { stdin: new PassThrough(), stdout: new Collect(), stderr },
    { env: o.env ?? { NO_COLOR: '1' }, quiet: o.quiet },
  );
  return { io, stderr };
}

class FakeClock implements ProgressClock {
  t = 0;
  timers: (() => void)[] = [];
  now = () => this.t;
  setInterval = (fn: () => void) => {
    this.timers.push(fn);
    return this.timers.length;
  };
  clearInterval = () => {
    this.timers = [];
  };
  tick(ms: number) {
    this.t += ms;
    for (const f of this.timers) f();
  }
}

describe('progress line', () => {
  it('only on a terminal of 20 columns or more, never with --quiet or CI=true', () => {
    expect(progressOf(makeIO().io)).toBeInstanceOf(ProgressLine);
    expect(progressOf(makeIO({ columns: 19 }).io)).toBeUndefined();
    expect(progressOf(makeIO({ columns: 0 }).io)).toBeUndefined();
    expect(progressOf(makeIO({ tty: false }).io)).toBeUndefined();
    expect(progressOf(makeIO({ quiet: true }).io)).toBeUndefined();
    expect(progressOf(makeIO({ env: { CI: 'true' } }).io)).toBeUndefined();
  });

  it('items of the total, rate and time left, in place; not before 250 ms; cleared by a message and at the end', async () => {
    const { io, stderr } = makeIO();
    const clock = new FakeClock();
    const p = new ProgressLine(io, clock);
    io.progress = p;
    p.begin('Reading', 0);
    clock.t = 100;
    p.update(100, 1000);
    expect(stderr.text).toBe(''); // too soon: a quick read never shows a line
    clock.t = 1000;
    p.update(500, 1000);
    expect(stderr.text).toBe('\rReading: 500 of 1,000 (50%) · 500/s · 1s left\u001b[K');
    clock.t = 1050;
    p.update(600, 1000); // within 100 ms of the last draw: not redrawn
    expect(stderr.chunks).toHaveLength(1);
    io.warn('something');
    expect(stderr.chunks.slice(1, 3)).toEqual(['\r\u001b[K', 'warning: something\n']);
    clock.t = 2000;
    p.update(800, 1000);
    expect(stderr.chunks.at(-1)).toContain('Reading: 800 of 1,000 (80%) · 400/s · 1s left');
    await io.finishOutput();
    expect(stderr.chunks.at(-1)).toBe('\r\u001b[K');
    expect(p.active).toBe(false);
  });

  it('a rate-limit wait is a countdown, redrawn each second, gone at the next page', () => {
    const { io, stderr } = makeIO();
    const clock = new FakeClock();
    const p = new ProgressLine(io, clock);
    p.begin('Reading', 0);
    clock.t = 500;
    p.update(100, 400);
    p.wait(3000);
    expect(stderr.chunks.at(-1)).toContain('Reading: 100 of 400 (25%) · rate limited, resuming in 3s');
    clock.tick(1000);
    expect(stderr.chunks.at(-1)).toContain('resuming in 2s');
    clock.tick(1000);
    expect(stderr.chunks.at(-1)).toContain('resuming in 1s');
    clock.t += 1000;
    p.update(200, 400);
    expect(stderr.chunks.at(-1)).not.toContain('rate limited');
    expect(clock.timers).toHaveLength(0);
  });

  it('fits the terminal: cut with … to its width', () => {
    const { io, stderr } = makeIO({ columns: 24 });
    const clock = new FakeClock();
    const p = new ProgressLine(io, clock);
    p.begin('high findings', 0);
    clock.t = 1000;
    p.update(12345, 99999);
    // eslint-disable-next-line no-control-regex
    const drawn = stderr.text.replace(/\r|\u001b\[K/g, '');
    expect(drawn.length).toBe(23);
    expect(drawn.endsWith('…')).toBe(true);
  });
});
