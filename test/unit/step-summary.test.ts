import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Scan } from '../../src/api/findings-types.js';
import { SeverityBuckets } from '../../src/report/formats/buckets.js';
import { OTHER } from '../../src/report/severity.js';
import {
  appendStepSummary,
  formatDuration,
  renderStepSummary,
  stepSummaryPath,
  writeStepSummary,
} from '../../src/report/step-summary.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-summary-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SCAN: Scan = {
  scan_id: 'scn_42',
  connection_alias: 'prod',
  status: 'completed',
  created_at: '2026-11-23T01:00:00Z',
  started_at: '2026-11-23T01:00:05Z',
  completed_at: '2026-11-23T01:02:10Z',
  total_findings: 1234,
  critical_count: 2,
};

/** The second cell of the first Markdown table row whose first cell is `key`. */
function row(md: string, key: string): string | undefined {
  return md
    .split('\n')
    .find((l) => l.startsWith(`| ${key} |`))
    ?.slice(key.length + 5, -2);
}

describe('step summary', () => {
  it('renders scan, connection, status, duration, counts by severity and the verdict', () => {
    const md = renderStepSummary({
      scan: SCAN,
      counts: { high: 10, medium: 1000, low: 200, info: 22, critical: 99 },
      gate: { failOn: 'high', met: true },
    });
    expect(md.startsWith('\n### cssctl scan scn\\_42\n')).toBe(true);
    expect(row(md, 'Scan')).toBe('scn\\_42');
    expect(row(md, 'Connection')).toBe('prod');
    expect(row(md, 'Status')).toBe('completed');
    expect(row(md, 'Duration')).toBe('2m 05s');
    // The gate's counts win over the scan record's (the exit-10 line gives the same numbers).
    expect(row(md, 'critical')).toBe('99');
    expect(row(md, 'high')).toBe('10');
    expect(row(md, 'medium')).toBe('1,000');
    expect(row(md, '**total**')).toBe('**1,234**');
    expect(row(md, 'Gate')).toBe('❌ `--fail-on high` met: 109 findings at or above high (exit 10)');
  });

  it('every verdict: none, passed, met without counts, failed scan, timed-out wait', () => {
    const gate = (s: Parameters<typeof renderStepSummary>[0]) => row(renderStepSummary(s), 'Gate');
    expect(gate({ scan: SCAN })).toBe('none (no `--fail-on`)');
    expect(gate({ scan: SCAN, gate: { failOn: 'critical', met: false } })).toBe(
      '✅ `--fail-on critical` passed: no findings at or above critical',
    );
    expect(gate({ scan: { scan_id: 's', status: 'completed' }, gate: { failOn: 'low', met: true } })).toBe(
      '❌ `--fail-on low` met: findings at or above low (exit 10)',
    );
    const failed = renderStepSummary({
      scan: {
        scan_id: 's',
        status: 'failed',
        error: 'provider rejected | the <b>credentials</b>\nfor "prod"',
      },
      gate: { failOn: 'high', met: false },
    });
    expect(row(failed, 'Gate')).toBe('`--fail-on high` not decided: the scan failed (exit 9)');
    expect(row(failed, 'Error')).toBe('provider rejected \\| the \\<b\\>credentials\\</b\\> for "prod"');
    expect(row(failed, 'Duration')).toBe('—');
    const errored = renderStepSummary({
      scan: { scan_id: 's', status: 'error' },
      failed: true,
      gate: { failOn: 'high', met: false },
    });
    expect(row(errored, 'Gate')).toBe('`--fail-on high` not decided: the scan failed (exit 9)');
    expect(row(failed, 'critical')).toBe('—');
    const timedOut = renderStepSummary({
      scan: { scan_id: 's', status: 'running' },
      gate: { failOn: 'high', met: false },
      timedOut: true,
      waitedMs: 3_723_000,
    });
    expect(row(timedOut, 'Status')).toBe('running (the wait timed out)');
    expect(row(timedOut, 'Duration')).toBe('1h 02m 03s (waited)');
    expect(row(timedOut, 'Gate')).toBe('`--fail-on high` not decided: the wait timed out (exit 9)');
  });

  it('service text cannot break the table, inject HTML or drive a terminal', () => {
    const md = renderStepSummary({
      scan: {
        ...SCAN,
        scan_id: 'a|b',
        connection_alias: '<img src=x onerror=alert(1)> *x* [l](u)\r\n| z \u001b[31m',
      },
    });
    const line = md.split('\n').find((l) => l.startsWith('| Connection |'))!;
    expect(row(md, 'Connection')).toBe(
      '\\<img src=x onerror=alert\\(1\\)\\> \\*x\\* \\[l\\]\\(u\\) \\| z \\\\u001b\\[31m',
    );
    // one row: the only unescaped pipes are the three of the row itself
    expect(line.replace(/\\\|/g, '').match(/\|/g)).toHaveLength(3);
    // eslint-disable-next-line no-control-regex
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('appends and never truncates what earlier steps wrote', async () => {
    const file = join(work, 'summary.md');
    writeFileSync(file, '## Build\n\nearlier step, no final newline');
    expect(await appendStepSummary(file, { scan: SCAN })).toBe(true);
    expect(await appendStepSummary(file, { scan: { ...SCAN, scan_id: 'scn_43' } })).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('## Build\n\nearlier step, no final newline\n### cssctl scan scn\\_42\n')).toBe(
      true,
    );
    expect(text.indexOf('scn\\_43')).toBeGreaterThan(text.indexOf('scn\\_42'));
    // A file that does not exist yet is created.
    const fresh = join(work, 'fresh.md');
    expect(await appendStepSummary(fresh, { scan: SCAN })).toBe(true);
    expect(readFileSync(fresh, 'utf8')).toBe(renderStepSummary({ scan: SCAN }));
  });

  it('a write failure is a warning, not a crash', async () => {
    const dir = join(work, 'a-directory');
    mkdirSync(dir);
    const warnings: string[] = [];
    expect(await appendStepSummary(dir, { scan: SCAN }, (m) => warnings.push(m))).toBe(false);
    expect(warnings).toStrictEqual([
      `did not append the step summary to ${dir} ($GITHUB_STEP_SUMMARY): it is a folder, not a regular file`,
    ]);
    expect(
      await appendStepSummary(join(work, 'missing/dir/f.md'), { scan: SCAN }, (m) => warnings.push(m)),
    ).toBe(false);
    expect(warnings[1]).toMatch(
      /could not append the step summary to .*f\.md \(\$GITHUB_STEP_SUMMARY\): ENOENT$/,
    );
  });

  it('a FIFO is never opened (no reader would block the process for ever): a warning', async () => {
    const fifo = join(work, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const warnings: string[] = [];
    expect(await appendStepSummary(fifo, { scan: SCAN }, (m) => warnings.push(m))).toBe(false);
    expect(warnings).toStrictEqual([
      `did not append the step summary to ${fifo} ($GITHUB_STEP_SUMMARY): it is a FIFO, not a regular file`,
    ]);
    const dev = '/dev/null';
    expect(await appendStepSummary(dev, { scan: SCAN }, (m) => warnings.push(m))).toBe(false);
    expect(warnings[1]).toContain('it is a device, not a regular file');
  });

  it('expired ignore entries are listed under the table', () => {
    const md = renderStepSummary({
      scan: SCAN,
      ignored: [1, 0, 0, 0, 0],
      warnings: ['.cssctl-ignore.yaml:12: expired on 2026-10-01 (Static | bucket); 3 findings count again'],
    });
    expect(md).toContain('| Severity | Findings | Ignored |');
    expect(md).toContain('| critical | 2 | 1 |');
    // The scan's 1,234 findings: 1,233 that count and 1 accepted, each column with its own total.
    expect(md).toContain('| **total** | **1,233** | **1** |');
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      '- ⚠️ \\.cssctl\\-ignore\\.yaml:12: expired on 2026\\-10\\-01 \\(Static \\| bucket\\); 3 findings count again',
    );
  });

  it('counts that cannot be true never reach the summary', () => {
    const md = renderStepSummary({
      scan: { ...SCAN, critical_count: -1, high_count: 2.5, medium_count: 3, total_findings: -7 },
    });
    expect(row(md, 'critical')).toBe('—');
    expect(row(md, 'high')).toBe('—');
    expect(row(md, 'medium')).toBe('3');
    expect(row(md, '**total**')).toBeUndefined();
  });

  it('$GITHUB_STEP_SUMMARY decides where; --no-step-summary turns it off', async () => {
    const file = join(work, 'env.md');
    expect(stepSummaryPath({ GITHUB_STEP_SUMMARY: file }, {})).toBe(file);
    expect(stepSummaryPath({ GITHUB_STEP_SUMMARY: file }, { stepSummary: true })).toBe(file);
    expect(stepSummaryPath({ GITHUB_STEP_SUMMARY: file }, { stepSummary: false })).toBeUndefined();
    expect(stepSummaryPath({ GITHUB_STEP_SUMMARY: '' }, {})).toBeUndefined();
    expect(stepSummaryPath({}, {})).toBeUndefined();
    const warnings: string[] = [];
    const ctx = { env: { GITHUB_STEP_SUMMARY: file }, io: { warn: (m: string) => warnings.push(m) } };
    await writeStepSummary(ctx, { stepSummary: false }, { scan: SCAN });
    expect(readdirSync(work)).not.toContain('env.md');
    await writeStepSummary(ctx, {}, { scan: SCAN });
    expect(readFileSync(file, 'utf8')).toContain('scn\\_42');
    await writeStepSummary({ ...ctx, env: { GITHUB_STEP_SUMMARY: work } }, {}, { scan: SCAN });
    expect(warnings).toHaveLength(1);
  });

  it('durations', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(60_000)).toBe('1m 00s');
    expect(formatDuration(7_261_000)).toBe('2h 01m 01s');
  });
});

