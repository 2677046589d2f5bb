// Drives a CI report formatter (src/commands/findings/formats/) without a command: findings in, stdout and
// stderr text out.
import { PassThrough } from 'node:stream';
import type { Finding } from '../../src/api/findings-types.js';
import type { ReportFormatterFactory, ReportOptions } from '../../src/report/formats/buckets.js';
import { IO } from '../../src/core/io.js';
import { Collect } from './streams.js';

/** Text from the service at its worst: every character class a format has to carry or escape. */
export const NASTY =
  '50% off: a,b "dq" \'sq\' <tag> & &amp; ]]> --\nline2\r\nline3\ttab \u001b[31mred\u001b[0m bell\u0007 nul\u0000 ' +
  'del\u007f c1\u0085\u009b é 漢字 😀 \u202eRTL\u202c \ufffe end';

export function finding(over: Partial<Finding> & { id: string }): Finding {
  return {
    severity: 'high',
    title: 'S3 bucket allows public read access',
    resource: `arn:aws:s3:::acme-data-${over.id}`,
    connection_alias: 'prod',
    scan_id: 'scn_1',
    status: 'open',
    ...over,
  };
}

export async function runReport(
  factory: ReportFormatterFactory,
  findings: Iterable<Finding>,
  options: ReportOptions = {},
  complete = true,
): Promise<{ out: string; err: string; count: number }> {
  const stdout = new Collect();
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} });
  const chunks: string[] = [];
  const fmt = factory({ io, write: (s) => chunks.push(s), columns: [], noun: 'findings' }, options);
  let count = 0;
  for (const f of findings) {
    await fmt.item(f);
    count++;
  }
  await fmt.end({ complete, count });
  return { out: chunks.join(''), err: stderr.text, count };
}

/** `n` findings of mixed severities, in id order (not sorted by severity, as a scan report reads them). */
export function* manyFindings(n: number): Generator<Finding> {
  const sev = ['low', 'critical', 'medium', 'info', 'high', 'medium', 'low'];
  for (let i = 0; i < n; i++) {
    yield finding({
      id: `fnd_${String(i).padStart(6, '0')}`,
      severity: sev[i % sev.length]!,
      title: [
        'S3 bucket allows public read access',
        'Root account has active access keys',
        'SQL server auditing is off',
      ][i % 3]!,
    });
  }
}
