// The findings verbs (list, get, summary, diff, ignore) through their run functions, with a scripted service.
// More of them: verbs.test.ts (findings list --scan, items that are not objects), fingerprint.test.ts (get),
// diff.test.ts (diff in every format, latest, files), ignore.test.ts (the ignore file, findings ignore),
// exporter.test.ts (--output-file, --report).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings-types.js';
import { diff } from '../../src/commands/findings/diff.js';
import { get } from '../../src/commands/findings/get.js';
import { ignore, type IgnoreCommandOptions } from '../../src/commands/findings/ignore.js';
import { list } from '../../src/commands/findings/list.js';
import { summary } from '../../src/commands/findings/summary.js';
import { fingerprintOf } from '../../src/report/fingerprint.js';
import { failureOf, findingOf, json, verbWorld } from '../helpers/verb.js';

const dir = mkdtempSync(join(tmpdir(), 'cssctl-findings-verb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A new empty folder for one test. */
const folder = (): string => mkdtempSync(join(dir, 'd-'));

const f = (id: string, severity: string, over: Record<string, unknown> = {}) => ({
  ...findingOf(id, severity),
  rule_id: `rule-${id}`,
  ...over,
});

/** A page of findings as the service answers: total, the items, the limit and offset echoed. */
const page = (findings: unknown[], total = findings.length, limit = 50, offset = 0) =>
  json({ total, findings, limit, offset });

describe('findings list', () => {
  it('table: severity, title, resource, connection, id; a hint with the next offset on stderr', async () => {
    const w = verbWorld([page([f('a', 'high'), f('b', 'low')], 1234, 2)]);
    expect(await w.run(list, { limit: 2, ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings?limit=2']);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'SEVERITY  TITLE    RESOURCE        CONNECTION  ID',
      'high      Title a  arn:aws:s3:::a  prod        a',
      'low       Title b  arn:aws:s3:::b  prod        b',
    ]);
    expect(w.stderr.text).toBe('Showing 1–2 of 1,234 — use --all or --offset 2\n');
  });

  it('several severities: one query each, merged most severe first, each finding once', async () => {
    const w = verbWorld(
      [
        page([f('c1', 'critical'), f('x', 'critical')], 2, 3),
        page([f('x', 'critical'), f('l1', 'low')], 2, 1),
      ],
      { output: 'json' },
    );
    // Commander gives them most severe first (collectSeverities).
    expect(await w.run(list, { severity: ['critical', 'low'], ignore: false })).toBe(0);
    // Without --limit the first answer's limit (the service's own page size, 3) is the merged page's size:
    // low is asked for what is left of it.
    expect(w.requests()).toStrictEqual([
      'GET /findings?severity=critical',
      'GET /findings?limit=1&severity=low',
    ]);
    expect((JSON.parse(w.stdout.text) as { id: string }[]).map((x) => x.id)).toStrictEqual(['c1', 'x', 'l1']);
    // x came back for low too: left out as a finding of another severity, with a warning.
    expect(w.stderr.text).toBe(
      'warning: the service answered severity=low with findings of another severity; they are left out\n',
    );
  });

  it('--all over several severities: every page of each, one after the other', async () => {
    const w = verbWorld(
      [
        page([f('h1', 'high'), f('h2', 'high')], 3, 2),
        page([f('h3', 'high')], 3, 2, 2),
        page([f('m1', 'medium')], 1, 2),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(list, { severity: ['high', 'medium'], all: true, limit: 2, ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=2&severity=high',
      'GET /findings?limit=2&offset=2&severity=high',
      'GET /findings?limit=2&severity=medium',
    ]);
    expect(
      w.stdout.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toStrictEqual(['h1', 'h2', 'h3', 'm1']);
  });

  it('--scan is sent as scan_id; -o csv: a header, then a row per finding, formulas neutralised', async () => {
    const w = verbWorld([page([f('a', 'high', { title: '=HYPERLINK("x")' })], 1)], { output: 'csv' });
    expect(await w.run(list, { scan: ' scn_1 ', ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings?scan_id=scn_1']);
    const [header, row] = w.stdout.text.trimEnd().split('\n');
    expect(header!.split(',').slice(0, 3)).toStrictEqual(['severity', 'title', 'resource']);
    // A cell a spreadsheet would run as a formula starts with a quote.
    expect(row).toContain(`'=HYPERLINK(""x"")`);
  });

  it('an unknown column: exit 2 naming the closest known one, after the first page and before any output', async () => {
    // Any field the items carry is a column (cli-contract.md §14): the names are checked against the first page.
    const w = verbWorld([page([f('a', 'high')], 1)]);
    const err = await failureOf(w.ctx, list, { ignore: false, columns: 'severity,titel' });
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(/titel.*did you mean "?title"?/);
    expect(w.ctx.sent).toHaveLength(1);
    expect(w.stdout.text).toBe('');
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['an empty --scan', { scan: ' ' }, 'table', /^--scan must not be empty$/],
    [
      'two reports to one path',
      {
        report: [
          { format: 'sarif', path: '/tmp/x' },
          { format: 'junit', path: '/tmp/x' },
        ],
      },
      'table',
      /\/tmp\/x/,
    ],
  ])('%s: exit 2 before any request', async (_, o, output, message) => {
    const w = verbWorld([], { output });
    const err = await failureOf(w.ctx, list, { ignore: false, ...o });
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(w.ctx.sent).toHaveLength(0);
  });

  it.each([
    [401, 3],
    [403, 4],
    [422, 7],
  ])('the service answers %i: exit %i, nothing on stdout', async (status, code) => {
    const w = verbWorld([json({ detail: `answer ${status}`, field: 'severity' }, status)], {
      output: 'json',
    });
    expect(await w.run(list, { ignore: false })).toBe(code);
    expect(w.stdout.text).toBe('');
    expect(w.stderr.text).toContain(`answer ${status}`);
  });
});

describe('findings get', () => {
  const one = f('fnd_1', 'high', { scan_id: 'scn_1', description: 'A bucket anyone can read' });

  it('GET /findings/{id}: one field a line, the fingerprint among them', async () => {
    const w = verbWorld([json(one)]);
    expect(await w.run(get, {}, [' fnd_1 '])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings/fnd_1']);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ID           fnd_1',
      'SEVERITY     high',
      'TITLE        Title fnd_1',
      'RESOURCE     arn:aws:s3:::fnd_1',
      'CONNECTION   prod',
      'SCAN         scn_1',
      'RULE         rule-fnd_1',
      `FINGERPRINT  ${fingerprintOf(one as Finding)}`,
      'DESCRIPTION  A bucket anyone can read',
    ]);
  });

  it.each([['a/b'], ['?x'], ['..'], ['']])('an id such as %j: exit 2 before any request', async (id) => {
    const w = verbWorld([]);
    expect(await w.run(get, {}, [id])).toBe(2);
    expect(w.sent).toHaveLength(0);
  });

  it('an unknown id: exit 5', async () => {
    const w = verbWorld([json({ detail: 'finding "fnd_x" not found', code: 'not_found' }, 404)]);
    expect(await w.run(get, {}, ['fnd_x'])).toBe(5);
    expect(w.stdout.text).toBe('');
    expect(w.stderr.text).toContain('fnd_x');
  });
});

describe('findings summary', () => {
  const totals = (...counts: number[]) => counts.map((total) => json({ total, findings: [], limit: 1 }));

  it('--by severity (the default): one request per severity, limit=1, reading total; -o json the counts', async () => {
    const w = verbWorld(totals(1, 4, 0, 10, 2), { output: 'json' });
    expect(await w.run(summary, { ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=1&severity=critical',
      'GET /findings?limit=1&severity=high',
      'GET /findings?limit=1&severity=medium',
      'GET /findings?limit=1&severity=low',
      'GET /findings?limit=1&severity=info',
    ]);
    const out = JSON.parse(w.stdout.text) as {
      by: string;
      total: number;
      groups: { key: string; count: number }[];
    };
    expect(out.by).toBe('severity');
    expect(out.total).toBe(17);
    expect(out.groups.map((g) => [g.key, g.count])).toStrictEqual([
      ['low', 10],
      ['high', 4],
      ['info', 2],
      ['critical', 1],
      ['medium', 0],
    ]);
  });

  it('--scan narrows each count to the scan', async () => {
    const w = verbWorld(totals(0, 1, 0, 0, 0), { output: 'json' });
    expect(await w.run(summary, { scan: 'scn_1', ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(
      ['critical', 'high', 'medium', 'low', 'info'].map(
        (s) => `GET /findings?limit=1&severity=${s}&scan_id=scn_1`,
      ),
    );
    expect(JSON.parse(w.stdout.text)).toMatchObject({ total: 1 });
  });

  it('table: a bar per row, largest first, scaled to the width', async () => {
    const w = verbWorld(totals(1, 4, 0, 10, 2), { env: { LANG: 'C' } });
    expect(await w.run(summary, { ignore: false })).toBe(0);
    const lines = w.stdout.text.trimEnd().split('\n');
    const rows = lines.filter((l) => /^(critical|high|medium|low|info)\b/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toStrictEqual(['low', 'high', 'info', 'critical', 'medium']);
    const bar = (l: string) => (l.match(/#+/)?.[0] ?? '').length;
    expect(bar(rows[0]!)).toBeGreaterThan(bar(rows[1]!));
    expect(bar(rows[1]!)).toBeGreaterThan(bar(rows[3]!));
    expect(bar(rows[4]!)).toBe(0);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('--by connection reads every finding, streaming; --scan and --severity narrow each query', async () => {
    const w = verbWorld(
      [
        page([f('a', 'high'), f('b', 'high', { connection_alias: 'dev' })], 2, 1000),
        page([f('c', 'low')], 1, 1000),
      ],
      { output: 'json' },
    );
    expect(
      await w.run(summary, { by: 'connection', scan: 'scn_1', severity: ['high', 'low'], ignore: false }),
    ).toBe(0);
    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=1000&severity=high&scan_id=scn_1',
      'GET /findings?limit=1000&severity=low&scan_id=scn_1',
    ]);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      by: 'connection',
      total: 3,
      groups: [
        { key: 'prod', count: 2, by_severity: { critical: 0, high: 1, medium: 0, low: 1, info: 0 } },
        { key: 'dev', count: 1, by_severity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 } },
      ],
    });
  });

  it('--scan with no findings: the scan must exist (exit 5), never an empty summary', async () => {
    const w = verbWorld([...totals(0, 0, 0, 0, 0), json({ detail: 'scan "scn_x" not found' }, 404)]);
    expect(await w.run(summary, { scan: 'scn_x', ignore: false })).toBe(5);
    expect(w.requests().at(-1)).toBe('GET /scans/scn_x');
    expect(w.stdout.text).toBe('');
  });

  it('an answer without total cannot be counted: exit 1, never a zero', async () => {
    const w = verbWorld([...totals(1, 1, 1, 1), json({ findings: [], limit: 1 })]);
    expect(await w.run(summary, { ignore: false })).toBe(1);
    expect(w.stderr.text).toBe(
      'error: the service did not give a total for info findings; cannot count them\n',
    );
    expect(w.stdout.text).toBe('');
  });

  it('an empty --scan: exit 2 before any request', async () => {
    const w = verbWorld([]);
    expect(await w.run(summary, { scan: '', ignore: false })).toBe(2);
    expect(w.sent).toHaveLength(0);
  });
});

describe('findings diff', () => {
  function write(name: string, items: unknown[]): string {
    const path = join(folder(), name);
    writeFileSync(path, JSON.stringify(items));
    return path;
  }
  const base = () =>
    write('base.json', [
      f('a1', 'high', { resource: 'x', rule_id: 'r1' }),
      f('a2', 'low', { resource: 'y', rule_id: 'r2' }),
      f('a3', 'medium', { resource: 'z', rule_id: 'r3' }),
    ]);
  const head = () =>
    write('head.json', [
      f('b1', 'critical', { resource: 'x', rule_id: 'r1' }),
      f('b2', 'low', { resource: 'y', rule_id: 'r2' }),
      f('b3', 'high', { resource: 'n', rule_id: 'r4' }),
    ]);

  it('two files, no request: a table with STATE first — new, updated, fixed, unchanged — then the counts on stderr', async () => {
    const w = verbWorld([]);
    expect(await w.run(diff, { base: base(), head: head(), ignore: false })).toBe(0);
    expect(w.sent).toHaveLength(0);
    const rows = w.stdout.text.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^STATE +SEVERITY +PREVIOUS +TITLE +RESOURCE +CONNECTION +ID +FINGERPRINT$/);
    expect(rows.slice(1).map((r) => r.split(/\s+/).slice(0, 3))).toStrictEqual([
      ['new', 'high', 'Title'],
      ['updated', 'critical', 'high'],
      ['fixed', 'medium', 'Title'],
      ['unchanged', 'low', 'Title'],
    ]);
    expect(w.stderr.text).toBe('1 new, 1 updated, 1 fixed, 1 unchanged\n');
  });

  it('csv: state and fingerprint first; --state narrows what is shown, never the counts', async () => {
    const w = verbWorld([], { output: 'csv' });
    expect(await w.run(diff, { base: base(), head: head(), state: ['new', 'fixed'], ignore: false })).toBe(0);
    const lines = w.stdout.text.trimEnd().split('\n');
    expect(lines[0]!.split(',').slice(0, 2)).toStrictEqual(['state', 'fingerprint']);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toStrictEqual(['new', 'fixed']);
    expect(lines[1]!.split(',')[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(w.stderr.text).toBe('1 new, 1 updated, 1 fixed, 1 unchanged\n');
  });

  it('--fail-on: a new finding or one that rose to it is exit 10, naming what met it', async () => {
    const w = verbWorld([], { output: 'json' });
    expect(await w.run(diff, { base: base(), head: head(), failOn: 'critical', ignore: false })).toBe(10);
    expect(w.stderr.text.trimEnd().split('\n').at(-1)).toMatch(
      /^error: .* has 1 new or raised finding at or above critical: 1 critical \(--fail-on critical\)$/,
    );
    // The output is complete all the same.
    expect((JSON.parse(w.stdout.text) as unknown[]).length).toBe(4);
  });

  it.each<[string, () => { base: string; head: string }, RegExp]>([
    ['--head latest', () => ({ base: 'scn_1', head: 'latest' }), /--head/],
    [
      'a base file that does not exist',
      () => ({ base: join(dir, 'nope.json'), head: 'scn_2' }),
      /nope\.json/,
    ],
    [
      'a head file that is not JSON, ndjson or SARIF',
      () => {
        const head = join(folder(), 'h.json');
        writeFileSync(head, 'garbage');
        return { base: 'scn_1', head };
      },
      /h\.json:1: not JSON, ndjson or a SARIF log/,
    ],
  ])('%s: exit 2 before any request', async (_, refs, message) => {
    const w = verbWorld([]);
    const err = await failureOf(w.ctx, diff, { ...refs(), ignore: false });
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(w.ctx.sent).toHaveLength(0);
  });
});

describe('findings ignore', () => {
  it('looks each finding up (GET /findings/{id}) and appends one entry per fingerprint, with a comment; says so on stderr', async () => {
    const d = folder();
    const one = f('fnd_1', 'high');
    // fnd_3 is the same problem on the same resource as fnd_1 (another scan's finding): one fingerprint.
    const same = f('fnd_3', 'high', { resource: one.resource, rule_id: one.rule_id });
    const w = verbWorld([json(one), json(f('fnd_2', 'low')), json(same)], { cwd: d });
    const code = await w.run(ignore, { reason: 'Public by design (SEC-1)', expires: '2027-03-31' }, [
      'fnd_1',
      'fnd_2',
      'fnd_1',
      'fnd_3',
    ]);
    // fnd_1 named twice is asked for once; fnd_3 has fnd_1's fingerprint: no second entry.
    expect(code, w.stderr.text).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings/fnd_1', 'GET /findings/fnd_2', 'GET /findings/fnd_3']);
    const text = readFileSync(join(d, '.cssctl-ignore.yaml'), 'utf8');
    expect(text.startsWith('version: 1\n')).toBe(true);
    expect(text.match(/- fingerprint:/g)).toHaveLength(2);
    expect(text).toContain(`fingerprint: ${fingerprintOf(one as Finding)}`);
    expect(text).toContain('# Title fnd_1 — arn:aws:s3:::fnd_1 (finding fnd_1)');
    expect(text).toContain('expires: 2027-03-31');
    expect(text).toContain('Public by design (SEC-1)');
    expect(w.stderr.text).toBe('✓ Added 2 entries to .cssctl-ignore.yaml (expires 2027-03-31)\n');
    expect(w.stdout.text).toBe('');
  });

  it('the default expiry is 90 days from now; --ignore-file names another file', async () => {
    const d = folder();
    const path = join(d, 'accepted.yaml');
    const w = verbWorld([json(f('fnd_1', 'high'))], { cwd: d });
    expect(await w.run(ignore, { reason: 'r', ignoreFile: path }, ['fnd_1'])).toBe(0);
    // The fake clock says 2026-11-22: 90 days on is 2027-02-20.
    expect(readFileSync(path, 'utf8')).toContain('expires: 2027-02-20');
  });

  it.each<[string, IgnoreCommandOptions, string[], RegExp]>([
    ['no --reason', {}, ['fnd_1'], /--reason is required/],
    ['a blank --reason', { reason: '  ' }, ['fnd_1'], /--reason is required/],
    ['a bad --expires', { reason: 'r', expires: 'soon' }, ['fnd_1'], /--expires/],
    ['an id with a slash', { reason: 'r' }, ['a/b'], /invalid finding id "a\/b"/],
  ])('%s: exit 2 before any request, no file written', async (_, o, ids, message) => {
    const d = folder();
    const w = verbWorld([], { cwd: d });
    const err = await failureOf(w.ctx, ignore, o, ids);
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(w.ctx.sent).toHaveLength(0);
    expect(() => readFileSync(join(d, '.cssctl-ignore.yaml'))).toThrow();
  });

  it('an unknown finding: exit 5, and nothing written for the others either', async () => {
    const d = folder();
    const w = verbWorld([json(f('fnd_1', 'high')), json({ detail: 'finding "nope" not found' }, 404)], {
      cwd: d,
    });
    expect(await w.run(ignore, { reason: 'r' }, ['fnd_1', 'nope'])).toBe(5);
    expect(() => readFileSync(join(d, '.cssctl-ignore.yaml'))).toThrow();
  });
});
