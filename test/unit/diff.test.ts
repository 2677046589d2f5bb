import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings-types.js';
import { diff } from '../../src/commands/findings/diff.js';
import { BaseIndex, DIFF, compare, diffOf, type DiffFinding, type DiffInfo } from '../../src/report/diff.js';
import { countsForGate } from '../../src/report/gate.js';
import { fingerprintOf } from '../../src/report/fingerprint.js';
import { readFindingsFile } from '../../src/report/sources/file.js';
import { finding, runReport } from '../helpers/report.js';
import { json, verbWorld } from '../helpers/verb.js';
import { sarif } from '../../src/report/formats/sarif.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-diff-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(work, name);
  writeFileSync(p, text);
  return p;
}

async function run(base: Finding[], head: Finding[]): Promise<DiffFinding[]> {
  const index = new BaseIndex();
  for (const f of base) index.add(f);
  const out: DiffFinding[] = [];
  for await (const f of compare(
    index,
    (async function* () {
      yield* head;
    })(),
  ))
    out.push(f);
  return out;
}

const f = (id: string, severity: string, resource: string, rule = 'r1') =>
  finding({ id, severity, resource, rule_id: rule });

describe('diff: states', () => {
  it('new, updated (with previous_severity), unchanged, fixed (with the base data)', async () => {
    const out = await run(
      [f('a1', 'high', 'x'), f('a2', 'low', 'y'), f('a3', 'medium', 'z')],
      [f('b1', 'critical', 'x'), f('b2', 'low', 'y'), f('b4', 'high', 'w')],
    );
    expect(out.map((x) => [x.id, x.state, x.previous_severity])).toStrictEqual([
      ['b1', 'updated', 'high'],
      ['b2', 'unchanged', undefined],
      ['b4', 'new', undefined],
      ['a3', 'fixed', undefined],
    ]);
    expect(out[3]).toMatchObject({
      id: 'a3',
      severity: 'medium',
      resource: 'z',
      fingerprint: fingerprintOf(out[3]!),
    });
    expect(diffOf(out[0])?.state).toBe('updated');
    // The marker is not a field: json never shows it.
    expect(Object.keys(out[0]!)).not.toContain('Symbol(cssctl.diff)');
  });

  it('why a finding is new: new-rule, new-resource, other', async () => {
    const out = await run(
      [f('a1', 'high', 'x', 'r1'), f('a2', 'high', 'y', 'r2')],
      [f('b1', 'high', 'x', 'r3'), f('b2', 'high', 'q', 'r1'), f('b3', 'high', 'y', 'r1')],
    );
    expect(out.filter((x) => x.state === 'new').map((x) => [x.id, x.why])).toStrictEqual([
      ['b1', 'new-rule'],
      ['b2', 'new-resource'],
      ['b3', 'other'],
    ]);
  });

  it('a fingerprint that occurs n times is matched occurrence by occurrence, same severity first', async () => {
    const out = await run(
      [f('a1', 'high', 'x'), f('a2', 'low', 'x'), f('a3', 'low', 'x')],
      [f('b1', 'low', 'x'), f('b2', 'high', 'x')],
    );
    expect(out.map((x) => x.state)).toStrictEqual(['unchanged', 'unchanged', 'fixed']);
    const more = await run([f('a1', 'high', 'x')], [f('b1', 'high', 'x'), f('b2', 'high', 'x')]);
    expect(more.map((x) => x.state)).toStrictEqual(['unchanged', 'new']);
  });

  it('--fail-on is met only by new findings at or above it, or updated ones that rose to it', () => {
    const g = (severity: string, info: DiffInfo) =>
      countsForGate(
        Object.defineProperty(finding({ id: 'x', severity }), DIFF, { value: info, enumerable: false }),
        'high',
      );
    expect(g('high', { state: 'new', fingerprint: '' })).toBe(true);
    expect(g('medium', { state: 'new', fingerprint: '' })).toBe(false);
    expect(g('high', { state: 'updated', fingerprint: '', previous_severity: 'low' })).toBe(true);
    expect(g('critical', { state: 'updated', fingerprint: '', previous_severity: 'high' })).toBe(false);
    expect(g('critical', { state: 'unchanged', fingerprint: '' })).toBe(false);
    expect(g('critical', { state: 'fixed', fingerprint: '' })).toBe(false);
  });
});

