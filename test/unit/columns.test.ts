// A CSV that holds everything (cli-contract.md §14): --columns takes the command's columns, any field the items
// carry and dotted paths, or all; csv names columns with the service's field names; an unknown name is exit 2
// with "did you mean", checked before any request where it can be and against the first page where it cannot.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import type { Column } from '../../src/core/format.js';
import { parseColumns, resolveColumns, resolveWithoutData, valueAt } from '../../src/core/output/columns.js';
import {
  FIRST_PAGE_ITEMS,
  standardFormats,
  writeList,
  type ListSource,
} from '../../src/core/output/index.js';
import { IO } from '../../src/core/io.js';
import { findingColumns } from '../../src/report/columns.js';
import { scanColumns } from '../../src/report/scan-fields.js';
import { list } from '../../src/commands/findings/list.js';
import { list as scansList } from '../../src/commands/scans/list.js';
import { Collect } from '../helpers/streams.js';
import { json, verbWorld } from '../helpers/verb.js';

type Item = Record<string, unknown>;

const f1: Item = {
  id: 'fnd_1',
  severity: 'high',
  title: '=HYPERLINK("http://evil","x")',
  resource: 'arn:aws:s3:::a',
  connection_alias: 'prod',
  scan_id: 'scn_1',
  status: 'open',
  created_at: '2025-06-02T08:11:00.000Z',
  details: { region: 'eu-west-1', tags: ['pci', 'web'], 'a.b': 1 },
};
const f2: Item = { ...f1, id: 'fnd_2', severity: 'low', details: { region: 'us-east-1' }, risk: -2 };

function makeIO() {
  const stdout = new Collect(false);
  const stderr = new Collect(false);
  return { io: new IO({ stdin: process.stdin, stdout, stderr }, { env: {} }), stdout, stderr };
}

async function csvOf(items: Item[] | ListSource<Item>, raw: string | undefined, columns = findingColumns) {
  const { io, stdout, stderr } = makeIO();
  await writeList(io, items, {
    format: 'csv',
    columns: columns as unknown as Column<Item>[],
    choice: parseColumns(raw, 'csv'),
    noun: 'findings',
    formats: standardFormats<Item>(),
  });
  return { out: stdout.text, err: stderr.text, lines: stdout.text.split('\n').filter(Boolean) };
}

describe('--columns before any request (parseColumns)', () => {
  it.each([
    ['id,,title', 'csv', /empty column name in --columns "id,,title"/],
    ['details..region', 'csv', /invalid column "details\.\.region": a dotted path/],
    ['.region', 'table', /invalid column "\.region"/],
    ['all,id', 'csv', /--columns all writes every field: give it alone/],
    ['id', 'json', /--columns applies to table, wide, csv output, not json/],
    ['id', 'ocsf', /not ocsf/],
  ])('%j with %s is a usage error', (raw, format, message) => {
    expect(() => parseColumns(raw, format)).toThrow(UsageError);
    expect(() => parseColumns(raw, format)).toThrow(message);
  });

  it('keeps each name once, in the order given', () => {
    expect(parseColumns(' id, title,id ', 'csv')).toEqual({
      raw: ' id, title,id ',
      names: ['id', 'title'],
      all: false,
    });
    expect(parseColumns('ALL', 'table')?.all).toBe(true);
    expect(parseColumns(undefined, 'json')).toBeUndefined();
  });

  it('needs no data when every name is one of the command’s columns (by name or by field)', () => {
    const cols = resolveWithoutData(findingColumns, parseColumns('ID,connection,connection_alias', 'csv'))!;
    expect(cols.map((c) => c.header)).toEqual(['ID', 'CONNECTION', 'CONNECTION']);
    expect(resolveWithoutData(findingColumns, parseColumns('id,scan_id', 'csv'))).toBeUndefined();
    expect(resolveWithoutData(findingColumns, parseColumns('all', 'csv'))).toBeUndefined();
  });
});

