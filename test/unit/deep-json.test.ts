// JSON nested deeper than anything can write back (issue 28 #8): refused where it enters — exit 2 naming the
// file for a file, exit 1 for an answer of the service — and a json array stopped by an error is left open,
// never passing for the whole list.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diff } from '../../src/commands/findings/diff.js';
import { list } from '../../src/commands/findings/list.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/core/json-depth.js';
import { json as jsonFormat } from '../../src/core/output/json.js';
import { finding } from '../helpers/report.js';
import { json, verbWorld } from '../helpers/verb.js';
import { IO } from '../../src/core/io.js';
import { PassThrough } from 'node:stream';
import { Collect } from '../helpers/streams.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-deep-json-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(work, name);
  writeFileSync(p, text);
  return p;
}

/** `depth` arrays inside each other, as text (JSON.stringify of such a value would itself overflow). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A finding whose `details` nest `depth` levels below it, as one line of JSON text. */
const deepFinding = (id: string, depth: number) =>
  `${JSON.stringify(finding({ id, severity: 'critical' })).slice(0, -1)},"details":${nested(depth)}}`;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings; short texts are never scanned deep', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(`${nested(4)}      `, 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":{"b":[{}]}}${' '.repeat(20)}`, 3)).toBe(true);
    expect(nestsDeeperThan(`["[[[[[[[[\\"[[[[[", {"x": "]]]]{{{{"}]${' '.repeat(40)}`, 3)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });
});

describe('a file: exit 2 naming the file and the line, before any request', () => {
  it('a JSON array or ndjson holding a finding 200,000 levels deep, as a base or a head', async () => {
    const good = finding({ id: 'g1', severity: 'low' });
    const array = file('deep.json', `[\n  ${JSON.stringify(good)},\n  ${deepFinding('h2', 200_000)}\n]\n`);
    const lines = file('deep.ndjson', `${JSON.stringify(good)}\n${deepFinding('h2', 200_000)}\n`);
    const plain = file('plain.ndjson', `${JSON.stringify(good)}\n`);
    for (const [deep, where] of [
      [array, ':3: item 2 nests more than 1,000 levels deep'],
      [lines, ':2: the line nests more than 1,000 levels deep'],
    ] as const)
      for (const [base, head] of [
        [plain, deep],
        [deep, plain],
      ] as const)
        for (const output of ['json', 'table']) {
          const w = verbWorld([], { output });
          expect(await w.run(diff, { base, head, failOn: 'critical', ignore: false })).toBe(2);
          expect(w.stderr.text).toContain(`${deep}${where}`);
          expect(w.stdout.text).toBe('');
        }
  });

  it('1,000 levels are read, and written back in every format', async () => {
    const head = file('deep-ok.ndjson', `${deepFinding('h1', MAX_JSON_DEPTH - 1)}\n`);
    const base = file('empty-base.json', '[]');
    for (const output of ['json', 'ndjson', 'csv', 'table', 'sarif']) {
      const w = verbWorld([], { output });
      expect(await w.run(diff, { base, head, failOn: 'critical', ignore: false }), output).toBe(10);
    }
    const w = verbWorld([], { output: 'json' });
    await w.run(diff, { base, head, ignore: false });
    expect((JSON.parse(w.stdout.text) as { id: string }[])[0]!.id).toBe('h1');
  });
});

describe('an answer of the service: exit 1, and a json array never looks complete', () => {
  const deepPage = (offset: number) => ({
    status: 200,
    body: `{"total": 4, "limit": 2, "offset": ${offset}, "findings": [${deepFinding(`f${offset}`, 200_000)}, ${JSON.stringify(finding({ id: `f${offset + 1}` }))}]}`,
  });

  it('one page: exit 1 naming the depth, nothing on stdout, in json as in a table', async () => {
    for (const output of ['json', 'table', 'ndjson']) {
      const w = verbWorld([deepPage(0)], { output });
      expect(await w.run(list, { ignore: false }), output).toBe(1);
      expect(w.stderr.text).toMatch(
        /the service answered HTTP 200 with JSON that nests more than 1,000 levels deep/,
      );
      expect(w.stdout.text).toBe('');
    }
  });

  it('--all, the second page too deep: the first page is written, the array is left open', async () => {
    const first = json({
      total: 4,
      limit: 2,
      offset: 0,
      findings: [finding({ id: 'a' }), finding({ id: 'b' })],
    });
    const w = verbWorld([first, deepPage(2)], { output: 'json' });
    expect(await w.run(list, { all: true, limit: 2, ignore: false })).toBe(1);
    expect(w.stdout.text).toMatch(/^\[\n {2}\{/);
    expect(w.stdout.text).toContain('"id": "b"');
    expect(() => JSON.parse(w.stdout.text) as unknown).toThrow();
    expect(w.stdout.text.trimEnd().endsWith(']')).toBe(false);
  });
});

describe('-o json: closed when the stream ends or is interrupted, open when an error stopped it', () => {
  it('end() with and without failed', () => {
    for (const [info, closed] of [
      [{ complete: true, count: 1 }, true],
      [{ complete: false, count: 1 }, true],
      [{ complete: false, count: 1, failed: true }, false],
    ] as const) {
      const chunks: string[] = [];
      const io = new IO(
        { stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() },
        { env: {} },
      );
      const f = jsonFormat<unknown>({ io, write: (s) => chunks.push(s), columns: [], noun: 'items' });
      void f.item({ a: 1 });
      void f.end(info);
      const text = chunks.join('');
      expect(text.endsWith('\n]\n'), JSON.stringify(info)).toBe(closed);
      if (closed) expect(JSON.parse(text)).toStrictEqual([{ a: 1 }]);
    }
  });
});