describe('diff: properties', () => {
  const arbFinding = fc.record({
    rule: fc.constantFrom('r1', 'r2', 'r3'),
    resource: fc.constantFrom('x', 'y', 'z', 'w'),
    severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info'),
  });
  const toFindings = (xs: { rule: string; resource: string; severity: string }[], prefix: string) =>
    xs.map((x, i) =>
      finding({ id: `${prefix}${i}`, rule_id: x.rule, resource: x.resource, severity: x.severity }),
    );

  it('each head finding gets exactly one state; every base occurrence missing from the head is fixed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbFinding, { maxLength: 30 }),
        fc.array(arbFinding, { maxLength: 30 }),
        async (b, h) => {
          const base = toFindings(b, 'b');
          const head = toFindings(h, 'h');
          const out = await run(base, head);
          const heads = out.filter((x) => x.state !== 'fixed');
          expect(heads.map((x) => x.id)).toStrictEqual(head.map((x) => x.id));
          // Occurrence counting: per fingerprint, matched = min(base, head); fixed = base - matched.
          const count = (xs: Finding[]) => {
            const m = new Map<string, number>();
            for (const x of xs) m.set(fingerprintOf(x), (m.get(fingerprintOf(x)) ?? 0) + 1);
            return m;
          };
          const cb = count(base);
          const ch = count(head);
          for (const [fp, nb] of cb) {
            const nh = ch.get(fp) ?? 0;
            const fixed = out.filter((x) => x.state === 'fixed' && x.fingerprint === fp).length;
            expect(fixed).toBe(Math.max(0, nb - nh));
            const matched = heads.filter((x) => x.fingerprint === fp && x.state !== 'new').length;
            expect(matched).toBe(Math.min(nb, nh));
          }
          for (const x of heads.filter((y) => y.state === 'new')) {
            const nb = cb.get(x.fingerprint) ?? 0;
            expect(nb).toBeLessThan(ch.get(x.fingerprint)!);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('diff: files', () => {
  const ndjson = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
  async function read(path: string): Promise<Finding[]> {
    const out: Finding[] = [];
    for await (const x of readFindingsFile(path)) out.push(x);
    return out;
  }

  it('a json array, ndjson, and a SARIF log cssctl wrote (fingerprints from cssctlFindingHash/v1)', async () => {
    const fs = [f('a', 'high', 'x'), f('b', 'low', 'y')];
    expect(await read(file('a.json', JSON.stringify(fs, null, 2)))).toStrictEqual(fs);
    expect(await read(file('a.ndjson', ndjson(fs)))).toStrictEqual(fs);
    const { out } = await runReport(sarif, fs);
    const back = await read(file('a.sarif', out));
    expect(back.map(fingerprintOf).sort()).toStrictEqual(fs.map(fingerprintOf).sort());
    expect(back.map((x) => x.severity).sort()).toStrictEqual(['high', 'low']);
  });

  it('a file that is none of these: exit 2 naming the file and the line', async () => {
    const bad = file('bad.ndjson', ndjson([f('a', 'high', 'x')]) + '{"id": oops}\n');
    await expect(read(bad)).rejects.toThrow(`${bad}:2: not a JSON value`);
    const text = file('notes.json', 'hello\n');
    expect(() => readFindingsFile(text)).toThrow(`${text}:1: not JSON, ndjson or a SARIF log`);
    const broken = file('broken.json', '[\n  {"id": "a"},\n  {"id": \n]\n');
    await expect(read(broken)).rejects.toThrow(new RegExp(`${broken}:4: not valid JSON`));
    const other = file(
      'other.sarif',
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'trivy' } } }] }),
    );
    await expect(read(other)).rejects.toThrow('a SARIF log that cssctl did not write');
    expect(() => readFindingsFile(join(work, 'missing.json'))).toThrow('no such file');
    const fifo = join(work, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => readFindingsFile(fifo)).toThrow('not a regular file');
  });

  it('a list answer of the service saved on one line is not one finding; a UTF-8 byte order mark is no error', async () => {
    // `cssctl api /findings | jq -c . > base.json`: one line, one object, no finding's fields.
    const answer = file('answer.json', JSON.stringify({ total: 1, findings: [f('a', 'high', 'x')] }) + '\n');
    await expect(read(answer)).rejects.toThrow(`${answer}:1: not a finding: an object with no id`);
    const wrapped = file('wrapped.json', JSON.stringify([{ items: [] }]));
    await expect(read(wrapped)).rejects.toThrow(`${wrapped}: item 1 is not a finding: it has no id`);
    // PowerShell's and some editors' UTF-8 files start with a BOM: each kind of file reads as without one.
    const fs = [f('a', 'high', 'x'), f('b', 'low', 'y')];
    expect(await read(file('bom.json', `\uFEFF${JSON.stringify(fs, null, 2)}`))).toStrictEqual(fs);
    expect(await read(file('bom.ndjson', `\uFEFF${ndjson(fs)}`))).toStrictEqual(fs);
    const { out } = await runReport(sarif, fs);
    expect(await read(file('bom.sarif', `\uFEFF${out}`))).toHaveLength(2);
  });
});

