// scans create, list, get and wait through their run functions, with a scripted service and a fake clock (the
// polls' waits pass at once). More of `scans wait` is in verbs.test.ts (counts it cannot trust, statuses it does
// not know), deadline.test.ts (--wait-timeout), exporter.test.ts (--report) and ignore.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { create } from '../../src/commands/scans/create.js';
import { get } from '../../src/commands/scans/get.js';
import { list } from '../../src/commands/scans/list.js';
import { wait } from '../../src/commands/scans/wait.js';
import type { Reply } from '../helpers/fake-send.js';
import { bodyOf, failureOf, json, verbWorld } from '../helpers/verb.js';

const dir = mkdtempSync(join(tmpdir(), 'cssctl-scans-verb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scan = (over: Record<string, unknown> = {}) => ({
  scan_id: 'scn_1',
  connection_alias: 'prod',
  provider: 'aws',
  status: 'queued',
  created_at: '2026-11-22T11:59:00Z',
  ...over,
});

const completed = (over: Record<string, unknown> = {}) =>
  scan({
    status: 'completed',
    total_findings: 3,
    critical_count: 1,
    high_count: 2,
    medium_count: 0,
    low_count: 0,
    info_count: 0,
    risk_score: 7.5,
    ...over,
  });

const finding = (id: string, severity: string) => ({
  id,
  severity,
  title: `Title ${id}`,
  resource: `arn:aws:s3:::${id}`,
  connection_alias: 'prod',
  rule_id: `rule-${id}`,
});

