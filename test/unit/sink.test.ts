import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/core/errors.js';
import { CHUNK_CHARS, OutputSink, isBrokenPipe, writeError } from '../../src/core/sink.js';

/** A writable that records each write; `slow` holds every write back until `release()`. */
class Recorder extends Writable {
  writes: string[] = [];
  private held: (() => void)[] = [];
  constructor(private readonly opts: { slow?: boolean; failWith?: string; highWaterMark?: number } = {}) {
    super({ highWaterMark: opts.highWaterMark ?? 16 * 1024, decodeStrings: false });
  }
  override _write(chunk: string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.opts.failWith) {
      cb(Object.assign(new Error(`write failed: ${this.opts.failWith}`), { code: this.opts.failWith }));
      return;
    }
    this.writes.push(String(chunk));
    if (this.opts.slow) this.held.push(() => cb());
    else cb();
  }
  release(): void {
    const held = this.held;
    this.held = [];
    for (const cb of held) cb();
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('OutputSink', () => {
  it('gathers batched text into writes of at least 64 KiB', () => {
    const rec = new Recorder();
    const sink = new OutputSink(rec);
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 2000; i++) sink.batched(line); // 200,000 characters
    sink.flush();
    expect(rec.writes.join('')).toBe(line.repeat(2000));
    expect(rec.writes.length).toBe(4); // 3 full chunks and the rest, not 2,000 writes
    expect(rec.writes[0]!.length).toBeGreaterThanOrEqual(CHUNK_CHARS);
  });

  it('hands over what it holds once the producer goes idle (streamed, not held to the end)', async () => {
    const rec = new Recorder();
    const sink = new OutputSink(rec);
    sink.batched('one\n');
    sink.batched('two\n');
    expect(rec.writes).toEqual([]);
    await tick();
    expect(rec.writes).toEqual(['one\ntwo\n']);
  });

  it('write() keeps order with what was batched before it', () => {
    const rec = new Recorder();
    const sink = new OutputSink(rec);
    sink.batched('a');
    sink.write('b');
    expect(rec.writes.join('')).toBe('ab');
  });

  it('ready() waits for drain while the stream is full (backpressure), then resolves', async () => {
    const rec = new Recorder({ slow: true, highWaterMark: 1024 });
    const sink = new OutputSink(rec);
    expect(sink.ready()).toBeUndefined();
    sink.batched('y'.repeat(CHUNK_CHARS)); // one chunk, past the stream's high-water mark
    const waiting = sink.ready();
    expect(waiting).toBeInstanceOf(Promise);
    let resolved = false;
    void waiting!.then(() => (resolved = true));
    await tick();
    expect(resolved).toBe(false);
    rec.release();
    await waiting;
    expect(resolved).toBe(true);
  });

  it('keeps the first write error: ready() rejects with exit-1 CliError, finish() returns it', async () => {
    const rec = new Recorder({ failWith: 'ENOSPC' });
    const sink = new OutputSink(rec);
    sink.write('data\n');
    await tick();
    expect(sink.error?.code).toBe('ENOSPC');
    await expect(sink.ready()).rejects.toThrow('cannot write output: no space left on the device (ENOSPC)');
    const err = await sink.finish();
    expect(err).toBeInstanceOf(CliError);
    expect(err?.message).toBe('cannot write output: no space left on the device (ENOSPC)');
  });

  it('finish() waits until the stream has taken everything, and is clean when it did', async () => {
    const rec = new Recorder({ slow: true });
    const sink = new OutputSink(rec);
    sink.batched('tail\n');
    let finished = false;
    const done = sink.finish().then((e) => {
      finished = true;
      return e;
    });
    await tick();
    expect(finished).toBe(false);
    rec.release();
    await tick();
    rec.release();
    expect(await done).toBeUndefined();
    expect(rec.writes.join('')).toBe('tail\n');
  });

  it('a destroyed stream is a write error, not a hang', async () => {
    const rec = new Recorder();
    const sink = new OutputSink(rec);
    rec.destroy();
    sink.write('late\n');
    const err = await sink.finish();
    expect(err?.message).toMatch(/^cannot write output: stdout is closed/);
  });

  it('names unknown errors by their message; EPIPE is recognised as a reader leaving', () => {
    expect(writeError(Object.assign(new Error('odd failure'), { code: 'EWEIRD' })).message).toBe(
      'cannot write output: odd failure',
    );
    expect(isBrokenPipe(Object.assign(new Error('x'), { code: 'EPIPE' }))).toBe(true);
    expect(isBrokenPipe(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(false);
    expect(isBrokenPipe(undefined)).toBe(false);
  });
});