describe('-o html: the verdict is the gate of the command', () => {
  it('scans wait --severity narrows the rows, never the verdict: failed as the exit code says', async () => {
    const { wait } = await import('../../src/commands/scans/wait.js');
    const scan = {
      scan_id: 'scn_1',
      status: 'completed',
      connection_alias: 'prod',
      critical_count: 1,
      total_findings: 2,
    };
    const w = verbWorld([json(scan), json({ total: 1, findings: [f('l1', 'low', 'x')] })], {
      output: 'html',
    });
    expect(await w.run(wait, { failOn: 'critical', severity: ['low'], ignore: false }, ['scn_1'])).toBe(10);
    expect(w.requests()).toStrictEqual([
      'GET /scans/scn_1',
      'GET /findings?limit=1000&severity=low&scan_id=scn_1',
    ]);
    expect(w.stdout.text).toContain(
      '<span class="verdict fail">failed</span> 1 finding at or above critical',
    );
  });
});

describe('findings diff (verb)', () => {
  it('-o html: the verdict is the gate — an unchanged or fallen finding at or above --fail-on never fails it', async () => {
    const nd = (xs: Finding[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
    const base = file('v-base.ndjson', nd([f('a1', 'critical', 'x'), f('a2', 'critical', 'y')]));
    // x unchanged critical, y fell to high: the gate is not met at high (exit 0).
    const head = file('v-head.ndjson', nd([f('b1', 'critical', 'x'), f('b2', 'high', 'y')]));
    const w = verbWorld([], { output: 'html' });
    expect(await w.run(diff, { base, head, failOn: 'high', ignore: false })).toBe(0);
    expect(w.stdout.text).toContain(
      '<span class="verdict pass">passed</span> nothing new or raised at or above high',
    );
    // A new high and one that rose to it meet it: two, as the exit-10 line counts them.
    const rose = file(
      'v-rose.ndjson',
      nd([f('c1', 'critical', 'x'), f('c2', 'high', 'z'), f('c3', 'low', 'q')]),
    );
    const raised = file(
      'v-raised.ndjson',
      nd([f('a1', 'critical', 'x'), f('c3', 'high', 'q'), f('c4', 'high', 'n')]),
    );
    const met = verbWorld([], { output: 'html' });
    expect(await met.run(diff, { base: rose, head: raised, failOn: 'high', ignore: false })).toBe(10);
    expect(met.stdout.text).toContain(
      '<span class="verdict fail">failed</span> 2 new or raised findings at or above high',
    );
  });

  const scan = (id: string, over: Record<string, unknown> = {}) => ({
    scan_id: id,
    connection_alias: 'prod',
    status: 'completed',
    created_at: '2026-11-20T00:00:00Z',
    ...over,
  });

  it('an answer about another scan than the one asked for is exit 1 naming it, never compared', async () => {
    const w = verbWorld([json(scan('scn_9'))], { output: 'json' });
    expect(await w.run(diff, { base: 'latest', head: 'scn_2', ignore: false })).toBe(1);
    expect(w.stderr.text).toContain(
      '--head: the service answered about scan scn_9 when asked for scan scn_2',
    );
    expect(w.requests()).toStrictEqual(['GET /scans/scn_2']);
    const b = verbWorld([json(scan('scn_2')), json(scan('scn_8'))], { output: 'json' });
    expect(await b.run(diff, { base: 'scn_1', head: 'scn_2', ignore: false })).toBe(1);
    expect(b.stderr.text).toContain(
      '--base: the service answered about scan scn_8 when asked for scan scn_1',
    );
  });

  it('two scans: the head is checked final, the base read whole, the head streamed; exit 10 for a new high', async () => {
    const base = [f('a1', 'high', 'x'), f('a2', 'low', 'y')];
    const head = [f('b1', 'high', 'x'), f('b3', 'high', 'new')];
    const w = verbWorld(
      [
        json(scan('scn_2')),
        json(scan('scn_1')),
        json({ total: 2, findings: base, limit: 1000, offset: 0 }),
        json({ total: 2, findings: head, limit: 1000, offset: 0 }),
      ],
      { output: 'json' },
    );
    expect(await w.run(diff, { base: 'scn_1', head: 'scn_2', failOn: 'high' })).toBe(10);
    expect(w.requests()).toStrictEqual([
      'GET /scans/scn_2',
      'GET /scans/scn_1',
      'GET /findings?limit=1000&scan_id=scn_1',
      'GET /findings?limit=1000&scan_id=scn_2',
    ]);
    const out = JSON.parse(w.stdout.text) as { id: string; state: string }[];
    expect(out.map((x) => [x.id, x.state])).toStrictEqual([
      ['b1', 'unchanged'],
      ['b3', 'new'],
      ['a2', 'fixed'],
    ]);
    expect(w.stderr.text).toContain('1 new, 0 updated, 1 fixed, 1 unchanged');
    expect(w.stderr.text).toContain(
      'scan scn_2 has 1 new or raised finding at or above high: 1 high (--fail-on high)',
    );
  });

  it('a head that is not final: exit 2 with a hint to wait; an unknown scan: exit 5', async () => {
    const w = verbWorld([json(scan('scn_2', { status: 'running' }))]);
    expect(await w.run(diff, { base: 'scn_1', head: 'scn_2' })).toBe(2);
    expect(w.stderr.text).toContain('--head scan scn_2 is still running');
    const gone = verbWorld([json({ detail: 'scan not found' }, 404)]);
    expect(await gone.run(diff, { base: 'scn_1', head: 'scn_nope' })).toBe(5);
  });

  it('latest: the newest completed scan of the head connection before it, over every page, in any order', async () => {
    const scans = [
      scan('scn_old', { created_at: '2026-11-01T00:00:00Z' }),
      scan('scn_other', { connection_alias: 'dev', created_at: '2026-11-19T00:00:00Z' }),
      scan('scn_after', { created_at: '2026-11-21T00:00:00Z' }),
      scan('scn_best', { created_at: '2026-11-18T00:00:00Z' }),
    ];
    const w = verbWorld(
      [
        json(scan('scn_2')),
        // The service caps pages at 2 and lists in no useful order.
        json({ total: 4, scans: scans.slice(0, 2), limit: 2, offset: 0 }),
        json({ total: 4, scans: scans.slice(2), limit: 2, offset: 2 }),
        json({ total: 1, findings: [f('a1', 'high', 'x')] }),
        json({ total: 1, findings: [f('b1', 'high', 'x')] }),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(diff, { base: 'latest', head: 'scn_2' })).toBe(0);
    expect(w.requests()[3]).toBe('GET /findings?limit=1000&scan_id=scn_best');
    expect(JSON.parse(w.stdout.text)).toMatchObject({ id: 'b1', state: 'unchanged' });
  });

  it('latest with no earlier scan: a notice, and every finding is new', async () => {
    const w = verbWorld(
      [
        json(scan('scn_2')),
        json({ total: 0, scans: [] }),
        json({ total: 1, findings: [f('b1', 'high', 'x')] }),
      ],
      {
        output: 'ndjson',
      },
    );
    expect(await w.run(diff, { base: 'latest', head: 'scn_2' })).toBe(0);
    expect(w.stderr.text).toContain(
      'no completed scan of connection prod before scn_2: every finding is new',
    );
    expect(JSON.parse(w.stdout.text)).toMatchObject({ state: 'new' });
  });

  it('a bad base file is exit 2 before any request', async () => {
    const bad = file('bad-base.json', 'nope');
    const w = verbWorld([]);
    expect(await w.run(diff, { base: bad, head: 'scn_2' })).toBe(2);
    expect(w.requests()).toStrictEqual([]);
  });
});

describe('diff: in each report format', () => {
  async function items(): Promise<DiffFinding[]> {
    return run(
      [f('a1', 'low', 'x'), f('a2', 'low', 'y'), f('a3', 'medium', 'z')],
      [f('b1', 'high', 'x'), f('b2', 'low', 'y'), f('b4', 'critical', 'w')],
    );
  }

  it('sarif: the head only, each with baselineState; a fixed finding is absent', async () => {
    const { out } = await runReport(sarif, await items());
    const results = (
      JSON.parse(out) as {
        runs: { results: { baselineState: string; properties: Record<string, string> }[] }[];
      }
    ).runs[0]!.results;
    expect(results.map((r) => [r.properties['finding-id'], r.baselineState]).sort()).toStrictEqual([
      ['b1', 'updated'],
      ['b2', 'unchanged'],
      ['b4', 'new'],
    ]);
  });

  it('junit: failures only for new and updated at or above --fail-on; the rest pass; fixed left out', async () => {
    const { junit } = await import('../../src/report/formats/junit.js');
    const all = await runReport(junit, await items());
    expect(all.out).toMatch(/<testsuites name="cssctl findings" tests="3" failures="2"/);
    const gated = await runReport(junit, await items(), { failOn: 'critical' });
    expect(gated.out).toMatch(/tests="3" failures="1"/);
    expect(gated.out).not.toContain('a3');
  });

  it('github: annotations for new and updated only, then one notice with the four counts', async () => {
    const { github } = await import('../../src/report/formats/github.js');
    const { out } = await runReport(github, await items());
    expect(out.split('\n').filter(Boolean)).toStrictEqual([
      expect.stringMatching(/^::error title=.*::critical \(new\): w /),
      expect.stringMatching(/^::error title=.*::high \(updated from low\): x /),
      '::notice::cssctl findings diff: 1 new, 1 updated, 1 fixed, 1 unchanged',
    ]);
  });
});

describe('json error lines', () => {
  it('valid JSON has none; the first bad character is found', async () => {
    const { jsonErrorLine } = await import('../../src/report/sources/json-error.js');
    fc.assert(fc.property(fc.json(), (text) => jsonErrorLine(text) === undefined));
    expect(jsonErrorLine('{\n"a": 1,\n"b": tru\n}')).toBe(3);
    expect(jsonErrorLine('[1,\n2,\n]')).toBe(3);
    expect(jsonErrorLine('[1] x')).toBe(1);
  });
});

describe('findings diff: a table in a --report', () => {
  it('is sorted new, updated, fixed, unchanged, as on stdout', async () => {
    const base = file(
      'rb.ndjson',
      [f('a1', 'low', 'x'), f('a2', 'low', 'y'), f('a3', 'low', 'z')]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const head = file(
      'rh.ndjson',
      [f('b1', 'low', 'x'), f('b2', 'high', 'y'), f('b4', 'low', 'w')]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const out = join(work, 'diff-table.txt');
    const w = verbWorld([], { output: 'json' });
    expect(await w.run(diff, { base, head, report: [{ format: 'table', path: out }] })).toBe(0);
    const states = readFileSync(out, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[0]);
    expect(states).toStrictEqual(['new', 'updated', 'fixed', 'unchanged']);
  });
});