describe('scans create', () => {
  it('POST /scans {connection_alias}; the new scan on stdout, a success line and how to follow it on stderr', async () => {
    const w = verbWorld([json(scan(), 201)], { argv: ['scans', 'create', '--connection', 'prod'] });
    expect(await w.run(create, { connection: ' prod ' })).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /scans']);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ connection_alias: 'prod' });
    expect(w.sent[0]!.req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'SCAN        scn_1',
      'CONNECTION  prod',
      'PROVIDER    aws',
      'STATUS      queued',
      'CREATED     2026-11-22 11:59',
    ]);
    expect(w.stderr.text).toBe(
      '✓ Started scan scn_1 of connection prod\nFollow it with: cssctl scans wait scn_1\n',
    );
  });

  it('-o json: the scan as the service gave it', async () => {
    const w = verbWorld([json(scan(), 201)], { output: 'json' });
    expect(await w.run(create, { connection: 'prod' })).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual(scan());
  });

  it.each<[string, Record<string, unknown>, string | undefined, string]>([
    ['--fail-on', { failOn: 'high' }, undefined, '--fail-on needs --wait'],
    [
      '--wait-timeout and --severity',
      { waitTimeout: 5, severity: ['high'] },
      undefined,
      '--wait-timeout, --severity needs --wait',
    ],
    ['--baseline', { baseline: 'latest' }, undefined, '--baseline needs --wait'],
    ['-o sarif', {}, 'sarif', '-o sarif needs --wait'],
    ['an empty --connection', { connection: ' ' }, undefined, '--connection must not be empty'],
  ])('%s without what it needs: exit 2 before any request', async (_, o, output, message) => {
    const w = verbWorld([], { output });
    expect(await w.run(create, { connection: 'prod', ...o })).toBe(2);
    expect(w.stderr.text).toBe(`error: ${message}\n`);
    expect(w.sent).toHaveLength(0);
  });

  it.each([
    [404, 5],
    [422, 7],
  ])('the service answers %i: exit %i, no scan started', async (status, code) => {
    const w = verbWorld([json({ detail: 'connection "nope" not found', code: 'x' }, status)]);
    expect(await w.run(create, { connection: 'nope' })).toBe(code);
    expect(w.stderr.text).toContain('connection "nope" not found');
    expect(w.stderr.text).not.toContain('Started');
    expect(w.stdout.text).toBe('');
  });

  it('rate limited (POST /scans: 10 a minute): waits until the reset and sends it again, with the same Idempotency-Key', async () => {
    const reset = Math.floor(Date.UTC(2026, 10, 22, 12, 0, 20) / 1000);
    const w = verbWorld([
      {
        status: 429,
        headers: {
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        },
        body: JSON.stringify({ detail: 'rate limited' }),
      },
      json(scan(), 201),
    ]);
    expect(await w.run(create, { connection: 'prod' })).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /scans', 'POST /scans']);
    expect(w.sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(w.sent[1]!.req.headers['idempotency-key']).toBe(w.sent[0]!.req.headers['idempotency-key']);
    expect(w.stderr.text).toMatch(/rate limit/i);
  });

  it.each(['sarif', 'junit', 'github'])(
    '--wait, -o %s, on a connection whose scan fails: nothing on stdout, exit 9',
    async (output) => {
      const w = verbWorld([json(scan(), 201), json(scan({ status: 'failed', error: 'no access' }))], {
        output,
        argv: ['scans', 'create', '--connection', 'prod', '--wait', '-o', output],
      });
      expect(await w.run(create, { connection: 'prod', wait: true })).toBe(9);
      expect(w.stdout.text).toBe('');
      expect(w.requests()).toStrictEqual(['POST /scans', 'GET /scans/scn_1']);
      expect(w.stderr.text.trimEnd().split('\n').at(-1)).toBe('error: scan scn_1 failed: no access');
    },
  );

  it('--wait: polls the new scan until it is final, prints its summary; --fail-on met is exit 10 naming the counts', async () => {
    const w = verbWorld([json(scan(), 201), json(scan({ status: 'running' })), json(completed())], {
      argv: ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'critical'],
    });
    expect(await w.run(create, { connection: 'prod', wait: true, failOn: 'critical' })).toBe(10);
    expect(w.requests()).toStrictEqual(['POST /scans', 'GET /scans/scn_1', 'GET /scans/scn_1']);
    // Backing off: the first look after the base interval, then 1.5× longer.
    expect(w.clock.sleeps).toStrictEqual([1000, 1500]);
    expect(w.stdout.text).toMatch(/^STATUS +completed$/m);
    expect(w.stderr.text.trimEnd().split('\n')).toStrictEqual([
      '✓ Started scan scn_1 of connection prod',
      '✓ Scan scn_1 completed: 3 findings (1 critical, 2 high, 0 medium, 0 low, 0 info); waited 2.5s',
      'error: scan scn_1 has 1 finding at or above critical: 1 critical (--fail-on critical)',
    ]);
  });

  it('--wait, Ctrl-C while waiting: exit 130 with the scans wait command that resumes', async () => {
    const w = verbWorld(
      [
        json(scan(), 201),
        () => {
          w.ctx.abort();
          return json(scan({ status: 'running' })) as { status: number; body: string };
        },
      ],
      { argv: ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high'] },
    );
    expect(await w.run(create, { connection: 'prod', wait: true, failOn: 'high' })).toBe(130);
    expect(w.stderr.text).toContain('interrupted; resume with: cssctl scans wait scn_1 --fail-on high');
    expect(w.stdout.text).toBe('');
  });
});

