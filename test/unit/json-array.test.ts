// A JSON array of findings read element by element (src/report/sources/json-array.ts), and the file reader
// that uses it: the same findings as JSON.parse of the whole text, however the text is cut into chunks; bad
// text named by its line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { arrayElements, ArrayTextError, type ArrayLimits } from '../../src/report/sources/json-array.js';
import { readFindingsFile } from '../../src/report/sources/file.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-json-array-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The text cut at the given places. */
function cut(text: string, at: number[]): string[] {
  const points = [...new Set(at.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

async function parse(chunks: string[], limits?: ArrayLimits): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of arrayElements(
    (async function* () {
      yield* chunks;
    })(),
    limits,
  ))
    out.push(JSON.parse(e.text));
  return out;
}

async function failure(text: string, limits?: ArrayLimits): Promise<ArrayTextError> {
  try {
    await parse([text], limits);
  } catch (err) {
    if (err instanceof ArrayTextError) return err;
    throw err;
  }
  throw new Error(`no error for ${text}`);
}

describe('arrayElements', () => {
  it('gives what JSON.parse of the whole text gives, however the text is cut and indented', async () => {
    const objects = fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(
        objects,
        fc.constantFrom(undefined, 2, '\t'),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (xs, indent, at) => {
          const text = JSON.stringify(xs, null, indent);
          expect(await parse(cut(text, at))).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('strings holding brackets, quotes, backslashes and escapes; a byte order mark; an empty array', async () => {
    const xs = [
      { t: '}]{[', q: 'a "quoted" }', b: 'back\\', e: '\\"}', u: '\u00e9\u{1f600}' },
      { nested: [{ a: [1, { b: '}' }] }] },
    ];
    const text = `\uFEFF ${JSON.stringify(xs, null, 2)} \n`;
    // Every cut into two chunks.
    for (let i = 0; i <= text.length; i++) expect(await parse(cut(text, [i]))).toStrictEqual(xs);
    expect(await parse(['[', ' ', ']'])).toStrictEqual([]);
  });

  it('what is not an array of objects: the line where it goes wrong', async () => {
    expect(await failure('[\n{"a":1}\n{"b":2}]')).toMatchObject({ message: 'not valid JSON', line: 3 });
    expect(await failure('[{"a":1},\n]')).toMatchObject({ message: 'not valid JSON', line: 2 });
    expect(await failure('[{"a":1}]\n\nx')).toMatchObject({
      message: 'not valid JSON: text after the end of the array',
      line: 3,
    });
    expect(await failure('[{"a":1},\n{"b": "never closed}]\n')).toMatchObject({
      message: 'not valid JSON: the file ends inside the array',
    });
    expect(await failure('[{"a":1},\n\n null]')).toMatchObject({
      message: 'item 2 is not a finding (an object)',
      line: 3,
      index: 2,
    });
    expect(await failure('[{"a":1}, [{"b":2}]]')).toMatchObject({
      message: 'item 2 is not a finding (an object)',
    });
    expect(await failure('{"a":1}')).toMatchObject({ message: 'not a JSON array of findings', line: 1 });
    expect(await failure('  ')).toMatchObject({ message: 'the file is empty' });
  });

  it('an element longer than the limit is refused, whether it ends or not (memory stays bounded)', async () => {
    const long = `[{"a":"${'x'.repeat(2000)}"}]`;
    expect(await failure(long, { maxElement: 1000 })).toMatchObject({
      message: expect.stringMatching(/^item 1 is longer than/),
    });
    // An element that never ends is cut off as soon as it passes the limit, not at the end of the file.
    const chunks = ['[{"a":"', ...Array.from({ length: 100 }, () => 'y'.repeat(100))];
    let seen = 0;
    await expect(
      (async () => {
        for await (const e of arrayElements(
          (async function* () {
            for (const c of chunks) {
              seen++;
              yield c;
            }
          })(),
          { maxElement: 1000 },
        ))
          void e;
      })(),
    ).rejects.toThrow(/item 1 is longer than/);
    expect(seen).toBeLessThan(20);
  });
});

describe('readFindingsFile: a JSON array', () => {
  const f = (id: string) => ({ id, severity: 'high', title: 't', resource: `r-${id}` });

  it('streams: the first finding comes before the rest of the file is read (never the whole text at once)', async () => {
    // 8 MiB of findings and no end: read whole, nothing would come out before the error.
    const path = join(work, 'open-ended.json');
    const one = JSON.stringify(f('x'));
    writeFileSync(path, `[${Array.from({ length: 80_000 }, () => one).join(',\n')},\n{"id": oops`);
    const it = readFindingsFile(path)[Symbol.asyncIterator]();
    expect((await it.next()).value).toStrictEqual(f('x'));
    let n = 1;
    await expect(
      (async () => {
        for (;;) {
          const r = await it.next();
          if (r.done) break;
          n++;
        }
      })(),
    ).rejects.toThrow(/open-ended\.json:80001: not valid JSON/);
    expect(n).toBe(80_000);
  });

  it('reads the findings in order; a bad element is named by its line in the file', async () => {
    const xs = Array.from({ length: 50 }, (_, i) => f(`f${i}`));
    const path = join(work, 'ok.json');
    writeFileSync(path, JSON.stringify(xs, null, 2));
    const got: unknown[] = [];
    for await (const x of readFindingsFile(path)) got.push(x);
    expect(got).toStrictEqual(xs);

    // Element 3 starts on line 14 (each finding is 6 lines); its bad value is on its 3rd line.
    const text = JSON.stringify(xs.slice(0, 5), null, 2).replace(
      '"high",\n    "title": "t",\n    "resource": "r-f2"',
      '"high",\n    "title": tru,\n    "resource": "r-f2"',
    );
    const bad = join(work, 'bad.json');
    writeFileSync(bad, text);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('tru,')) + 1;
    await expect(
      (async () => {
        for await (const x of readFindingsFile(bad)) void x;
      })(),
    ).rejects.toThrow(`${bad}:${at}: not valid JSON`);
    const notFinding = join(work, 'not-finding.json');
    writeFileSync(notFinding, '[\n  {"id": "a"},\n  {"items": []}\n]\n');
    await expect(
      (async () => {
        for await (const x of readFindingsFile(notFinding)) void x;
      })(),
    ).rejects.toThrow(
      `${notFinding}:3: item 2 is not a finding: it has no id, title, resource or fingerprint`,
    );
  });
});