describe('--columns against the first page (resolveColumns)', () => {
  const sample = [f1, f2];
  const names = (raw: string) =>
    resolveColumns(
      findingColumns as unknown as Column<Item>[],
      parseColumns(raw, 'csv'),
      sample,
      'findings',
    ).map((c) => c.field);

  it('takes any field the items carry and dotted paths into them', () => {
    expect(names('id,severity,scan_id,created_at,details.region,risk')).toEqual([
      'id',
      'severity',
      'scan_id',
      'created_at',
      'details.region',
      'risk',
    ]);
  });

  it('a name within two edits of a column or a field of the first page is a typo: exit 2 naming the closest', () => {
    expect(() => names('severity,titel')).toThrow(UsageError);
    expect(() => names('severity,titel')).toThrow(
      /^unknown column "titel", did you mean title\? Use a column \(severity, title, resource, connection, status, id\), a field of the findings \(connection_alias, created_at, details, id, resource, risk, scan_id, severity, status, title\), a dotted path into one, or all$/,
    );
    expect(() => names('details.regoin')).toThrow(/did you mean details\.region\?/);
    expect(() => names('scna_id')).toThrow(/did you mean scan_id\?/);
    expect(() => names('detials.region')).toThrow(/did you mean details\.region\?/);
    expect(() => names('details.tag')).toThrow(/did you mean details\.tags\?/);
    // Short names too: two edits from id.
    expect(() => names('rx')).toThrow(/did you mean id\?/);
  });

  it('any other name is kept: a field may appear only on later pages', () => {
    expect(names('id,late_field,zzzzzz,details.zone_id,x.y.z')).toEqual([
      'id',
      'late_field',
      'zzzzzz',
      'details.zone_id',
      'x.y.z',
    ]);
    // Three edits from the nearest (risk, id): kept.
    expect(names('rxqz')).toEqual(['rxqz']);
  });

  it('never suggests the very name given (a path the page shows under a key that holds a dot)', () => {
    const dotted = [{ id: 'a', 'details.x': { y: 1 } }];
    const resolve = (raw: string) =>
      resolveColumns(findingColumns as unknown as Column<Item>[], parseColumns(raw, 'csv'), dotted).map(
        (c) => c.field,
      );
    expect(resolve('details.x.y')).toEqual(['details.x.y']);
    expect(valueAt(dotted[0], 'details.x.y')).toBe(1);
    expect(valueAt({ a: { 'b.c': { d: [5, 6] } } }, 'a.b.c.d.1')).toBe(6);
    // A typo of it still names the path: not the name given.
    expect(() => resolve('details.x.z')).toThrow(/did you mean details\.x\.y\?/);
  });

  it('an empty first page has no fields to check: names are taken as given', () => {
    const cols = resolveColumns(
      findingColumns as unknown as Column<Item>[],
      parseColumns('id,whatever', 'csv'),
      [],
    );
    expect(cols.map((c) => c.field)).toEqual(['id', 'whatever']);
  });

  it('valueAt: an exact key first, then the path through objects and arrays', () => {
    expect(valueAt(f1, 'details.region')).toBe('eu-west-1');
    expect(valueAt(f1, 'details.tags.1')).toBe('web');
    expect(valueAt({ 'a.b': 2, a: { b: 3 } }, 'a.b')).toBe(2);
    expect(valueAt(f1, 'details.nope.x')).toBeUndefined();
    expect(valueAt(null, 'id')).toBeUndefined();
    expect(valueAt(f1, 'constructor')).toBeUndefined();
  });
});

