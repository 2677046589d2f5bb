// What tables say of scans and of fixed findings (issue 28 #21): a failed scan's counts are —, never 0 (which
// reads as a clean scan); the risk has one decimal everywhere; a fixed finding never reads as open. csv and
// json keep the service's values.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { diff } from '../../src/commands/findings/diff.js';
import { get as scansGet } from '../../src/commands/scans/get.js';
import { IO } from '../../src/core/io.js';
import { writeList } from '../../src/core/output/index.js';
import { scanColumns } from '../../src/report/scan-fields.js';
import { finding } from '../helpers/report.js';
import { Collect } from '../helpers/streams.js';
import { json, verbWorld } from '../helpers/verb.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-scan-table-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const scans = [
  {
    scan_id: 'scn_a',
    connection_alias: 'prod',
    status: 'completed',
    total_findings: 12,
    critical_count: 1,
    risk_score: 3,
  },
  {
    scan_id: 'scn_b',
    connection_alias: 'dev',
    status: 'completed',
    total_findings: 9,
    critical_count: 0,
    risk_score: 3.75,
  },
  {
    scan_id: 'scn_c',
    connection_alias: 'legacy-fail',
    status: 'failed',
    total_findings: 0,
    critical_count: 0,
    risk_score: 0,
  },
];

async function render(format: string): Promise<string[]> {
  const stdout = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr: new Collect() }, { env: {} });
  await writeList(io, scans, { format, columns: scanColumns, noun: 'scans' });
  return stdout.text.trimEnd().split('\n');
}

describe('scans in a table', () => {
  it('scans list: — for a failed scan, the risk with one decimal; csv keeps the service values', async () => {
    const rows = (await render('table')).map((r) => r.trim().split(/\s{2,}/));
    expect(rows[0]).toStrictEqual(['SCAN', 'CONNECTION', 'STATUS', 'FINDINGS', 'CRITICAL', 'RISK']);
    expect(rows[1]!.slice(3)).toStrictEqual(['12', '1', '3.0']);
    expect(rows[2]!.slice(3)).toStrictEqual(['9', '0', '3.8']);
    expect(rows[3]!.slice(3)).toStrictEqual(['—', '—', '—']);
    const csv = await render('csv');
    expect(csv[1]).toBe('scn_a,prod,completed,12,1,3,');
    expect(csv[3]).toBe('scn_c,legacy-fail,failed,0,0,0,');
  });

  it('scans get: the same in the one-record view; json keeps the values', async () => {
    const failed = verbWorld([json({ ...scans[2], high_count: 0 })]);
    await failed.run(scansGet, {}, ['scn_c']);
    expect(failed.stdout.text).toMatch(/^FINDINGS\s+—$/m);
    expect(failed.stdout.text).toMatch(/^HIGH\s+—$/m);
    expect(failed.stdout.text).toMatch(/^RISK SCORE\s+—$/m);
    const done = verbWorld([json(scans[0])]);
    await done.run(scansGet, {}, ['scn_a']);
    expect(done.stdout.text).toMatch(/^RISK SCORE\s+3\.0$/m);
    const asJson = verbWorld([json(scans[2])], { output: 'json' });
    await asJson.run(scansGet, {}, ['scn_c']);
    expect(JSON.parse(asJson.stdout.text)).toMatchObject({ total_findings: 0, risk_score: 0 });
  });
});

describe('findings diff: a fixed finding never reads as open', () => {
  it('its STATUS is — in a table; csv keeps the base data', async () => {
    const base = join(work, 'base.ndjson');
    const head = join(work, 'head.ndjson');
    writeFileSync(
      base,
      `${JSON.stringify(finding({ id: 'a1', resource: 'gone', status: 'open' }))}\n${JSON.stringify(finding({ id: 'a2', resource: 'kept', status: 'open' }))}\n`,
    );
    writeFileSync(head, `${JSON.stringify(finding({ id: 'b2', resource: 'kept', status: 'open' }))}\n`);
    const table = verbWorld([], { output: 'table' });
    expect(await table.run(diff, { base, head, ignore: false })).toBe(0);
    const rows = table.stdout.text
      .trimEnd()
      .split('\n')
      .map((r) => r.trim().split(/\s{2,}/));
    const status = rows[0]!.indexOf('STATUS');
    expect(status).toBeGreaterThan(0);
    expect(rows.find((r) => r[0] === 'fixed')![status]).toBe('—');
    expect(rows.find((r) => r[0] === 'unchanged')![status]).toBe('open');
    const csv = verbWorld([], { output: 'csv' });
    await csv.run(diff, { base, head, ignore: false });
    expect(csv.stdout.text.split('\n').find((l) => l.startsWith('fixed,'))).toContain(',open,');
  });
});