describe('scans list', () => {
  const page = (scans: unknown[], total = scans.length) => json({ total, scans, limit: 50, offset: 0 });

  it('table: scan, connection, status, counts, risk, date; a hint when there are more', async () => {
    const w = verbWorld([page([completed(), scan({ scan_id: 'scn_2', status: 'running' })], 7)]);
    expect(await w.run(list, {})).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans']);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'SCAN   CONNECTION  STATUS     FINDINGS  CRITICAL  RISK  CREATED',
      'scn_1  prod        completed  3         1         7.5   2026-11-22 11:59',
      'scn_2  prod        running                              2026-11-22 11:59',
    ]);
    expect(w.stderr.text).toBe('Showing 1–2 of 7 — use --all or --offset 2\n');
  });

  it('--status (any case), --limit and --offset are sent; -o json is the array', async () => {
    const w = verbWorld([page([completed()])], { output: 'json' });
    expect(await w.run(list, { status: ' Completed', limit: 10, offset: 20 })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans?limit=10&offset=20&status=completed']);
    expect(JSON.parse(w.stdout.text)).toStrictEqual([completed()]);
  });

  it('--all: every page', async () => {
    const w = verbWorld(
      [
        json({ total: 2, scans: [completed()], limit: 1, offset: 0 }),
        json({ total: 2, scans: [scan({ scan_id: 'scn_2' })], limit: 1, offset: 1 }),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(list, { all: true, limit: 1 })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans?limit=1', 'GET /scans?limit=1&offset=1']);
    expect(
      w.stdout.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { scan_id: string }).scan_id),
    ).toStrictEqual(['scn_1', 'scn_2']);
  });

  it('an unknown --status: exit 2 naming the four, before any request', async () => {
    const w = verbWorld([]);
    expect(await w.run(list, { status: 'done' })).toBe(2);
    expect(w.stderr.text).toBe(
      'error: invalid --status "done": use one of queued, running, completed, failed\n',
    );
    expect(w.sent).toHaveLength(0);
  });

  it('403: exit 4', async () => {
    const w = verbWorld([json({ detail: 'not a member of acme' }, 403)]);
    expect(await w.run(list, {})).toBe(4);
    expect(w.stderr.text).toContain('not a member of acme');
  });
});

describe('scans get', () => {
  it('GET /scans/{id}: one field a line; -o json the scan', async () => {
    const w = verbWorld([json(completed())]);
    expect(await w.run(get, {}, ['scn_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1']);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'SCAN        scn_1',
      'CONNECTION  prod',
      'PROVIDER    aws',
      'STATUS      completed',
      'FINDINGS    3',
      'CRITICAL    1',
      'HIGH        2',
      'MEDIUM      0',
      'LOW         0',
      'INFO        0',
      'RISK SCORE  7.5',
      'CREATED     2026-11-22 11:59',
    ]);
    const j = verbWorld([json(completed())], { output: 'json' });
    expect(await j.run(get, {}, ['scn_1'])).toBe(0);
    expect(JSON.parse(j.stdout.text)).toStrictEqual(completed());
  });

  it.each([[''], ['a/b'], ['x?y'], ['..']])('an id such as %j: exit 2 before any request', async (id) => {
    const w = verbWorld([]);
    expect(await w.run(get, {}, [id])).toBe(2);
    expect(w.sent).toHaveLength(0);
  });

  it('an unknown scan: exit 5', async () => {
    const w = verbWorld([json({ detail: 'scan "scn_x" not found', code: 'not_found' }, 404)]);
    expect(await w.run(get, {}, ['scn_x'])).toBe(5);
    expect(w.stderr.text).toContain('scn_x');
    expect(w.stdout.text).toBe('');
  });

  it('an answer that is not a scan: exit 1, never a table of empty values', async () => {
    const w = verbWorld([json(['not', 'a', 'scan'])]);
    expect(await w.run(get, {}, ['scn_1'])).toBe(1);
    expect(w.stdout.text).toBe('');
  });
});