describe('-o csv', () => {
  it('names its columns with the service’s field names; the table’s default columns stay', async () => {
    const { lines } = await csvOf([f1], undefined);
    expect(lines[0]).toBe('severity,title,resource,connection_alias,status,id');
    expect(findingColumns.map((c) => c.header)).toEqual([
      'SEVERITY',
      'TITLE',
      'RESOURCE',
      'CONNECTION',
      'STATUS',
      'ID',
    ]);
  });

  it('--columns with fields and dotted paths; objects and arrays as JSON text; formulas neutralised', async () => {
    const { lines } = await csvOf(
      [f1, f2],
      'id,severity,scan_id,created_at,details.region,details.tags,title,risk',
    );
    expect(lines).toEqual([
      'id,severity,scan_id,created_at,details.region,details.tags,title,risk',
      `fnd_1,high,scn_1,2025-06-02T08:11:00.000Z,eu-west-1,"[""pci"",""web""]","'=HYPERLINK(""http://evil"",""x"")",`,
      `fnd_2,low,scn_1,2025-06-02T08:11:00.000Z,us-east-1,,"'=HYPERLINK(""http://evil"",""x"")",-2`,
    ]);
  });

  it('--columns all: every field of the first page, the command’s columns first, then alphabetical', async () => {
    const { lines } = await csvOf([f2, f1], 'all');
    expect(lines[0]).toBe(
      'severity,title,resource,connection_alias,status,id,created_at,details,risk,scan_id',
    );
    expect(lines[2]).toContain(',"{""region"":""eu-west-1"",""tags"":[""pci"",""web""],""a.b"":1}",,scn_1');
  });

  it('--columns all: the same order whatever order the fields come in', async () => {
    const shuffled = Object.fromEntries(Object.entries(f2).reverse());
    expect((await csvOf([shuffled], 'all')).lines[0]).toBe((await csvOf([f2], 'all')).lines[0]);
  });

  it('a field name from the service that looks like a formula is neutralised in the header too', async () => {
    const { lines } = await csvOf([{ id: 'a', '=cmd()': 'x', '@sum': 1 }], 'all');
    expect(lines[0]).toBe("id,'=cmd(),'@sum");
  });

  it('--columns all reads the fields of the first page only, and names later ones in a warning', async () => {
    const source: ListSource<Item> = {
      async *[Symbol.asyncIterator]() {
        yield f1;
        yield { ...f1, extra_field: 1 };
      },
      async *pages() {
        yield [f1];
        yield [{ ...f1, id: 'fnd_9', extra_field: 1 }];
      },
    };
    const { lines, err } = await csvOf(source, 'all');
    expect(lines[0]).not.toContain('extra_field');
    expect(lines).toHaveLength(3);
    expect(err).toMatch(
      /--columns all wrote the fields of the first page; later items also carry extra_field/,
    );
  });

  it('an unknown column is found before anything is written', async () => {
    const { io, stdout } = makeIO();
    await expect(
      writeList(io, [f1], {
        format: 'csv',
        columns: findingColumns as unknown as Column<Item>[],
        choice: parseColumns('id,titel', 'csv'),
        noun: 'findings',
      }),
    ).rejects.toThrow(/did you mean title/);
    expect(stdout.text).toBe('');
  });

  it('without pages, the first page is what a single read gives, up to the size --all asks for', async () => {
    const many = Array.from({ length: FIRST_PAGE_ITEMS + 1 }, (_, i) => ({
      id: `f${i}`,
      ...(i === FIRST_PAGE_ITEMS ? { late: 1 } : {}),
    }));
    const { lines, err } = await csvOf(many, 'all');
    expect(lines[0]).toBe('id');
    expect(lines).toHaveLength(FIRST_PAGE_ITEMS + 2);
    expect(err).toMatch(/later items also carry late/);
    // Named, a field of a later page is written: empty cells until it appears.
    const named = await csvOf(many, 'id,late');
    expect(named.lines[0]).toBe('id,late');
    expect(named.lines[1]).toBe('f0,');
    expect(named.lines.at(-1)).toBe(`f${FIRST_PAGE_ITEMS},1`);
    expect(named.err).toBe('');
  });

  it('--columns id,late_field: a field only a later page carries is written, no warning', async () => {
    const source: ListSource<Item> = {
      async *[Symbol.asyncIterator]() {
        yield f1;
        yield { ...f1, id: 'fnd_9', late_field: 'x' };
      },
      async *pages() {
        yield [f1];
        yield [{ ...f1, id: 'fnd_9', late_field: 'x' }];
      },
    };
    const { out, err } = await csvOf(source, 'id,late_field');
    expect(out).toBe('id,late_field\nfnd_1,\nfnd_9,x\n');
    expect(err).toBe('');
  });

  it('a named field no item carried: empty cells, and a warning at the end naming it', async () => {
    const { out, err } = await csvOf([f1, f2], 'id,late_field,details.zone');
    expect(out).toBe('id,late_field,details.zone\nfnd_1,,\nfnd_2,,\n');
    expect(err).toBe(
      'warning: --columns late_field, details.zone: no item carried these fields, their cells are empty\n',
    );
    const one = await csvOf([f1], 'id,nothing_here');
    expect(one.err).toBe(
      'warning: --columns nothing_here: no item carried this field, its cells are empty\n',
    );
  });

  it('--columns all on an empty result: the default columns’ header, never a blank line', async () => {
    expect((await csvOf([], 'all')).out).toBe('severity,title,resource,connection_alias,status,id\n');
    const scans = await csvOf([], 'all', scanColumns as unknown as typeof findingColumns);
    expect(scans.out).toBe(
      'scan_id,connection_alias,status,total_findings,critical_count,risk_score,created_at\n',
    );
  });
});

