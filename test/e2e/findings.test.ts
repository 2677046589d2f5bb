import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, lines, received } from './harness.js';
import { interruptWhen, shellSplit } from './interrupt.js';
import { sarifSchemaErrors } from '../helpers/sarif.js';

interface F {
  id: string;
  severity: string;
  scan_id: string;
  title: string;
}

const RANK = ['critical', 'high', 'medium', 'low', 'info'];
let w: World;
let token: string;

async function direct(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${w.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-tenant-slug': 'acme' },
  });
  return (await res.json()) as Record<string, unknown>;
}

async function totalOf(query: string): Promise<number> {
  return (await direct(`/findings?limit=1${query}`)).total as number;
}

function ndjson(text: string): F[] {
  return lines(text).map((l) => JSON.parse(l) as F);
}

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, findingsPerWorkspace: 600, scanStepMs: 200 });
  await w.login('acme');
  token = await w.sandbox.issueAccessToken(w.cred('acme').email, 3600);
});
afterAll(() => w.close());

describe('findings list', () => {
  it('a table page with coloured severities and the "Showing" hint', async () => {
    const total = await totalOf('');
    const res = await w.run(['findings', 'list', '--limit', '5'], { env: { FORCE_COLOR: '1' } });
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out).toHaveLength(6);
    expect(out[0]).toMatch(/SEVERITY.*TITLE.*RESOURCE.*ID/);
    // eslint-disable-next-line no-control-regex
    expect(res.stdout).toMatch(/\u001b\[3\dm(critical|high|medium|low)|\u001b\[2minfo/);
    expect(lines(res.stderr).at(-1)).toContain(
      `Showing 1–5 of ${total.toLocaleString('en-US')} — use --all or --offset 5`,
    );
    const plain = await w.run(['findings', 'list', '--limit', '5', '--offset', '5']);
    expect(plain.stdout).not.toContain('\u001b');
    expect(plain.stderr).toContain('Showing 6–10 of');
  });

  it('--json is one array, ndjson one per line, the same items; csv has a header and a row each', async () => {
    const json = await w.run(['findings', 'list', '--limit', '7', '--json']);
    const arr = JSON.parse(json.stdout) as F[];
    expect(arr).toHaveLength(7);
    const nd = await w.run(['findings', 'list', '--limit', '7', '-o', 'ndjson']);
    expect(ndjson(nd.stdout)).toStrictEqual(arr);
    const csv = await w.run(['findings', 'list', '--limit', '7', '-o', 'csv']);
    const rows = lines(csv.stdout);
    expect(rows[0]).toBe('severity,title,resource,connection_alias,status,id');
    expect(rows).toHaveLength(8);
    expect(rows[1]).toContain(arr[0]!.id);
    expect(json.stderr).toBe('');
  });

  it('several severities, any case: one query each, merged most severe first, each finding once', async () => {
    w.sandbox.clearRequests();
    const res = await w.run([
      'findings',
      'list',
      '--severity',
      'LOW,critical',
      '--severity',
      'High',
      '--limit',
      '500',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const got = JSON.parse(res.stdout) as F[];
    // The service caps a page at 100: the merged page ends on the severity the cap cut short.
    const [crit, high] = [await totalOf('&severity=critical'), await totalOf('&severity=high')];
    expect(crit + high).toBeLessThan(100);
    expect(got).toHaveLength(crit + high + 100);
    const ranks = got.map((f) => RANK.indexOf(f.severity));
    expect(ranks).toStrictEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(got.map((f) => f.severity))).toStrictEqual(new Set(['critical', 'high', 'low']));
    expect(new Set(got.map((f) => f.id)).size).toBe(got.length);
    const sevs = received(w.sandbox, '/findings').map((r) => r.query.severity);
    expect(sevs.slice(0, 3)).toStrictEqual(['critical', 'high', 'low']);
  });

  it('several severities: --offset and --limit count across the merged list, and the hint adds the totals', async () => {
    const crit = await totalOf('&severity=critical');
    const high = await totalOf('&severity=high');
    const all = JSON.parse(
      (await w.run(['findings', 'list', '--severity', 'critical,high', '--all', '--json'])).stdout,
    ) as F[];
    expect(all).toHaveLength(crit + high);
    const res = await w.run([
      'findings',
      'list',
      '--severity',
      'high,critical',
      '--offset',
      String(crit - 2),
      '--limit',
      '5',
      '--json',
    ]);
    expect((JSON.parse(res.stdout) as F[]).map((f) => f.id)).toStrictEqual(
      all.slice(crit - 2, crit + 3).map((f) => f.id),
    );
    const table = await w.run(['findings', 'list', '--severity', 'high,critical', '--limit', '5']);
    expect(table.stderr).toContain(`Showing 1–5 of ${crit + high} — use --all or --offset 5`);
  });

  it('--all streams every finding once, as one JSON array the same as the pages', async () => {
    const total = await totalOf('');
    w.sandbox.clearRequests();
    const res = await w.run(['findings', 'list', '--all', '--json']);
    expect(res.code).toBe(0);
    const got = JSON.parse(res.stdout) as F[];
    expect(got).toHaveLength(total);
    expect(new Set(got.map((f) => f.id)).size).toBe(total);
    // The largest page the service allows: it is asked for more and answers its cap (100).
    const asked = received(w.sandbox, '/findings').map((r) => Number(r.query.limit));
    expect(asked.every((l) => l >= 1000)).toBe(true);
    expect(received(w.sandbox, '/findings').length).toBe(Math.ceil(total / 100));
  });

  it('--scan narrows to one scan; sarif is valid against the OASIS schema', async () => {
    const scans = (await direct('/scans?status=completed&limit=1')).scans as { scan_id: string }[];
    const scanId = scans[0]!.scan_id;
    const res = await w.run(['findings', 'list', '--scan', scanId, '--all', '-o', 'sarif']);
    expect(res.code).toBe(0);
    const log = JSON.parse(res.stdout) as {
      version: string;
      runs: { results: unknown[]; tool: { driver: { name: string } } }[];
    };
    expect(sarifSchemaErrors(log)).toStrictEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.tool.driver.name).toBe('cssctl');
    expect(log.runs[0]!.results).toHaveLength(await totalOf(`&scan_id=${scanId}`));
    const json = JSON.parse(
      (await w.run(['findings', 'list', '--scan', scanId, '--all', '--json'])).stdout,
    ) as F[];
    expect(json.every((f) => f.scan_id === scanId)).toBe(true);
  });

  it('bad input is exit 2 with one line and no request', async () => {
    w.sandbox.clearRequests();
    const cases: [string[], RegExp][] = [
      [['--severity', 'urgent'], /unknown severity "urgent": use critical, high, medium, low, info/],
      [['--severity', 'high,'], /critical, high, medium, low, info/],
      [['--limit', '0'], /positive whole number/],
      [['--limit', 'ten'], /positive whole number/],
      [['--limit', '-3'], /./],
      [['--offset', '1.5'], /whole number/],
      [['--limit', '99999999999999999999999'], /whole number up to 9007199254740991/],
      [['--offset', '9007199254740993'], /whole number up to 9007199254740991/],
      [['--scan', ' '], /--scan must not be empty/],
      [['-o', 'yaml'], /invalid output format/],
    ];
    for (const [args, msg] of cases) {
      const res = await w.run(['findings', 'list', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(errorLine(res)).toMatch(msg);
    }
    for (const args of [
      ['connections', 'list', '-o', 'sarif'],
      ['scans', 'list', '-o', 'sarif'],
      ['api', '/findings', '-o', 'table'],
    ]) {
      const res = await w.run(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(errorLine(res)).toMatch(
        /-o (sarif|table) is not available for "(connections list|scans list|api)": use /,
      );
    }
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

describe('findings list --all interrupted', () => {
  async function interruptAt(args: string[], pagesBeforeStall: number) {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults(
      { kind: 'slow', ms: 1, count: pagesBeforeStall, path: '/findings' },
      { kind: 'slow', ms: 8_000, path: '/findings' },
    );
    return interruptWhen(
      ['findings', 'list', ...args],
      w.env,
      () => received(w.sandbox, '/findings').length > pagesBeforeStall,
    );
  }

  async function rerun(cmd: string): Promise<string> {
    const argv = shellSplit(cmd);
    expect(argv[0]).toBe('cssctl');
    const res = await w.run(argv.slice(1));
    expect(res.code, res.stderr).toBe(0);
    return res.stdout;
  }

  it('ndjson: every row shown stays; the printed command resumes exactly where output stopped', async () => {
    const full = ndjson((await w.run(['findings', 'list', '--all', '--limit', '40', '-o', 'ndjson'])).stdout);
    const res = await interruptAt(['--all', '--limit', '40', '-o', 'ndjson'], 3);
    expect(res.code).toBe(130);
    const shown = ndjson(res.stdout);
    expect(shown).toStrictEqual(full.slice(0, 120));
    const err = JSON.parse(lines(res.stderr).at(-1)!) as { error: { detail: string } };
    expect(err.error.detail).toBe(
      'interrupted; resume with: cssctl findings list --all --limit 40 -o ndjson --offset 120',
    );
    const rest = ndjson(await rerun(err.error.detail.replace(/^interrupted; resume with: /, '')));
    expect([...shown, ...rest].map((f) => f.id)).toStrictEqual(full.map((f) => f.id));
  });

  it('table: the rows held for column widths are written before the resume line (issue 9 #16)', async () => {
    const res = await interruptAt(['--all', '--limit', '30'], 2);
    expect(res.code).toBe(130);
    const rows = lines(res.stdout);
    expect(rows[0]).toMatch(/^SEVERITY/);
    expect(rows).toHaveLength(61);
    expect(lines(res.stderr).at(-1)).toBe(
      'error: interrupted; resume with: cssctl findings list --all --limit 30 --offset 60',
    );
  });

  it('several severities: resumes at the severity it was on, with its offset, and those still to come', async () => {
    const args = ['--severity', 'high,critical,medium', '--all', '--limit', '25', '--json'];
    const full = JSON.parse((await w.run(['findings', 'list', ...args])).stdout) as F[];
    const crit = await totalOf('&severity=critical');
    // critical fits in ceil(crit/25) pages (+1 when exact); stall on the second page of high.
    const critPages = Math.ceil(crit / 25) + (crit % 25 === 0 ? 1 : 0);
    const res = await interruptAt(args, critPages + 1);
    expect(res.code).toBe(130);
    const shown = JSON.parse(res.stdout) as F[];
    expect(shown).toStrictEqual(full.slice(0, crit + 25));
    const detail = (JSON.parse(lines(res.stderr).at(-1)!) as { error: { detail: string } }).error.detail;
    expect(detail).toBe(
      'interrupted; resume with: cssctl findings list --all --limit 25 --json --severity high,medium --offset 25',
    );
    const rest = JSON.parse(await rerun(detail.replace(/^interrupted; resume with: /, ''))) as F[];
    expect([...shown, ...rest].map((f) => f.id)).toStrictEqual(full.map((f) => f.id));
  });

  it('a total that changes mid-way is reported, and no finding is printed twice', async () => {
    w.sandbox.clearRequests();
    // Page 2 is held back while a new scan completes and adds findings.
    w.sandbox.injectFaults(
      { kind: 'slow', ms: 1, count: 1, path: '/findings' },
      { kind: 'slow', ms: 1500, path: '/findings' },
    );
    const run = w.run(['findings', 'list', '--all', '--limit', '100', '-o', 'ndjson']);
    await new Promise((r) => setTimeout(r, 150));
    const created = await fetch(`${w.url}/api/v1/scans`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-tenant-slug': 'acme',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ connection_alias: 'prod' }),
    });
    expect(created.status).toBe(201);
    const res = await run;
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/warning: the total changed from \d+ to \d+ while paging/);
    const got = ndjson(res.stdout);
    expect(new Set(got.map((f) => f.id)).size).toBe(got.length);
  });
});