describe('scans wait', () => {
  it('polls until the status is final, then the summary; the gate passes below --fail-on', async () => {
    const w = verbWorld([
      json(scan({ status: 'running' })),
      json(completed({ critical_count: 0, high_count: 3 })),
    ]);
    expect(await w.run(wait, { failOn: 'critical' }, ['scn_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1', 'GET /scans/scn_1']);
    expect(w.stdout.text).toMatch(/^SCAN +scn_1$/m);
    expect(w.stderr.text).toBe(
      '✓ Scan scn_1 completed: 3 findings (0 critical, 3 high, 0 medium, 0 low, 0 info); none at or above critical; waited 1.0s\n',
    );
  });

  it('-o json: the final scan', async () => {
    const w = verbWorld([json(completed())], { output: 'json' });
    expect(await w.run(wait, {}, ['scn_1'])).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual(completed());
  });

  it('a scan that failed: its summary, then exit 9 with why', async () => {
    const w = verbWorld([json(scan({ status: 'failed', error: 'credentials expired' }))]);
    expect(await w.run(wait, {}, ['scn_1'])).toBe(9);
    expect(w.stdout.text).toMatch(/^ERROR +credentials expired$/m);
    expect(w.stderr.text).toBe('error: scan scn_1 failed: credentials expired\n');
  });

  // cli-contract.md §12: an empty SARIF with executionSuccessful true, uploaded by a later step, would close every
  // open alert; JUnit would pass; annotations would look like a result.
  it.each(['sarif', 'junit', 'github'])(
    'a scan that failed, -o %s: nothing on stdout, no findings read, exit 9 with why',
    async (output) => {
      const failed = scan({ status: 'failed', error: 'credentials expired', total_findings: 1 });
      const w = verbWorld([json(failed)], { output });
      expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(9);
      expect(w.stdout.text).toBe('');
      expect(w.requests()).toStrictEqual(['GET /scans/scn_1']);
      expect(w.stderr.text).toBe('error: scan scn_1 failed: credentials expired\n');
    },
  );

  it('a scan that failed, -o sarif --output-file: the file is not written (nor an old one replaced)', async () => {
    const out = join(dir, 'failed.sarif');
    writeFileSync(out, 'earlier');
    const w = verbWorld([json(scan({ status: 'failed' }))], { output: 'sarif' });
    expect(await w.run(wait, { outputFile: out }, ['scn_1'])).toBe(9);
    expect(readFileSync(out, 'utf8')).toBe('earlier');
    expect(w.stdout.text).toBe('');
  });

  it("-o junit --fail-on high: the service's totals pass the gate while it lists a high finding: exit 0 and no <failure>", async () => {
    // The gate is decided once, from the service's counts (critical_count 0, high counted 0); the findings read for
    // the report hold a high one. The report reads the run's verdict: passed, so no test case fails.
    const w = verbWorld(
      [
        json(completed({ critical_count: 0, high_count: undefined })),
        json({ total: 0, findings: [], limit: 1 }),
        json({ total: 2, findings: [finding('h1', 'high'), finding('l1', 'low')] }),
      ],
      { output: 'junit' },
    );
    expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(0);
    expect(w.stdout.text).toMatch(/<testsuites name="cssctl findings" tests="2" failures="0"/);
    expect(w.stdout.text).toContain('finding: h1');
    expect(w.stdout.text).not.toContain('<failure');
  });

  it('--fail-on high counts high with GET /findings?…&limit=1, reading total', async () => {
    const w = verbWorld([
      json(completed({ critical_count: 0, high_count: undefined })),
      json({ total: 2, findings: [finding('h1', 'high')], limit: 1 }),
    ]);
    expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(10);
    expect(w.requests()).toStrictEqual([
      'GET /scans/scn_1',
      'GET /findings?limit=1&severity=high&scan_id=scn_1',
    ]);
    expect(w.stderr.text.trimEnd().split('\n').at(-1)).toBe(
      'error: scan scn_1 has 2 findings at or above high: 2 high (--fail-on high)',
    );
  });

  it('-o sarif: the scan’s findings as SARIF (GET /findings?scan_id=…), the gate from the counts', async () => {
    const w = verbWorld(
      [
        json(completed({ total_findings: 2, critical_count: 0, high_count: 1, medium_count: 1 })),
        json({
          total: 2,
          findings: [finding('h1', 'high'), finding('m1', 'medium')],
          limit: 1000,
          offset: 0,
        }),
      ],
      { output: 'sarif' },
    );
    expect(await w.run(wait, { failOn: 'critical' }, ['scn_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1', 'GET /findings?limit=1000&scan_id=scn_1']);
    const log = JSON.parse(w.stdout.text) as {
      version: string;
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.results.map((r) => [r.ruleId, r.level])).toStrictEqual([
      ['rule-h1', 'error'],
      ['rule-m1', 'warning'],
    ]);
  });

  it('appends a Markdown summary to $GITHUB_STEP_SUMMARY (never overwrites); --no-step-summary writes none', async () => {
    const file = join(dir, 'step-summary.md');
    writeFileSync(file, '# earlier step\n');
    const w = verbWorld([json(completed())], { env: { GITHUB_STEP_SUMMARY: file } });
    expect(await w.run(wait, { failOn: 'critical' }, ['scn_1'])).toBe(10);
    const md = readFileSync(file, 'utf8');
    expect(md.startsWith('# earlier step\n\n### cssctl scan scn\\_1\n')).toBe(true);
    const lines = md.split('\n');
    for (const line of [
      '| Scan | scn\\_1 |',
      '| Connection | prod |',
      '| Status | completed |',
      '| Gate | ❌ `--fail-on critical` met: 1 finding at or above critical (exit 10) |',
      '| critical | 1 |',
      '| high | 2 |',
      '| **total** | **3** |',
    ])
      expect(lines).toContain(line);
    const off = verbWorld([json(completed())], { env: { GITHUB_STEP_SUMMARY: file } });
    expect(await off.run(wait, { stepSummary: false }, ['scn_1'])).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(md);
  });

  it('--wait-timeout passes: exit 9 with the resume command; the step summary says it timed out, unless --no-step-summary', async () => {
    const file = join(dir, 'timeout-summary.md');
    writeFileSync(file, '');
    const running = () => json(scan({ status: 'running' }));
    const w = verbWorld([running(), running()], {
      env: { GITHUB_STEP_SUMMARY: file },
      argv: ['scans', 'wait', 'scn_1', '--wait-timeout', '2'],
    });
    expect(await w.run(wait, { waitTimeout: 2 }, ['scn_1'])).toBe(9);
    expect(w.stderr.text).toBe(
      'error: scan scn_1 is still running after 2.0s (--wait-timeout); resume with: cssctl scans wait scn_1 --wait-timeout 2\n',
    );
    expect(w.stdout.text).toBe('');
    const md = readFileSync(file, 'utf8');
    expect(md).toMatch(/timed out/i);
    const off = verbWorld([running(), running()], { env: { GITHUB_STEP_SUMMARY: file } });
    expect(await off.run(wait, { waitTimeout: 2, stepSummary: false }, ['scn_1'])).toBe(9);
    expect(readFileSync(file, 'utf8')).toBe(md);
  });

  it.each([[''], ['a b'], ['../x']])('a scan id such as %j: exit 2 before any request', async (id) => {
    const w = verbWorld([]);
    expect(await w.run(wait, {}, [id])).toBe(2);
    expect(w.sent).toHaveLength(0);
  });

  it('a --baseline file that does not exist: exit 2 before any request', async () => {
    const w = verbWorld([]);
    const err = await failureOf(w.ctx, wait, { baseline: join(dir, 'missing.json') }, ['scn_1']);
    expect(err?.exit).toBe(2);
    expect(err?.message).toContain('missing.json');
    expect(w.sent).toHaveLength(0);
  });

  it('an unknown scan: exit 5, no poll after it', async () => {
    const w = verbWorld([json({ detail: 'scan "scn_x" not found' }, 404)]);
    expect(await w.run(wait, {}, ['scn_x'])).toBe(5);
    expect(w.sent).toHaveLength(1);
  });

  it('Ctrl-C while waiting: exit 130 with the command that resumes, flags kept', async () => {
    const replies: Reply[] = [
      () => {
        w.ctx.abort();
        return { status: 200, body: JSON.stringify(scan({ status: 'running' })) };
      },
    ];
    const w = verbWorld(replies, { argv: ['scans', 'wait', 'scn_1', '--fail-on', 'high', '-o', 'sarif'] });
    expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(130);
    expect(w.stderr.text).toBe(
      'error: interrupted; resume with: cssctl scans wait scn_1 --fail-on high -o sarif\n',
    );
  });
});
