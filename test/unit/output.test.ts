import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutputFormat } from '../../src/core/config.js';
import { UsageError } from '../../src/core/errors.js';
import { IO, type IOOptions } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { JsonArrayWriter, csvField, writeList, writeObject, type Column } from '../../src/core/output.js';

const ESC = '\u001b';

function makeIO(opts: Partial<IOOptions> & { stdoutTTY?: boolean; stderrTTY?: boolean } = {}) {
  const stdout = new Collect(opts.stdoutTTY);
  const stderr = new Collect(opts.stderrTTY);
  const stdin = new PassThrough();
  const io = new IO(
    { stdin, stdout, stderr },
    { env: opts.env ?? {}, noColorFlag: opts.noColorFlag, quiet: opts.quiet, verbose: opts.verbose },
  );
  return { io, stdout, stderr };
}

/** A small RFC 4180 parser: records separated by CRLF or LF, fields by commas, quotes doubled inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      i += 2;
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      i++;
    } else if (c === '\r') {
      throw new Error(`bare CR outside quotes at ${i}`);
    } else {
      field += c;
      fieldStarted = true;
      i++;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (fieldStarted || field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

interface Item {
  id: string;
  name: string;
  severity?: string;
  note?: string;
}

const columns: Column<Item>[] = [
  { header: 'ID', value: (i) => i.id },
  { header: 'Name', value: (i) => i.name },
  {
    header: 'Severity',
    value: (i) => i.severity,
    style: (text, _item, color) => (text === 'critical' ? color.red(text) : text),
  },
  { header: 'Note', value: (i) => i.note, optional: true },
];

const items: Item[] = [
  { id: 'f1', name: 'open bucket', severity: 'critical' },
  { id: 'f2', name: 'weak, "tls"', severity: 'low' },
];

async function* asyncItems<T>(list: T[]): AsyncGenerator<T> {
  for (const x of list) {
    await Promise.resolve();
    yield x;
  }
}

describe('JsonArrayWriter', () => {
  function written(arr: unknown[]): string {
    let out = '';
    const w = new JsonArrayWriter((s) => {
      out += s;
    });
    for (const item of arr) w.push(item);
    w.end();
    return out;
  }

  it('writes [] and a newline for an empty array', () => {
    expect(written([])).toBe('[]\n');
    expect(written([])).toBe(`${JSON.stringify([], null, 2)}\n`);
  });

  it('equals JSON.stringify(arr, null, 2) + newline for arbitrary JSON arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 12 }), (arr) => {
        expect(written(arr)).toBe(`${JSON.stringify(arr, null, 2)}\n`);
      }),
      { numRuns: 300 },
    );
  });

  it('writes strings with newlines, quotes and unicode exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }), (arr) => {
        expect(written(arr)).toBe(`${JSON.stringify(arr, null, 2)}\n`);
      }),
    );
  });

  it('writes an undefined element as null, as JSON.stringify does for arrays', () => {
    const arr = [1, undefined, { a: undefined, b: 2 }];
    expect(written(arr)).toBe(`${JSON.stringify(arr, null, 2)}\n`);
  });

  it('parses back to the same values', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 }), (arr) => {
        expect(JSON.parse(written(arr))).toStrictEqual(JSON.parse(JSON.stringify(arr)));
      }),
    );
  });
});

describe('csvField', () => {
  it('leaves a plain field alone and quotes fields with commas, quotes or line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('')).toBe('');
  });

  it('round-trips any row of strings through an RFC 4180 parser', () => {
    const tricky = fc.string({
      unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é', '\t', '\r\n'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(tricky, fc.string()), { minLength: 1, maxLength: 6 }), (fields) => {
        // A single empty field would be an empty line, which RFC 4180 cannot tell from no record.
        fc.pre(!(fields.length === 1 && fields[0] === ''));
        const line = `${fields.map(csvField).join(',')}\r\n`;
        expect(parseCsv(line)).toStrictEqual([fields]);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips several rows', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.string({ unit: fc.constantFrom('x', ',', '"', '\n', '\r') }), {
            minLength: 2,
            maxLength: 4,
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        (rows) => {
          const text = rows.map((r) => `${r.map(csvField).join(',')}\n`).join('');
          expect(parseCsv(text)).toStrictEqual(rows);
        },
      ),
    );
  });
});

describe('writeList', () => {
  it('json: one array document, the same as JSON.stringify, from an async stream', async () => {
    const { io, stdout, stderr } = makeIO();
    const n = await writeList(io, asyncItems(items), { format: 'json', columns, noun: 'findings' });
    expect(n).toBe(2);
    expect(stdout.text).toBe(`${JSON.stringify(items, null, 2)}\n`);
    expect(stderr.text).toBe('');
  });

  it('json: an empty list is [] (not "No findings found.")', async () => {
    const { io, stdout, stderr } = makeIO();
    const n = await writeList(io, [], { format: 'json', columns, noun: 'findings' });
    expect(n).toBe(0);
    expect(JSON.parse(stdout.text)).toStrictEqual([]);
    expect(stdout.text).toBe('[]\n');
    expect(stderr.text).toBe('');
  });

  it('json: a stream stopped by an error leaves the array open (never passing for the whole list); Ctrl-C closes it', async () => {
    const { io, stdout } = makeIO();
    async function* failing() {
      yield items[0]!;
      throw new Error('boom');
    }
    await expect(writeList(io, failing(), { format: 'json', columns, noun: 'findings' })).rejects.toThrow(
      'boom',
    );
    expect(stdout.text).toContain('"id"');
    expect(() => JSON.parse(stdout.text) as unknown).toThrow();
    // Interrupted: every item written is kept in one valid array (cli-contract.md §4).
    const { InterruptedError } = await import('../../src/core/errors.js');
    const stopped = makeIO();
    async function* interrupted() {
      yield items[0]!;
      throw new InterruptedError('interrupted');
    }
    await expect(
      writeList(stopped.io, interrupted(), { format: 'json', columns, noun: 'findings' }),
    ).rejects.toThrow('interrupted');
    expect(JSON.parse(stopped.stdout.text)).toStrictEqual([items[0]]);
  });

  it('ndjson: one JSON object per line', async () => {
    const { io, stdout } = makeIO();
    const n = await writeList(io, items, { format: 'ndjson', columns, noun: 'findings' });
    expect(n).toBe(2);
    const lines = stdout.text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toStrictEqual(items);
  });

  it('ndjson: nothing at all for an empty list', async () => {
    const { io, stdout } = makeIO();
    expect(await writeList(io, [], { format: 'ndjson', columns, noun: 'findings' })).toBe(0);
    expect(stdout.text).toBe('');
  });

  it('csv: a header row, then one row per item, that parse back', async () => {
    const { io, stdout } = makeIO();
    const withNewline: Item[] = [...items, { id: 'f3', name: 'line\nbreak', note: 'n' }];
    const n = await writeList(io, withNewline, { format: 'csv', columns, noun: 'findings' });
    expect(n).toBe(3);
    const rows = parseCsv(stdout.text);
    expect(rows[0]).toStrictEqual(['id', 'name', 'severity', 'note']);
    expect(rows.slice(1)).toStrictEqual([
      ['f1', 'open bucket', 'critical', ''],
      ['f2', 'weak, "tls"', 'low', ''],
      ['f3', 'line\nbreak', '', 'n'],
    ]);
  });

  it('csv: never coloured, even with FORCE_COLOR', async () => {
    const { io, stdout } = makeIO({ env: { FORCE_COLOR: '1' }, stdoutTTY: true });
    await writeList(io, items, { format: 'csv', columns, noun: 'findings' });
    expect(stdout.text).not.toContain(ESC);
  });

  it('table: prints the rows with their headers', async () => {
    const { io, stdout, stderr } = makeIO();
    const n = await writeList(io, asyncItems(items), { format: 'table', columns, noun: 'findings' });
    expect(n).toBe(2);
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+Name\s+Severity$/);
    expect(lines[1]).toMatch(/^f1\s+open bucket\s+critical$/);
    expect(lines[2]).toMatch(/^f2\s+weak, "tls"\s+low$/);
    expect(stderr.text).toBe('');
  });

  it('table: zero items prints nothing to stdout and "No <noun> found." to stderr', async () => {
    const { io, stdout, stderr } = makeIO();
    const n = await writeList(io, asyncItems<Item>([]), { format: 'table', columns, noun: 'connections' });
    expect(n).toBe(0);
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('No connections found.\n');
  });

  it('sarif: throws a UsageError for a generic list', async () => {
    const { io, stdout } = makeIO();
    const p = writeList(io, items, { format: 'sarif', columns, noun: 'connections' });
    await expect(p).rejects.toBeInstanceOf(UsageError);
    expect(stdout.text).toBe('');
  });

  it('table: control characters in a cell never reach stdout (colour off)', async () => {
    const { io, stdout } = makeIO();
    const evil: Item[] = [
      { id: 'x', name: `${ESC}[31mred${ESC}]0;title\u0007 \u009b2J end\r`, severity: 'low' },
    ];
    await writeList(io, evil, { format: 'table', columns, noun: 'findings' });
    expect(stdout.text).toContain('red');
    expect(stdout.text).toContain('end');
    // eslint-disable-next-line no-control-regex
    expect(stdout.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('table: an injected escape sequence does not appear even when colour is on', async () => {
    const { io, stdout } = makeIO({ stdoutTTY: true });
    const evil: Item[] = [{ id: 'x', name: `${ESC}[31mEVIL`, severity: 'low' }];
    await writeList(io, evil, { format: 'table', columns, noun: 'findings' });
    expect(stdout.text).toContain('EVIL');
    expect(stdout.text).not.toContain(`${ESC}[31mEVIL`);
  });

  it('table: optional columns are hidden when no item has a value, shown when one does', async () => {
    const a = makeIO();
    await writeList(a.io, items, { format: 'table', columns, noun: 'findings' });
    expect(a.stdout.text).not.toContain('Note');

    const b = makeIO();
    await writeList(b.io, [...items, { id: 'f9', name: 'n', note: 'has a note' }], {
      format: 'table',
      columns,
      noun: 'findings',
    });
    expect(b.stdout.text.split('\n')[0]).toMatch(/Note$/);
    expect(b.stdout.text).toContain('has a note');
  });

  it('table: a non-optional column stays even when empty', async () => {
    const { io, stdout } = makeIO();
    await writeList(io, [{ id: 'a', name: 'b' }], { format: 'table', columns, noun: 'findings' });
    expect(stdout.text.split('\n')[0]).toMatch(/Severity$/);
  });

  describe('colour rules', () => {
    const cases: {
      name: string;
      env: NodeJS.ProcessEnv;
      tty: boolean;
      noColorFlag?: boolean;
      colour: boolean;
    }[] = [
      { name: 'TTY, no env: colour', env: {}, tty: true, colour: true },
      { name: 'not a TTY: no colour', env: {}, tty: false, colour: false },
      { name: 'NO_COLOR on a TTY: no colour', env: { NO_COLOR: '1' }, tty: true, colour: false },
      { name: 'FORCE_COLOR off a TTY: colour', env: { FORCE_COLOR: '1' }, tty: false, colour: true },
      {
        name: 'FORCE_COLOR beats NO_COLOR',
        env: { FORCE_COLOR: '1', NO_COLOR: '1' },
        tty: false,
        colour: true,
      },
      {
        name: '--no-color beats FORCE_COLOR',
        env: { FORCE_COLOR: '3' },
        tty: true,
        noColorFlag: true,
        colour: false,
      },
      { name: '--no-color on a TTY', env: {}, tty: true, noColorFlag: true, colour: false },
      { name: 'FORCE_COLOR=0 on a TTY: no colour', env: { FORCE_COLOR: '0' }, tty: true, colour: false },
    ];
    for (const c of cases) {
      it(`table: ${c.name}`, async () => {
        const { io, stdout } = makeIO({ env: c.env, stdoutTTY: c.tty, noColorFlag: c.noColorFlag });
        await writeList(io, items, { format: 'table', columns, noun: 'findings' });
        expect(stdout.text).toContain('critical');
        expect(stdout.text.includes(ESC)).toBe(c.colour);
        if (c.colour) expect(stdout.text).toMatch(new RegExp(`${ESC}\\[\\d+mcritical`));
      });
    }

    it('colour follows stdout, not stderr', async () => {
      const { io, stdout } = makeIO({ stdoutTTY: false, stderrTTY: true });
      await writeList(io, items, { format: 'table', columns, noun: 'findings' });
      expect(stdout.text).not.toContain(ESC);
    });
  });
});

describe('writeObject', () => {
  const obj = { id: 'c1', alias: 'prod, main', provider: 'aws', empty: '', none: null, nested: { a: 1 } };

  async function render(format: OutputFormat, fields?: [string, string][], env: NodeJS.ProcessEnv = {}) {
    const { io, stdout, stderr } = makeIO({ env });
    await writeObject(io, format, obj, fields);
    return { out: stdout.text, err: stderr.text };
  }

  it('json: the object, pretty-printed', async () => {
    const { out } = await render('json');
    expect(out).toBe(`${JSON.stringify(obj, null, 2)}\n`);
  });

  it('ndjson: the object on one line', async () => {
    const { out } = await render('ndjson');
    expect(out).toBe(`${JSON.stringify(obj)}\n`);
    expect(out.split('\n')).toHaveLength(2);
  });

  it('csv: a header of keys and one row of values', async () => {
    const { out } = await render('csv');
    expect(parseCsv(out)).toStrictEqual([
      ['id', 'alias', 'provider', 'empty', 'none', 'nested'],
      ['c1', 'prod, main', 'aws', '', '', '{"a":1}'],
    ]);
  });

  it('csv: with fields, only those keys in that order', async () => {
    const { out } = await render('csv', [
      ['Provider', 'provider'],
      ['ID', 'id'],
    ]);
    expect(parseCsv(out)).toStrictEqual([
      ['provider', 'id'],
      ['aws', 'c1'],
    ]);
  });

  it('table: label/value lines, empty values skipped, labels aligned, in the one style of key (upper case)', async () => {
    const { out } = await render('table', [
      ['ID', 'id'],
      ['Alias', 'alias'],
      ['Empty', 'empty'],
      ['Provider', 'provider'],
    ]);
    expect(out).toBe('ID        c1\nALIAS     prod, main\nPROVIDER  aws\n');
  });

  it('table: without fields uses the keys, upper case and words apart', async () => {
    const { out } = await render('table');
    expect(out).toBe('ID        c1\nALIAS     prod, main\nPROVIDER  aws\nNESTED    {"a":1}\n');
    expect(out).not.toContain('none');
  });

  it('table: strips control characters from values', async () => {
    const { io, stdout } = makeIO();
    await writeObject(io, 'table', { name: `${ESC}[2Jwiped\u0007` });
    expect(stdout.text).toContain('wiped');
    expect(stdout.text).not.toContain(ESC);
    expect(stdout.text).not.toContain('\u0007');
  });

  it('table: labels are bold only when colour is on', async () => {
    const on = await render('table', [['ID', 'id']], { FORCE_COLOR: '1' });
    expect(on.out).toContain(`${ESC}[1m`);
    const off = await render('table', [['ID', 'id']]);
    expect(off.out).not.toContain(ESC);
  });

  it('a report format saved in the profile shows a record as a table (an -o flag is refused earlier)', async () => {
    const { out } = await render('sarif' as OutputFormat);
    expect(out).toBe((await render('table')).out);
  });
});

describe('table output streams in batches', () => {
  interface Row {
    name: string;
    kind: string;
  }
  const columns: Column<Row>[] = [
    { header: 'NAME', value: (r) => r.name },
    { header: 'KIND', value: (r) => r.kind },
  ];

  it('prints one header, keeps columns aligned across batches, and writes before the source ends', async () => {
    const { io, stdout } = makeIO();
    let writtenBeforeEnd = 0;
    async function* rows(): AsyncGenerator<Row> {
      for (let i = 0; i < 250; i++) {
        if (i === 249) writtenBeforeEnd = stdout.text.split('\n').length;
        yield { name: `item-${i}`, kind: i === 230 ? 'x'.repeat(80) : 'k' };
      }
    }
    const n = await writeList(io, rows(), { format: 'table', columns, noun: 'rows' });
    expect(n).toBe(250);
    const out = stdout.text.trimEnd().split('\n');
    expect(out).toHaveLength(251);
    expect(out.filter((l) => l.startsWith('NAME'))).toHaveLength(1);
    expect(writtenBeforeEnd).toBeGreaterThan(200); // two batches were out while the source still yielded
    const kindAt = (line: string) => line.search(/\s(k|x+…?|KIND)$/) + 1;
    const starts = new Set(out.map(kindAt));
    expect(starts.size).toBe(1); // the KIND column starts at the same place on every line
    expect(out[231]).toMatch(/x…$/); // a later, wider cell is cut to the width the first batch set
  });
});
