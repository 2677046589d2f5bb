import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, lines, received } from './harness.js';
import { interruptWhen } from './interrupt.js';
import { sarifSchemaErrors } from '../helpers/sarif.js';

interface ScanJson {
  scan_id: string;
  status: string;
  connection_alias: string;
  critical_count: number;
  total_findings: number;
}

let w: World;

beforeAll(async () => {
  w = await World.start({
    rateLimit: 100_000,
    scanRateLimit: 100_000,
    findingsPerWorkspace: 200,
    scanStepMs: 300,
  });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '50' };
  for (const alias of ['nocrit-api', 'clean-api']) {
    const res = await w.run(['connections', 'create', '--alias', alias, '--provider', 'aws']);
    expect(res.code, res.stderr).toBe(0);
  }
});
afterAll(() => w.close());

describe('scans', () => {
  it('create prints the new queued scan and how to follow it', async () => {
    const res = await w.run(['scans', 'create', '--connection', 'prod', '--json']);
    expect(res.code).toBe(0);
    const scan = JSON.parse(res.stdout) as ScanJson;
    expect(scan.status).toBe('queued');
    expect(scan.connection_alias).toBe('prod');
    expect(res.stderr).toContain(`cssctl scans wait ${scan.scan_id}`);
    const body = JSON.parse(received(w.sandbox, '/scans', 'POST').at(-1)!.body) as object;
    expect(body).toStrictEqual({ connection_alias: 'prod' });
  });

  it('create --wait: queued → running → completed, a summary on stdout and a clean line on stderr', async () => {
    const res = await w.run(['scans', 'create', '--connection', 'prod', '--wait']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^SCAN\s+scn_\w+$/m);
    expect(res.stdout).toMatch(/^STATUS\s+completed$/m);
    // No spinner or progress off a terminal: the notice of the start, then the summary.
    expect(lines(res.stderr)).toHaveLength(2);
    expect(lines(res.stderr).at(-1)).toMatch(
      /^✓ Scan scn_\w+ completed: \d+ findings \(\d+ critical, \d+ high/,
    );
  });

  it('a scan that fails: exit 9 with the reason', async () => {
    const res = await w.run(['scans', 'create', '--connection', 'legacy-fail', '--wait', '--json']);
    expect(res.code).toBe(9);
    expect((JSON.parse(res.stdout) as ScanJson).status).toBe('failed');
    const err = JSON.parse(lines(res.stderr).at(-1)!) as { error: { detail: string; exit_code: number } };
    expect(err.error.detail).toMatch(/^scan scn_\w+ failed: .*legacy-fail/);
  });

  it('--fail-on critical met through critical_count: exit 10 without asking /findings', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'critical']);
    expect(res.code).toBe(10);
    expect(lines(res.stderr).at(-1)).toMatch(
      /^error: scan scn_\w+ has \d+ findings? at or above critical: \d+ critical \(--fail-on critical\)$/,
    );
    expect(received(w.sandbox, '/findings')).toHaveLength(0);
  });

  it('the exit-10 line counts every severity at or above the threshold, as the step summary does', async () => {
    w.sandbox.clearRequests();
    const summary = join(w.dir, 'exit10.md');
    const res = await w.run(
      ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high', '--json'],
      {
        env: { GITHUB_STEP_SUMMARY: summary },
      },
    );
    expect(res.code).toBe(10);
    const scan = JSON.parse(res.stdout) as ScanJson & { high_count: number };
    const n = scan.critical_count + scan.high_count;
    const err = JSON.parse(lines(res.stderr).at(-1)!) as { error: { detail: string } };
    expect(err.error.detail).toBe(
      `scan ${scan.scan_id} has ${n} findings at or above high: ${scan.critical_count} critical, ${scan.high_count} high (--fail-on high)`,
    );
    expect(readFileSync(summary, 'utf8')).toContain(`met: ${n} findings at or above high (exit 10)`);
    // critical from the scan record, high counted by the service.
    expect(received(w.sandbox, '/findings').map((r) => r.query)).toStrictEqual([
      { scan_id: scan.scan_id, severity: 'high', limit: '1' },
    ]);
  });

  it('--fail-on met only through the per-severity query (no critical, some high): exit 10', async () => {
    w.sandbox.clearRequests();
    const res = await w.run([
      'scans',
      'create',
      '--connection',
      'nocrit-api',
      '--wait',
      '--fail-on',
      'HIGH',
      '--json',
    ]);
    expect(res.code).toBe(10);
    const scan = JSON.parse(res.stdout) as ScanJson;
    expect(scan.critical_count).toBe(0);
    const queries = received(w.sandbox, '/findings').map((r) => r.query);
    expect(queries).toStrictEqual([{ scan_id: scan.scan_id, severity: 'high', limit: '1' }]);
  });

  it('--fail-on not met: exit 0, and the display filter never changes it', async () => {
    const res = await w.run([
      'scans',
      'create',
      '--connection',
      'nocrit-api',
      '--wait',
      '--fail-on',
      'critical',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stderr).at(-1)).toMatch(/none at or above critical/);
    const clean = await w.run([
      'scans',
      'create',
      '--connection',
      'clean-api',
      '--wait',
      '--fail-on',
      'info',
      '--severity',
      'low',
      '-o',
      'sarif',
    ]);
    expect(clean.code, clean.stderr).toBe(0);
    const narrowed = await w.run([
      'scans',
      'create',
      '--connection',
      'nocrit-api',
      '--wait',
      '--fail-on',
      'high',
      '--severity',
      'low',
      '-o',
      'sarif',
    ]);
    expect(narrowed.code).toBe(10);
    const log = JSON.parse(narrowed.stdout) as { runs: { results: { level: string }[] }[] };
    expect(sarifSchemaErrors(log)).toStrictEqual([]);
    expect(log.runs[0]!.results.length).toBeGreaterThan(0);
    expect(new Set(log.runs[0]!.results.map((r) => r.level))).toStrictEqual(new Set(['note']));
  });

  it('-o sarif after a wait: every finding of the scan, valid SARIF', async () => {
    const res = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '-o', 'sarif']);
    expect(res.code, res.stderr).toBe(0);
    const log = JSON.parse(res.stdout) as { runs: { results: unknown[] }[] };
    expect(sarifSchemaErrors(log)).toStrictEqual([]);
    const id = /Started scan (scn_\w+)/.exec(res.stderr)![1]!;
    const scan = JSON.parse((await w.run(['scans', 'get', id, '--json'])).stdout) as ScanJson;
    expect(log.runs[0]!.results).toHaveLength(scan.total_findings);
  });

  it('--wait-timeout passes: exit 9 naming the command that resumes; scans wait then finishes it', async () => {
    const res = await w.run([
      'scans',
      'create',
      '--connection',
      'prod',
      '--wait',
      '--wait-timeout',
      '0.1',
      '--fail-on',
      'critical',
    ]);
    expect(res.code).toBe(9);
    // The deadline can fall between two polls or during one ("--wait-timeout: no answer from … before the
    // deadline"): either way the line ends with the command that resumes.
    const m =
      /\(--wait-timeout(?:: no answer from [^)]* before the deadline)?\); resume with: (cssctl scans wait (scn_\w+) --wait-timeout 0\.1 --fail-on critical)$/.exec(
        lines(res.stderr).at(-1)!,
      );
    expect(m, res.stderr).not.toBeNull();
    const done = await w.run(['scans', 'wait', m![2]!, '--fail-on', 'critical']);
    expect(done.code).toBe(10);
  });

  it('Ctrl-C during a wait: exit 130 and the exact scans wait command', async () => {
    const slow = await World.start({ scanStepMs: 60_000 });
    try {
      await slow.login('acme');
      const res = await interruptWhen(
        ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high', '-o', 'sarif'],
        { ...slow.env, CSSCTL_POLL_BASE_MS: '50' },
        () => received(slow.sandbox, '/scans/', 'GET').length >= 2,
      );
      expect(res.code).toBe(130);
      const id = /scn_\w+/.exec(res.stderr)![0];
      expect(lines(res.stderr).at(-1)).toBe(
        `error: interrupted; resume with: cssctl scans wait ${id} --fail-on high -o sarif`,
      );
    } finally {
      await slow.close();
    }
  });

  it('list (newest first, by status, paginated) and get', async () => {
    const failed = JSON.parse(
      (await w.run(['scans', 'list', '--status', 'failed', '--all', '--json'])).stdout,
    ) as ScanJson[];
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed.every((s) => s.status === 'failed')).toBe(true);
    const all = JSON.parse(
      (await w.run(['scans', 'list', '--all', '--limit', '3', '--json'])).stdout,
    ) as ScanJson[];
    expect(new Set(all.map((s) => s.scan_id)).size).toBe(all.length);
    const table = await w.run(['scans', 'list', '--limit', '2']);
    expect(lines(table.stdout)[0]).toMatch(/^SCAN\s+CONNECTION\s+STATUS/);
    expect(table.stderr).toContain(`Showing 1–2 of ${all.length}`);
    const one = await w.run(['scans', 'get', all[0]!.scan_id]);
    expect(one.stdout).toMatch(new RegExp(`^SCAN\\s+${all[0]!.scan_id}$`, 'm'));
  });

  it('every record format: scans get and scans wait in table, json, ndjson, csv; scans list in csv and ndjson', async () => {
    const listed = JSON.parse(
      (await w.run(['scans', 'list', '--status', 'completed', '--limit', '1', '--json'])).stdout,
    ) as ScanJson[];
    const id = listed[0]!.scan_id;
    for (const verb of ['get', 'wait']) {
      const json = await w.run(['scans', verb, id, '--json']);
      expect(json.code, json.stderr).toBe(0);
      const scan = JSON.parse(json.stdout) as ScanJson;
      expect(scan.scan_id).toBe(id);
      const nd = await w.run(['scans', verb, id, '-o', 'ndjson']);
      expect(lines(nd.stdout)).toHaveLength(1);
      expect(JSON.parse(nd.stdout)).toStrictEqual(scan);
      const csv = lines((await w.run(['scans', verb, id, '-o', 'csv'])).stdout);
      expect(csv[0]!.startsWith('scan_id,connection_alias,provider,status,')).toBe(true);
      expect(csv[1]!.startsWith(`${id},${scan.connection_alias},`)).toBe(true);
      const table = await w.run(['scans', verb, id]);
      expect(table.stdout).toMatch(new RegExp(`^SCAN\\s+${id}\n`));
    }
    const csv = lines((await w.run(['scans', 'list', '--limit', '3', '-o', 'csv'])).stdout);
    expect(csv[0]).toBe(
      'scan_id,connection_alias,status,total_findings,critical_count,risk_score,created_at',
    );
    expect(csv).toHaveLength(4);
    const nd = lines((await w.run(['scans', 'list', '--limit', '3', '-o', 'ndjson'])).stdout);
    expect(nd.map((l) => (JSON.parse(l) as ScanJson).scan_id)).toHaveLength(3);
  });

  it('an unknown connection or scan is exit 5', async () => {
    const conn = await w.run(['scans', 'create', '--connection', 'nope']);
    expect(conn.code).toBe(5);
    expect(errorLine(conn)).toMatch(/no connection with alias "nope"/);
    for (const verb of ['get', 'wait']) {
      const res = await w.run(['scans', verb, 'scn_missing']);
      expect(res.code, verb).toBe(5);
      expect(errorLine(res)).toMatch(/scn_missing/);
    }
  });

  it('bad input: exit 2, one line, no request', async () => {
    w.sandbox.clearRequests();
    const cases: [string[], RegExp][] = [
      [['create', '--connection', 'prod', '--wait', '--wait-timeout', '0'], /seconds above 0/],
      [['create', '--connection', 'prod', '--wait', '--wait-timeout', 'soon'], /seconds above 0/],
      [['wait', 'scn_1', '--wait-timeout', '-5'], /seconds above 0/],
      [
        ['wait', 'scn_1', '--fail-on', 'severe'],
        /unknown severity "severe": use critical, high, medium, low, info/,
      ],
      [['create', '--connection', 'prod', '--wait', '--severity', 'meh'], /unknown severity "meh"/],
      [['create', '--connection', 'prod', '--fail-on', 'high'], /--fail-on needs --wait/],
      [['create', '--connection', 'prod', '-o', 'sarif'], /-o sarif needs --wait/],
      [['create', '--connection', ' '], /--connection must not be empty/],
      [['get', 'a/b'], /invalid scan id/],
      [['list', '--limit', '0'], /positive whole number/],
      [['get', 'scn_1', '-o', 'sarif'], /-o sarif is not available for "scans get"/],
    ];
    for (const [args, msg] of cases) {
      const res = await w.run(['scans', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(errorLine(res)).toMatch(msg);
    }
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

it('polls calmly: a long wait backs off instead of polling at a fixed rate', async () => {
  w.sandbox.clearRequests();
  const slow = await World.start({ scanStepMs: 1_500 });
  try {
    await slow.login('acme');
    const res = await slow.run(['scans', 'create', '--connection', 'prod', '--wait'], {
      env: { CSSCTL_POLL_BASE_MS: '100' },
    });
    expect(res.code, res.stderr).toBe(0);
    const polls = received(slow.sandbox, '/scans/', 'GET').map((r) => r.time);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
    // 100, 150, 225, 337, 506, 750 (cap) …: 3 s of scan in well under 15 polls, gaps growing.
    expect(polls.length).toBeLessThan(15);
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]! * 2);
  } finally {
    await slow.close();
  }
});