describe('severity buckets', () => {
  it('read back most severe first in insertion order; spill to a private folder that close() removes', () => {
    const tmp = mkdtempSync(join(work, 'buckets-'));
    const b = new SeverityBuckets({ spillBytes: 100, tmpDir: tmp });
    const expected: string[][] = Array.from({ length: OTHER + 1 }, () => []);
    for (let i = 0; i < 200; i++) {
      const bucket = (i * 7) % (OTHER + 1);
      const s = `${i}:é漢😀\n`;
      b.add(bucket, s);
      expected[bucket]!.push(s);
    }
    expect(b.spilled).toBe(true);
    const [dir] = readdirSync(tmp);
    expect(dir).toMatch(/^cssctl-report-/);
    for (let k = 0; k <= OTHER; k++) expect([...b.read(k)].join('')).toBe(expected[k]!.join(''));
    b.close();
    b.close();
    expect(readdirSync(tmp)).toStrictEqual([]);
  });

  it('an unusable temporary folder: one warning that names it, and the report stays whole in memory', () => {
    const warnings: string[] = [];
    const missing = join(work, 'no-such-tmp');
    const b = new SeverityBuckets({ spillBytes: 100, tmpDir: missing, warn: (m) => warnings.push(m) });
    const expected: string[] = [];
    for (let i = 0; i < 200; i++) {
      b.add(i % 2, `${i}\n`);
      if (i % 2 === 1) expected.push(`${i}\n`);
    }
    expect(b.spilled).toBe(false);
    expect([...b.read(1)].join('')).toBe(expected.join(''));
    expect(warnings).toStrictEqual([
      `cannot use the temporary folder ${missing} for this large report (ENOENT); keeping it in memory instead (set TMPDIR to a writable folder)`,
    ]);
    b.close();
  });

  it('small reports stay in memory: no temporary files', () => {
    const tmp = mkdtempSync(join(work, 'buckets-'));
    const b = new SeverityBuckets({ tmpDir: tmp });
    b.add(2, 'x');
    expect(b.spilled).toBe(false);
    expect([...b.read(2)]).toStrictEqual(['x']);
    b.close();
    expect(readdirSync(tmp)).toStrictEqual([]);
  });
});
