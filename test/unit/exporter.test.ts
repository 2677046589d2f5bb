import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { list } from '../../src/commands/findings/list.js';
import { wait } from '../../src/commands/scans/wait.js';
import { parseReportSpec } from '../../src/report/report-spec.js';
import { json, verbWorld } from '../helpers/verb.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-exporter-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
function dir(): string {
  const d = join(work, `d${n++}`);
  mkdirSync(d);
  return d;
}

const fs = [
  { id: 'a', severity: 'critical', title: 'T1', resource: 'arn:a', connection_alias: 'prod' },
  { id: 'b', severity: 'low', title: 'T2', resource: 'arn:b', connection_alias: 'prod' },
];
const page = () => json({ total: 2, findings: fs, limit: 1000, offset: 0 });

describe('--output-file', () => {
  it('writes the output to the file instead of stdout, leaving no temporary file', async () => {
    const d = dir();
    const out = join(d, 'findings.json');
    const w = verbWorld([page()], { output: 'json' });
    expect(await w.run(list, { outputFile: out, all: true })).toBe(0);
    expect(w.stdout.text).toBe('');
    expect((JSON.parse(readFileSync(out, 'utf8')) as { id: string }[]).map((x) => x.id)).toStrictEqual([
      'a',
      'b',
    ]);
    expect(readdirSync(d)).toStrictEqual(['findings.json']);
  });

  it('a command that fails leaves the old file as it was', async () => {
    const d = dir();
    const out = join(d, 'findings.csv');
    writeFileSync(out, 'old\n');
    const w = verbWorld(
      [json({ total: 4, findings: fs, limit: 2, offset: 0 }), json({ detail: 'boom' }, 404)],
      { output: 'csv' },
    );
    expect(await w.run(list, { outputFile: out, all: true, limit: 2 })).toBe(5);
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    expect(readdirSync(d)).toStrictEqual(['findings.csv']);
  });
});

describe('--report', () => {
  it('several reports and stdout from one read of the findings', async () => {
    const d = dir();
    const reports = parseReportSpec(
      `junit=${join(d, 'junit.xml')}`,
      parseReportSpec(`sarif=${join(d, 'r.sarif')}`),
    );
    const w = verbWorld([page()], { output: 'ndjson' });
    expect(await w.run(list, { all: true, report: reports })).toBe(0);
    expect(w.requests()).toHaveLength(1);
    expect(w.stdout.text.trim().split('\n')).toHaveLength(2);
    const sarif = JSON.parse(readFileSync(join(d, 'r.sarif'), 'utf8')) as { runs: { results: unknown[] }[] };
    expect(sarif.runs[0]!.results).toHaveLength(2);
    expect(readFileSync(join(d, 'junit.xml'), 'utf8')).toMatch(
      /<testsuites name="cssctl findings" tests="2"/,
    );
  });

  it('a report that cannot be written is exit 1 naming its path; the others are still written', async () => {
    const d = dir();
    mkdirSync(join(d, 'taken.sarif'));
    const reports = [
      { format: 'sarif', path: join(d, 'taken.sarif') },
      { format: 'csv', path: join(d, 'ok.csv') },
    ];
    const w = verbWorld([page()], { output: 'json' });
    expect(await w.run(list, { all: true, report: reports })).toBe(1);
    expect(w.stderr.text).toContain(`taken.sarif: it is not a regular file`);
    expect(readFileSync(join(d, 'ok.csv'), 'utf8').split('\n')).toHaveLength(4);
    expect(JSON.parse(w.stdout.text)).toHaveLength(2);
  });

  it('two reports to one path: exit 2 before any request; a bad spec names what is wrong', async () => {
    const d = dir();
    const w = verbWorld([]);
    const same = [
      { format: 'sarif', path: join(d, 'x') },
      { format: 'junit', path: `${d}/./x` },
    ];
    expect(await w.run(list, { report: same })).toBe(2);
    expect(w.stderr.text).toContain('name the same file');
    const out = verbWorld([]);
    expect(
      await out.run(list, { outputFile: join(d, 'y'), report: [{ format: 'csv', path: join(d, 'y') }] }),
    ).toBe(2);
    expect(() => parseReportSpec('sarif')).toThrow('use <format>=<path>');
    expect(() => parseReportSpec('pdf=x.pdf')).toThrow('unknown format "pdf"');
  });

  it('scans wait: the gate and every report come from one read of the findings', async () => {
    const d = dir();
    const scan = {
      scan_id: 'scn_1',
      status: 'completed',
      connection_alias: 'prod',
      critical_count: 5,
      total_findings: 2,
    };
    const w = verbWorld([json(scan), page()]);
    const reports = [
      { format: 'sarif', path: join(d, 'r.sarif') },
      { format: 'junit', path: join(d, 'j.xml') },
      { format: 'github', path: join(d, 'gh.txt') },
    ];
    expect(await w.run(wait, { failOn: 'high', report: reports }, ['scn_1'])).toBe(10);
    // One read: no limit=1 count (the record's impossible-looking 5 critical is not what decides).
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1', 'GET /findings?limit=1000&scan_id=scn_1']);
    expect(w.stderr.text).toContain('scan scn_1 has 1 finding at or above high: 1 critical (--fail-on high)');
    // stdout keeps the scan summary.
    expect(w.stdout.text).toMatch(/^SCAN\s+scn_1$/m);
    for (const r of reports) expect(existsSync(r.path)).toBe(true);
    expect(readFileSync(join(d, 'gh.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });
});
