// A narrow table never leaves columns out in silence (issue 28 #20): one hint names them and how to see them.
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters as plain } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeList } from '../../src/core/output/index.js';
import { layout } from '../../src/core/output/table.js';
import { IO } from '../../src/core/io.js';
import { findingColumns } from '../../src/report/columns.js';
import { scanColumns } from '../../src/report/scan-fields.js';
import { Collect } from '../helpers/streams.js';

function terminal(columns: number) {
  const stdout = new Collect(true);
  (stdout as unknown as { columns: number }).columns = columns;
  const stderr = new Collect();
  return { io: new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} }), stdout, stderr };
}

const findings = Array.from({ length: 150 }, (_, i) => ({
  id: `fnd_${String(i).padStart(16, '0')}`,
  severity: 'high',
  title: 'Firewall rule allows ingress from 0.0.0.0/0 on every port',
  resource: `projects/acme-prod/global/firewalls/allow-all-${i}`,
  connection_alias: 'staging',
  status: 'open',
}));

describe('columns hidden on a narrow terminal', () => {
  it('findings list at 80 columns: every column, the title and resource cut instead (cli-contract.md §15)', async () => {
    const t = terminal(80);
    await writeList(t.io, findings, {
      format: 'table',
      columns: findingColumns,
      noun: 'findings',
      columnsOption: true,
    });
    const [header, first] = plain(t.stdout.text).split('\n');
    expect(header).toMatch(/^SEVERITY +TITLE +RESOURCE +CONNECTION +STATUS +ID$/);
    // The id whole (findings get and findings ignore need it), the text cut with an ellipsis.
    expect(first).toMatch(/ fnd_0000000000000000$/);
    expect(first).toMatch(/^high +Firewall r\S*… +projects\S*… +staging +open /);
    for (const line of plain(t.stdout.text).trimEnd().split('\n'))
      expect(line.length).toBeLessThanOrEqual(79);
    expect(t.stderr.text).not.toContain('hidden');
  });

  it('the text columns are cut alike, not the widest to its floor at once while the other stays whole', () => {
    // SEVERITY, TITLE, RESOURCE, CONNECTION, STATUS, ID at 79 columns: 25 are left for title and resource.
    const cols = [
      { natural: 8, keep: true },
      { natural: 45, min: 12 },
      { natural: 70, min: 10 },
      { natural: 10, min: 10, drop: 3 },
      { natural: 6, keep: true, drop: 2 },
      { natural: 20, keep: true, drop: 1 },
    ];
    const fit = layout(cols, 79);
    expect(fit.shown).toStrictEqual([0, 1, 2, 3, 4, 5]);
    expect(fit.widths[1]! + fit.widths[2]!).toBe(25);
    expect(Math.abs(fit.widths[1]! - fit.widths[2]!)).toBeLessThanOrEqual(1);
    expect(fit.widths.slice(3)).toStrictEqual([10, 6, 20]);
  });

  it.each([
    [70, ['CONNECTION']],
    [60, ['CONNECTION', 'STATUS']],
    [50, ['CONNECTION', 'STATUS', 'ID']],
  ])('narrower, at %i columns: columns left out in order, the ID last (%j)', async (width, gone) => {
    const t = terminal(width);
    await writeList(t.io, findings, {
      format: 'table',
      columns: findingColumns,
      noun: 'findings',
      columnsOption: true,
    });
    const header = plain(t.stdout.text).split('\n')[0]!.split(/\s+/);
    for (const h of ['CONNECTION', 'STATUS', 'ID']) expect(header.includes(h), h).toBe(!gone.includes(h));
    const n = gone.length;
    expect(t.stderr.text).toContain(`${n} column${n === 1 ? '' : 's'} hidden (${gone.join(', ')})`);
  });

  it('one column, a command without --columns (findings diff): -o wide only', async () => {
    const t = terminal(70);
    await writeList(t.io, findings, { format: 'table', columns: findingColumns, noun: 'findings' });
    expect(t.stderr.text).toContain('1 column hidden (CONNECTION): -o wide to show it');
    expect(t.stderr.text).not.toContain('--columns');
  });

  it('nothing hidden: nothing said — wide enough, -o wide, --columns, or not a terminal', async () => {
    const wide = terminal(240);
    await writeList(wide.io, findings, {
      format: 'table',
      columns: findingColumns,
      noun: 'findings',
      columnsOption: true,
    });
    expect(wide.stderr.text).not.toContain('hidden');
    const all = terminal(80);
    await writeList(all.io, findings, { format: 'wide', columns: findingColumns, noun: 'findings' });
    expect(all.stderr.text).not.toContain('hidden');
    const chosen = terminal(80);
    await writeList(chosen.io, findings, {
      format: 'table',
      columns: findingColumns,
      noun: 'findings',
      chosen: true,
    });
    expect(chosen.stderr.text).not.toContain('hidden');
    const stderr = new Collect();
    const piped = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr }, { env: {} });
    await writeList(piped, findings, { format: 'table', columns: findingColumns, noun: 'findings' });
    expect(stderr.text).not.toContain('hidden');
  });

  it('scans list at 60 columns: RISK and CRITICAL', async () => {
    const t = terminal(60);
    const scans = [
      {
        scan_id: 'scn_0123456789abcdef',
        connection_alias: 'production-eu',
        status: 'completed',
        total_findings: 12,
        critical_count: 1,
        risk_score: 3.7,
        created_at: '2026-11-26T16:34:56Z',
      },
    ];
    await writeList(t.io, scans, {
      format: 'table',
      columns: scanColumns,
      noun: 'scans',
      columnsOption: true,
    });
    expect(t.stderr.text).toMatch(
      /2 columns hidden \((RISK, CRITICAL|CRITICAL, RISK)\): -o wide or --columns/,
    );
  });
});
