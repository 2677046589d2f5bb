// A narrow table never leaves columns out in silence (issue 28 #20): one hint names them and how to see them.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeList } from '../../src/core/output/index.js';
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
  it('findings list at 80 columns: STATUS and ID hidden, said once after the rows, with -o wide or --columns', async () => {
    const t = terminal(80);
    await writeList(t.io, findings, {
      format: 'table',
      columns: findingColumns,
      noun: 'findings',
      columnsOption: true,
    });
    const header = t.stdout.text.split('\n')[0]!;
    expect(header).not.toMatch(/STATUS|\bID\b/);
    const hints = t.stderr.text.split('\n').filter((l) => /hidden/.test(l));
    expect(hints).toStrictEqual(['2 columns hidden (STATUS, ID): -o wide or --columns to show them']);
  });

  it('one column, a command without --columns (findings diff): -o wide only', async () => {
    const t = terminal(100);
    await writeList(t.io, findings, { format: 'table', columns: findingColumns, noun: 'findings' });
    expect(t.stderr.text).toContain('1 column hidden (ID): -o wide to show it');
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
