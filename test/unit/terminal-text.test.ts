/* eslint-disable no-control-regex -- these tests are about control characters */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { writeList, writeObject, type Column } from '../../src/core/output/index.js';
import { fitWidths } from '../../src/core/output/table.js';
import { terminalText } from '../../src/core/terminal-text.js';
import { Collect } from '../helpers/streams.js';

// Anything a terminal could act on: C0, DEL, C1, and the bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function makeIO(opts: { tty?: boolean; columns?: number; errTTY?: boolean } = {}) {
  const stdout = new Collect(opts.tty) as Collect & { columns?: number };
  if (opts.columns) stdout.columns = opts.columns;
  const stderr = new Collect(opts.errTTY);
  const io = new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} });
  return { io, stdout, stderr };
}

describe('terminalText (issue 9 #8)', () => {
  it('removes whole CSI, OSC and other escape sequences, not just the ESC byte', () => {
    expect(terminalText('a\u001b[31mred\u001b[0m b')).toBe('ared b');
    expect(terminalText('x\u001b]0;pwned title\u0007y')).toBe('xy');
    expect(terminalText('x\u001b]8;;https://evil.test\u001b\\link\u001b]8;;\u001b\\y')).toBe('xlinky');
    expect(terminalText('x\u009b2Jy')).toBe('xy');
    expect(terminalText('x\u001bcy')).toBe('xy');
  });

  it('removes bidi overrides and isolates, keeps ordinary non-ASCII', () => {
    expect(terminalText('evil\u202etxt.exe')).toBe('eviltxt.exe');
    expect(terminalText('\u2066a\u2069 — é 日本')).toBe('a — é 日本');
  });

  it('turns line breaks and tabs into spaces', () => {
    expect(terminalText('one\ntwo\r\nthree\tfour')).toBe('one two three four');
  });

  it('never leaves a control character, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(terminalText(s)).not.toMatch(UNSAFE);
      }),
      { numRuns: 2000 },
    );
  });
});

interface Row {
  name: string;
  note?: string;
}
const columns: Column<Row>[] = [
  { header: 'NAME', value: (r) => r.name },
  { header: 'NOTE', value: (r) => r.note },
];

describe('sanitising where service text is printed', () => {
  it('notices, warnings and hints: no escape sequence or bidi override reaches stderr', () => {
    const { io, stderr } = makeIO();
    io.success('Created connection \u001b]0;x\u0007prod\u202e');
    io.notice('retrying: \u001b[2Jservice said no');
    io.warn('total changed\u009b1m');
    io.hint('use --all\u2066');
    expect(stderr.text).not.toMatch(/[\u001b\u009b\u202e\u2066\u0007]/);
    expect(stderr.text).toContain('Created connection prod');
  });

  it('object keys from the service are sanitised in a table record', async () => {
    const { io, stdout } = makeIO();
    await writeObject(io, 'table', { 'evil\u001b[31mkey\u202e': 'v\u001b]0;t\u0007al' });
    expect(stdout.text).not.toMatch(/[\u001b\u202e\u0007]/);
    // Keys take the tables' one style (upper case) after they are sanitised.
    expect(stdout.text).toMatch(/^EVILKEY {2}val$/m);
  });

  it('table cells: bidi overrides and OSC sequences removed', async () => {
    const { io, stdout } = makeIO();
    await writeList(io, [{ name: 'a\u202eb', note: '\u001b]8;;x\u0007c' }], {
      format: 'table',
      columns,
      noun: 'rows',
    });
    expect(stdout.text).not.toMatch(/[\u001b\u202e\u0007]/);
    expect(stdout.text).toContain('ab');
  });
});

describe('table width (issue 9: a 5,000-character field)', () => {
  const long = 'x'.repeat(5000);

  it('on a terminal, a row never passes the terminal width; the cut cell ends with …', async () => {
    const { io, stdout } = makeIO({ tty: true, columns: 100 });
    await writeList(io, [{ name: 'short', note: long }], { format: 'table', columns, noun: 'rows' });
    const rows = stdout.text.trimEnd().split('\n');
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(100);
    expect(rows[1]).toMatch(/^short\s+x+…$/);
  });

  it('off a terminal, a cell is cut at 160 columns', async () => {
    const { io, stdout } = makeIO();
    await writeList(io, [{ name: 'short', note: long }], { format: 'table', columns, noun: 'rows' });
    const row = stdout.text.trimEnd().split('\n')[1]!;
    expect(row.length).toBeLessThan(200);
    expect(row.endsWith('…')).toBe(true);
  });

  it('csv and json keep the full text', async () => {
    for (const format of ['csv', 'json']) {
      const { io, stdout } = makeIO({ tty: true, columns: 80 });
      await writeList(io, [{ name: 'short', note: long }], { format, columns, noun: 'rows' });
      expect(stdout.text).toContain(long);
    }
  });

  it('fitWidths shrinks the widest columns first and fits the budget', () => {
    expect(fitWidths([10, 5000, 20], 80)).toStrictEqual([10, 46, 20]);
    expect(fitWidths([10, 20], 80)).toStrictEqual([10, 20]);
    const w = fitWidths([300, 200, 5], 60);
    expect(w.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(60);
  });
});

describe('null items (issue 9 #14)', () => {
  it('a null item in a list gives an empty row in a table and csv, null in json; no crash', async () => {
    const rows = [{ name: 'a' }, null as unknown as Row, { name: 'b' }];
    const t = makeIO();
    await writeList(t.io, rows, { format: 'table', columns, noun: 'rows' });
    expect(t.stdout.text).toBe('NAME  NOTE\na\n\nb\n');
    const c = makeIO();
    await writeList(c.io, rows, { format: 'csv', columns, noun: 'rows' });
    expect(c.stdout.text).toBe('name,note\na,\n,\nb,\n');
    const j = makeIO();
    await writeList(j.io, rows, { format: 'json', columns, noun: 'rows' });
    expect(JSON.parse(j.stdout.text)).toStrictEqual([{ name: 'a' }, null, { name: 'b' }]);
  });
});