describe('through the verbs', () => {
  it('findings list -o csv --columns with fields: one request, the rows', async () => {
    const w = verbWorld([json({ total: 2, findings: [f1, f2] })], { output: 'csv' });
    expect(await w.run(list, { columns: 'id,scan_id,details.region' })).toBe(0);
    expect(w.stdout.text).toBe('id,scan_id,details.region\nfnd_1,scn_1,eu-west-1\nfnd_2,scn_1,us-east-1\n');
  });

  it('findings list --columns titel: exit 2 after the first page, nothing on stdout', async () => {
    const w = verbWorld([json({ total: 2, findings: [f1, f2] })], { output: 'csv' });
    expect(await w.run(list, { columns: 'severity,titel' })).toBe(2);
    expect(w.stdout.text).toBe('');
    expect(w.stderr.text).toMatch(/unknown column "titel", did you mean title\?/);
    expect(w.requests()).toHaveLength(1);
  });

  it('findings list --columns id,: exit 2 before any request', async () => {
    const w = verbWorld([], { output: 'csv' });
    expect(await w.run(list, { columns: 'id,' })).toBe(2);
    expect(w.requests()).toHaveLength(0);
  });

  it('scans list -o csv: the service’s field names', async () => {
    const scan = {
      scan_id: 'scn_1',
      connection_alias: 'prod',
      status: 'completed',
      total_findings: 3,
      critical_count: 1,
      risk_score: 4.2,
      created_at: '2025-06-02T08:11:00.000Z',
    };
    const w = verbWorld([json({ total: 1, scans: [scan] })], { output: 'csv' });
    expect(await w.run(scansList, {})).toBe(0);
    expect(w.stdout.text.split('\n')[0]).toBe(
      'scan_id,connection_alias,status,total_findings,critical_count,risk_score,created_at',
    );
  });

  it('a field name with terminal controls never drives the terminal in a table header', async () => {
    const evil = { id: 'a', '\u001b[2Jx': 1 };
    const w = verbWorld([json({ total: 1, findings: [evil] })], { output: 'table' });
    expect(await w.run(list, { columns: 'all' })).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(w.stdout.text).not.toMatch(/\u001b/);
  });

  it('a time field named in --columns shows in a table as the default time columns do; csv keeps the text', async () => {
    const item = {
      ...f1,
      updated_at: '2025-06-03T23:59:30.000Z',
      scan: { finished_at: '2025-06-04T00:00:00Z' },
      note_at: 'soon',
    };
    const local = (iso: string) => {
      const d = new Date(iso);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
    };
    const cols = 'id,updated_at,scan.finished_at,note_at';
    const table = verbWorld([json({ total: 1, findings: [item] })], { output: 'table' });
    expect(await table.run(list, { columns: cols })).toBe(0);
    const row = table.stdout.text.split('\n')[1]!;
    expect(row).toContain(local(item.updated_at));
    expect(row).toContain(local(item.scan.finished_at));
    expect(row).toMatch(/soon\s*$/);
    expect(row).not.toContain('T23:59');
    const csv = verbWorld([json({ total: 1, findings: [item] })], { output: 'csv' });
    expect(await csv.run(list, { columns: cols })).toBe(0);
    expect(csv.stdout.text.split('\n')[1]).toBe(`fnd_1,${item.updated_at},${item.scan.finished_at},soon`);
  });

  it('the table takes fields too, with --columns all', async () => {
    const w = verbWorld([json({ total: 1, findings: [f1] })], { output: 'table' });
    expect(await w.run(list, { columns: 'id,scan_id,details.region' })).toBe(0);
    expect(w.stdout.text.split('\n')[0]).toMatch(/^ID\s+SCAN_ID\s+DETAILS\.REGION$/);
  });
});
