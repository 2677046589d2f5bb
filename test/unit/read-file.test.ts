// Reading files without becoming deaf to Ctrl-C (issue 20 #4, "no file operation anywhere"): FIFOs in the
// place of cssctl's own files are refused at once; FIFOs the user names are read as pipes, and a signal
// stops the wait for their writer.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InterruptedError, UsageError } from '../../src/core/errors.js';
import { readStateFileSync, readUserFile } from '../../src/core/read-file.js';
import { readAll, readSecretLine } from '../../src/core/stdin.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-read-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fifo(name = 'fifo'): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('readStateFileSync (config.json, credentials.json, ratelimit-state.json)', () => {
  it('reads a regular file', () => {
    writeFileSync(join(dir, 'f.json'), '{"a":1}');
    expect(readStateFileSync(join(dir, 'f.json'))).toBe('{"a":1}');
  });

  it('a FIFO in its place is refused at once (ENOTREG), never waited on', () => {
    const path = fifo('config.json');
    let err: NodeJS.ErrnoException | undefined;
    try {
      readStateFileSync(path);
    } catch (e) {
      err = e as NodeJS.ErrnoException;
    }
    expect(err?.code).toBe('ENOTREG');
    expect(err?.message).toBe('not a regular file');
  });

  it('a missing file is ENOENT, as readFileSync says', () => {
    expect(() => readStateFileSync(join(dir, 'missing.json'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});

describe('readUserFile (--input, --payload-file, --secret-file)', () => {
  const opts = { what: '--payload-file' };

  it('a regular file, byte for byte', async () => {
    const bytes = Buffer.from([0, 255, 10, 13, 0xef, 0xbb, 0xbf]);
    writeFileSync(join(dir, 'p'), bytes);
    expect(await readUserFile(join(dir, 'p'), opts)).toStrictEqual(bytes);
  });

  it('a FIFO whose writer comes later: its data, whole', async () => {
    const path = fifo();
    const reading = readUserFile(path, opts);
    // The reader holds the FIFO open already, so this write does not wait for one.
    writeFileSync(path, 'hello over a fifo');
    expect((await reading).toString()).toBe('hello over a fifo');
  });

  it('a FIFO without a writer: the signal ends the wait at once with an InterruptedError', async () => {
    const path = fifo();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const err = await failure(readUserFile(path, { ...opts, signal: ac.signal }));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a signal already given reads nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await failure(readUserFile(fifo(), { ...opts, signal: ac.signal }))).toBeInstanceOf(
      InterruptedError,
    );
  });

  it('past the cap: a regular file, a FIFO and /dev/zero are refused in one line', async () => {
    writeFileSync(join(dir, 'big'), Buffer.alloc(2048));
    const big = await failure(readUserFile(join(dir, 'big'), { ...opts, maxBytes: 1024 }));
    expect(big).toBeInstanceOf(UsageError);
    expect((big as Error).message).toBe(`--payload-file ${join(dir, 'big')} is larger than 1 KiB`);

    const path = fifo();
    const reading = readUserFile(path, { ...opts, maxBytes: 1024 });
    writeFileSync(path, Buffer.alloc(4096));
    expect(await failure(reading)).toBeInstanceOf(UsageError);

    const zero = await failure(readUserFile('/dev/zero', { ...opts, maxBytes: 64 * 1024 }));
    expect((zero as Error).message).toBe('--payload-file /dev/zero is larger than 64 KiB');
  });

  it('a missing path or a folder: one usage error naming the flag, the path and the reason', async () => {
    const missing = await failure(readUserFile(join(dir, 'nope'), opts));
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as Error).message).toBe(`cannot read --payload-file ${join(dir, 'nope')}: ENOENT`);
    mkdirSync(join(dir, 'folder'));
    expect(((await failure(readUserFile(join(dir, 'folder'), opts))) as Error).message).toBe(
      `cannot read --payload-file ${join(dir, 'folder')}: EISDIR`,
    );
  });
});

describe('readAll and readSecretLine (standard input) hear the signal', () => {
  it('a pipe that never brings data: InterruptedError when the signal comes', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    expect(await failure(readAll(new PassThrough(), undefined, undefined, ac.signal))).toBeInstanceOf(
      InterruptedError,
    );
    const ac2 = new AbortController();
    setTimeout(() => ac2.abort(), 30);
    expect(await failure(readSecretLine(new PassThrough(), 'the password', ac2.signal))).toBeInstanceOf(
      InterruptedError,
    );
  });

  it('with data and no signal, as before', async () => {
    const s = new PassThrough();
    s.end('secret\nrest');
    expect(await readSecretLine(s, 'the password', new AbortController().signal)).toBe('secret');
  });
});
