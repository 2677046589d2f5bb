import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../../src/core/errors.js';
import { AtomicFileWriter, ensureDir, fsOps, writeFileAtomic } from '../../src/core/files.js';

const posix = process.platform !== 'win32';
let tmp: string;
const saved = { ...fsOps };
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cssctl-files-'));
});
afterEach(() => {
  Object.assign(fsOps, saved);
  rmSync(tmp, { recursive: true, force: true });
});

function fail(code: string): () => never {
  return () => {
    throw Object.assign(new Error(`${code}: simulated`), { code });
  };
}

describe('writeFileAtomic', () => {
  it('a report (AtomicFileWriter) to a folder that does not exist, or under a file: the target named, no temporary name', () => {
    writeFileSync(join(tmp, 'plain'), 'x');
    for (const [f, why] of [
      [join(tmp, 'missing', 'out.csv'), 'its folder does not exist'],
      [join(tmp, 'plain', 'out.csv'), 'a part of its path is not a folder'],
    ] as const) {
      const w = new AtomicFileWriter(f);
      w.write('x');
      expect(() => w.commit()).toThrow(new CliError(`cannot write ${f}: ${why}`));
    }
  });

  it('writes the file and leaves nothing else', () => {
    const f = join(tmp, 'a.json');
    writeFileAtomic(f, 'one');
    writeFileAtomic(f, 'two');
    expect(readFileSync(f, 'utf8')).toBe('two');
    expect(readdirSync(tmp)).toEqual(['a.json']);
  });

  it.each([
    ['writeSync', 'ENOSPC', /no space left/],
    ['fsyncSync', 'EIO', /input\/output error/],
    ['renameSync', 'ENOSPC', /no space left/],
  ] as const)(
    '%s failing with %s: old file intact, no temporary file, one-line CliError',
    (op, code, msg) => {
      const f = join(tmp, 'credentials.json');
      writeFileAtomic(f, 'old content');
      fsOps[op] = fail(code) as never;
      let caught: unknown;
      try {
        writeFileAtomic(f, 'new content that does not fit');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(CliError);
      expect((caught as Error).message).toContain(f);
      expect((caught as Error).message).toMatch(msg);
      expect((caught as Error).message).not.toContain('\n');
      expect(readFileSync(f, 'utf8')).toBe('old content');
      expect(readdirSync(tmp)).toEqual(['credentials.json']);
    },
  );

  it.runIf(posix)('refuses a symlink target: the linked file is neither written nor chmod-ed', () => {
    const target = join(tmp, 'target');
    writeFileSync(target, 'theirs');
    chmodSync(target, 0o644);
    const link = join(tmp, 'config.json');
    symlinkSync(target, link);
    expect(() => writeFileAtomic(link, 'ours')).toThrow(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(readdirSync(tmp).sort()).toEqual(['config.json', 'target']);
  });

  it.runIf(posix)(
    'creates a missing folder 0700 and the file with the mode asked; an existing folder keeps its mode',
    () => {
      const dir = join(tmp, 'x', 'y');
      writeFileAtomic(join(dir, 'f'), 'a', 0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'f')).mode & 0o777).toBe(0o600);
      const shared = join(tmp, 'shared');
      mkdirSync(shared);
      chmodSync(shared, 0o755);
      writeFileAtomic(join(shared, 'f'), 'a', 0o600);
      expect(statSync(shared).mode & 0o777).toBe(0o755);
    },
  );
});

describe('ensureDir', () => {
  it('makes every missing parent (0700), says whether it made the folder, and never chmods one that is there', () => {
    const deep = join(tmp, 'a', 'b', 'c');
    expect(ensureDir(deep)).toBe(true);
    expect(statSync(deep).isDirectory()).toBe(true);
    if (posix) expect(statSync(join(tmp, 'a')).mode & 0o777).toBe(0o700);
    chmodSync(deep, 0o755);
    expect(ensureDir(deep)).toBe(false);
    if (posix) expect(statSync(deep).mode & 0o777).toBe(0o755);
  });

  it('a file in the way is one line naming the folder, never a loop', () => {
    const file = join(tmp, 'file');
    writeFileSync(file, 'x');
    expect(() => ensureDir(file)).toThrow(
      new CliError(`cannot create the folder ${file}: a file of that name is in the way`),
    );
    expect(() => ensureDir(join(file, 'x', 'y'))).toThrow(/a part of its path is not a folder$/);
  });
});
