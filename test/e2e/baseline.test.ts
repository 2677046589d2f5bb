// Fingerprints, findings get, and (below) comparing scans: cli-contract.md §8 against the sandbox, whose
// "drift" connections find the same problems from run to run with a few changes (test/sandbox/data.ts).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine } from './harness.js';

interface Finding {
  id: string;
  severity: string;
  resource: string;
  fingerprint?: string;
  [k: string]: unknown;
}

let w: World;

beforeAll(async () => {
  w = await World.start({
    rateLimit: 100_000,
    scanRateLimit: 100_000,
    findingsPerWorkspace: 60,
    scanStepMs: 100,
  });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '30' };
  const res = await w.run(['connections', 'create', '--alias', 'drift-api', '--provider', 'aws']);
  expect(res.code, res.stderr).toBe(0);
});
afterAll(() => w.close());

async function newScan(alias = 'drift-api'): Promise<string> {
  const res = await w.run(['scans', 'create', '--connection', alias, '--wait', '--json']);
  expect(res.code, res.stderr).toBe(0);
  return (JSON.parse(res.stdout) as { scan_id: string }).scan_id;
}

async function findingsOf(scanId: string): Promise<Finding[]> {
  const res = await w.run(['findings', 'list', '--scan', scanId, '--all', '--json']);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Finding[];
}

describe('findings get', () => {
  it('the finding with its fingerprint, equal to what SARIF carries', async () => {
    const id = await newScan();
    const [first] = await findingsOf(id);
    const got = await w.run(['findings', 'get', first!.id, '--json']);
    expect(got.code, got.stderr).toBe(0);
    const f = JSON.parse(got.stdout) as Finding;
    expect(f.id).toBe(first!.id);
    expect(f.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const sarif = await w.run(['findings', 'list', '--scan', id, '--all', '-o', 'sarif']);
    const doc = JSON.parse(sarif.stdout) as {
      runs: {
        results: { partialFingerprints: Record<string, string>; properties: Record<string, string> }[];
      }[];
    };
    const result = doc.runs[0]!.results.find((r) => r.properties['finding-id'] === f.id)!;
    expect(result.partialFingerprints['cssctlFindingHash/v1']).toBe(f.fingerprint);
  });

  it('an unknown finding is exit 5', async () => {
    const res = await w.run(['findings', 'get', 'fnd_nope']);
    expect(res.code).toBe(5);
    expect(errorLine(res)).toMatch(/not found/);
  });

  it('findings list --scan of a scan that does not exist is exit 5, not an empty list', async () => {
    const res = await w.run(['findings', 'list', '--scan', 'scn_nope', '--json']);
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('');
  });
});

describe('the sandbox: scans of one connection find the same problems, a few changed', () => {
  it('two runs share fingerprints, with one fixed, one new and one re-rated', async () => {
    const fp = async (scanId: string) => {
      const r = await w.run(['findings', 'list', '--scan', scanId, '--all', '-o', 'sarif']);
      const doc = JSON.parse(r.stdout) as {
        runs: {
          results: { partialFingerprints: Record<string, string>; properties: Record<string, string> }[];
        }[];
      };
      return new Map(
        doc.runs[0]!.results.map((x) => [
          x.partialFingerprints['cssctlFindingHash/v1']!,
          x.properties.severity,
        ]),
      );
    };
    const fa = await fp(await newScan());
    const fb = await fp(await newScan());
    const shared = [...fb.keys()].filter((k) => fa.has(k));
    expect(shared.length).toBeGreaterThanOrEqual(fa.size - 2);
    expect([...fb.keys()].filter((k) => !fa.has(k)).length).toBeGreaterThan(0);
    expect([...fa.keys()].filter((k) => !fb.has(k)).length).toBeGreaterThan(0);
    expect(shared.some((k) => fa.get(k) !== fb.get(k))).toBe(true);
  });
});

describe('findings diff', () => {
  it('two scans of a drift connection: the four states, and the counts on stderr', async () => {
    const base = await newScan();
    const head = await newScan();
    const res = await w.run(['findings', 'diff', '--base', base, '--head', head, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as (Finding & {
      state: string;
      why?: string;
      previous_severity?: string;
    })[];
    const n = (s: string) => out.filter((x) => x.state === s).length;
    expect(n('new')).toBeGreaterThan(0);
    expect(n('fixed')).toBeGreaterThan(0);
    expect(n('updated')).toBeGreaterThan(0);
    expect(n('unchanged')).toBeGreaterThan(0);
    expect(
      out.filter((x) => x.state === 'updated').every((x) => typeof x.previous_severity === 'string'),
    ).toBe(true);
    expect(out.filter((x) => x.state === 'new').every((x) => typeof x.why === 'string')).toBe(true);
    expect(res.stderr).toContain(
      `${n('new')} new, ${n('updated')} updated, ${n('fixed')} fixed, ${n('unchanged')} unchanged`,
    );
    const table = await w.run(['findings', 'diff', '--base', base, '--head', head]);
    const states = table.stdout
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[0]);
    const order = ['new', 'updated', 'fixed', 'unchanged'];
    expect(states.map((s) => order.indexOf(s!))).toStrictEqual(
      [...states.map((s) => order.indexOf(s!))].sort(),
    );
  });

  it('--base latest over the scans list; a file base; --state narrows what is shown', async () => {
    const first = await newScan();
    const head = await newScan();
    const latest = await w.run(['findings', 'diff', '--base', 'latest', '--head', head, '-o', 'ndjson']);
    const exact = await w.run(['findings', 'diff', '--base', first, '--head', head, '-o', 'ndjson']);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toBe(exact.stdout);
    const file = join(w.dir, 'base.json');
    writeFileSync(file, (await w.run(['findings', 'list', '--scan', first, '--all', '--json'])).stdout);
    const fromFile = await w.run([
      'findings',
      'diff',
      '--base',
      file,
      '--head',
      head,
      '-o',
      'ndjson',
      '--state',
      'new,fixed',
    ]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const states = fromFile.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { state: string }).state);
    expect(new Set(states)).toStrictEqual(new Set(['new', 'fixed']));
  });

  it('a head that is not final is exit 2 with a hint; an unknown scan exit 5; a bad file exit 2 naming file:line', async () => {
    // A "slow" connection's scan stays unfinished for 100 steps (test/sandbox/scans.ts): no race with the diff.
    const made = await w.run(['connections', 'create', '--alias', 'slow-api', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
    const created = await w.run(['scans', 'create', '--connection', 'slow-api', '--json']);
    const running = (JSON.parse(created.stdout) as { scan_id: string }).scan_id;
    const res = await w.run(['findings', 'diff', '--base', 'latest', '--head', running]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`cssctl scans wait ${running}`);
    const gone = await w.run(['findings', 'diff', '--base', 'scn_nope', '--head', running]);
    expect([2, 5]).toContain(gone.code);
    const done = await newScan();
    const missing = await w.run(['findings', 'diff', '--base', 'scn_nope', '--head', done]);
    expect(missing.code).toBe(5);
    const bad = join(w.dir, 'bad.ndjson');
    writeFileSync(bad, '{"id":"a","severity":"low"}\nnot json\n');
    const badRes = await w.run(['findings', 'diff', '--base', bad, '--head', done]);
    expect(badRes.code).toBe(2);
    expect(badRes.stderr).toContain(`${bad}:2:`);
  });
});

describe('--baseline on scans create --wait / scans wait', () => {
  it('a first run: a notice, every finding new; then the gate is the diff gate, with the step summary', async () => {
    const made = await w.run(['connections', 'create', '--alias', 'drift-ci', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
    const summary = join(w.dir, 'baseline-summary.md');
    const first = await w.run(
      [
        'scans',
        'create',
        '--connection',
        'drift-ci',
        '--wait',
        '--baseline',
        'latest',
        '--fail-on',
        'critical',
      ],
      { env: { GITHUB_STEP_SUMMARY: summary } },
    );
    expect(first.stderr).toContain(
      'no earlier completed scan of connection drift-ci: a first run, every finding is new',
    );
    // Every finding is new, and the drift base has a critical one.
    expect(first.code, first.stderr).toBe(10);
    expect(first.stderr).toMatch(/has 1 new or raised finding at or above critical: 1 critical/);
    expect(readFileSync(summary, 'utf8')).toContain(
      '| Baseline | none (a first run): every finding is new |',
    );

    const second = await w.run(
      [
        'scans',
        'create',
        '--connection',
        'drift-ci',
        '--wait',
        '--baseline',
        'latest',
        '--fail-on',
        'critical',
        '-o',
        'sarif',
      ],
      { env: { GITHUB_STEP_SUMMARY: summary } },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /against scan scn_\w+: 1 new, 1 updated, 1 fixed, 8 unchanged; none new or raised at or above critical/,
    );
    const doc = JSON.parse(second.stdout) as { runs: { results: { baselineState: string }[] }[] };
    const states = doc.runs[0]!.results.map((r) => r.baselineState);
    expect(states.filter((s) => s === 'new')).toHaveLength(1);
    expect(states).not.toContain('fixed');
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('| Severity | Findings | New | Updated | Fixed | Ignored |');
    expect(md).toMatch(/\| high \| \d+ \| 1 \| \d+ \| \d+ \| 0 \|/);
    expect(md).toContain('passed: no new or raised findings at or above critical');

    const third = await w.run([
      'scans',
      'create',
      '--connection',
      'drift-ci',
      '--wait',
      '--baseline',
      'latest',
      '--fail-on',
      'high',
    ]);
    expect(third.code).toBe(10);
    expect(third.stderr).toMatch(/error: scan scn_\w+ has \d+ new or raised findings? at or above high: /);
  });

  it('--baseline with a file that does not exist: exit 2 before any request', async () => {
    w.sandbox.clearRequests();
    const res = await w.run([
      'scans',
      'create',
      '--connection',
      'drift-ci',
      '--wait',
      '--baseline',
      './nope.json',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nope.json');
    expect(w.sandbox.requests.filter((r) => r.path.includes('/scans'))).toHaveLength(0);
  });
});

describe('the ignore file', () => {
  it('findings ignore writes an entry; the gate, the report and the step summary honour it; expiry brings it back', async () => {
    const made = await w.run(['connections', 'create', '--alias', 'drift-ign', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
    const scan = await newScan('drift-ign');
    const all = await findingsOf(scan);
    const critical = all.find((f) => f.severity === 'critical')!;
    const file = join(w.dir, 'ignore.yaml');
    writeFileSync(file, '# accepted risks\nversion: 1\nignore: []\n');
    const added = await w.run([
      'findings',
      'ignore',
      critical.id,
      '--reason',
      'Accepted: SEC-1',
      '--ignore-file',
      file,
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^# accepted risks\nversion: 1\nignore:\n/);
    const env = { CSSCTL_IGNORE_FILE: file };
    const summary = join(w.dir, 'ignore-summary.md');
    const gated = await w.run(['scans', 'wait', scan, '--fail-on', 'critical', '-o', 'junit'], {
      env: { ...env, GITHUB_STEP_SUMMARY: summary },
    });
    expect(gated.code, gated.stderr).toBe(0);
    expect(gated.stdout).toContain('<skipped message="ignored until');
    expect(gated.stderr).toContain('1 ignored by');
    expect(readFileSync(summary, 'utf8')).toMatch(/\| critical \| 0 \| 1 \|/);
    // --no-ignore: the gate is met again.
    expect((await w.run(['scans', 'wait', scan, '--fail-on', 'critical', '--no-ignore'], { env })).code).toBe(
      10,
    );
    // An expired entry: the finding counts again, with a warning naming the entry (and a workflow warning).
    const text = readFileSync(file, 'utf8').replace(/expires: \S+/, 'expires: 2020-01-01');
    writeFileSync(file, text);
    const expired = await w.run(['scans', 'wait', scan, '--fail-on', 'critical', '-o', 'github'], { env });
    expect(expired.code).toBe(10);
    expect(expired.stderr).toMatch(
      /warning: ignore\.yaml:\d+: expired on 2020-01-01 \(Accepted: SEC-1\); 1 finding counts again|warning: .*ignore\.yaml:\d+: expired on 2020-01-01/,
    );
    expect(expired.stdout).toMatch(/^::warning file=.*ignore\.yaml,line=\d+::/m);
  });

  it('findings ignore run by several processes at once on one file: every entry reported added is in the file', async () => {
    const made = await w.run(['connections', 'create', '--alias', 'drift-race', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
    const all = await findingsOf(await newScan('drift-race'));
    const picked = all.slice(0, 6);
    expect(picked).toHaveLength(6);
    for (const start of ['version: 1\nignore: []\n', undefined]) {
      const d = join(w.dir, `race-${start === undefined ? 'new' : 'list'}`);
      mkdirSync(d, { recursive: true });
      const file = join(d, '.cssctl-ignore.yaml');
      if (start !== undefined) writeFileSync(file, start);
      // Six at once, two of them on the same finding (one entry for it, however they interleave).
      const ids = [...picked.map((f) => f.id), picked[0]!.id];
      const runs = await Promise.all(
        ids.map((id) =>
          w.run(['findings', 'ignore', id, '--reason', `race ${id}`], { cwd: d, timeoutMs: 60_000 }),
        ),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const text = readFileSync(file, 'utf8');
      const written = [...text.matchAll(/^ {4}reason: race (\S+)$/gm)].map((m) => m[1]);
      const added = runs.filter((r) => r.stderr.includes('✓ Added 1 entry')).length;
      expect(written.length, text).toBe(added);
      expect(new Set(written), text).toStrictEqual(new Set(picked.map((f) => f.id)));
      expect(runs.filter((r) => r.stderr.includes('is already ignored by'))).toHaveLength(1);
      expect(readdirSync(d).sort()).toStrictEqual(['.cssctl-ignore.yaml']);
    }
  });

  it('a table page: the hint counts what was read, and says how many of it are accepted risk', async () => {
    const made = await w.run(['connections', 'create', '--alias', 'drift-page', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
    const scan = await newScan('drift-page');
    const all = await findingsOf(scan);
    const n = all.length;
    expect(n).toBeGreaterThan(3);
    const file = join(w.dir, 'ignore-page.yaml');
    writeFileSync(file, 'version: 1\nignore: []\n');
    // The first and the last finding of the list are accepted risks.
    for (const f of [all[0]!, all[n - 1]!]) {
      const added = await w.run(['findings', 'ignore', f.id, '--reason', 'Accepted', '--ignore-file', file]);
      expect(added.code, added.stderr).toBe(0);
    }
    const env = { env: { CSSCTL_IGNORE_FILE: file } };
    const rows = (stdout: string) => stdout.split('\n').slice(1).filter(Boolean);
    const list = (...args: string[]) => w.run(['findings', 'list', '--scan', scan, ...args], env);

    // A page of 3 read, 2 shown: the next page starts after what was read (not at the 3rd item again).
    const first = await list('--limit', '3');
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first.stdout)).toHaveLength(2);
    expect(first.stderr).toMatch(
      new RegExp(
        `Read 1–3 of ${n}: 2 shown, 1 ignored by \\S*ignore-page\\.yaml \\(--no-ignore to show them\\) — use --all or --offset 3\\n`,
      ),
    );
    expect(first.stderr).not.toContain('Showing');
    // The hint said it: not a second line.
    expect(first.stderr).not.toContain('1 finding ignored by');
    // The last page: nothing more to read, so no hint, though fewer rows than the service's total are shown.
    const last = await list('--offset', String(n - 2), '--limit', '2');
    expect(last.code, last.stderr).toBe(0);
    expect(rows(last.stdout)).toHaveLength(1);
    expect(last.stderr).not.toMatch(/Showing|Read \d/);
    // A page that is all accepted risk is not "No findings found.": it says what was read and where to go on.
    const hidden = await list('--limit', '1');
    expect(hidden.code, hidden.stderr).toBe(0);
    expect(hidden.stdout).toBe('');
    expect(hidden.stderr).not.toContain('No findings found.');
    expect(hidden.stderr).toMatch(
      new RegExp(
        `Read 1–1 of ${n}: 0 shown, 1 ignored by \\S*ignore-page\\.yaml \\(--no-ignore to show them\\) — use --all or --offset 1`,
      ),
    );
    // Without an ignore file the hint is as it was.
    const plain = await w.run(['findings', 'list', '--scan', scan, '--limit', '3', '--no-ignore'], env);
    expect(plain.stderr).toContain(`Showing 1–3 of ${n} — use --all or --offset 3`);
  });

  it('a fingerprint entry of one connection is not called stale by a read of another connection', async () => {
    for (const alias of ['stale-a', 'stale-b']) {
      const made = await w.run(['connections', 'create', '--alias', alias, '--provider', 'aws']);
      expect(made.code, made.stderr).toBe(0);
    }
    const scanA = await newScan('stale-a');
    const scanB = await newScan('stale-b');
    const file = join(w.dir, 'ignore-stale.yaml');
    writeFileSync(file, 'version: 1\nignore: []\n');
    // A finding no other of A's shares a fingerprint with (the sandbox may find one account-wide problem, the
    // same rule on the same resource, several times in one scan: one entry then covers them all).
    const ofA = await findingsOf(scanA);
    const sameProblem = (a: Finding, b: Finding) => a.title === b.title && a.resource === b.resource;
    const onA = ofA.find((f) => ofA.filter((g) => sameProblem(f, g)).length === 1)!;
    expect(onA, 'a finding of its own in scan A').toBeDefined();
    const added = await w.run(['findings', 'ignore', onA.id, '--reason', 'Only on A', '--ignore-file', file]);
    expect(added.code, added.stderr).toBe(0);
    const env = { env: { CSSCTL_IGNORE_FILE: file } };
    // The scan of B could not have seen A's finding: no stale notice.
    const waitB = await w.run(['scans', 'wait', scanB], env);
    expect(waitB.code, waitB.stderr).toBe(0);
    expect(waitB.stderr).not.toContain('may be stale');
    const listB = await w.run(['findings', 'list', '--scan', scanB, '--all', '--json'], env);
    expect(listB.code, listB.stderr).toBe(0);
    expect(listB.stderr).not.toContain('may be stale');
    // A's own scan sees it (ignored, so not stale either).
    const waitA = await w.run(['scans', 'wait', scanA], env);
    expect(waitA.stderr).toMatch(/(?<!\d)1 ignored by/);
    expect(waitA.stderr).not.toContain('may be stale');
    // A diff of A whose head no longer has the finding (a file head without it): it may be stale.
    const headFile = join(w.dir, 'head-without.json');
    const rest = (await findingsOf(scanA)).filter((f) => f.id !== onA.id);
    writeFileSync(headFile, JSON.stringify(rest));
    const gone = await w.run(['findings', 'diff', '--base', scanA, '--head', headFile, '--json'], env);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr).toMatch(/ignore-stale\.yaml:\d+: matched no finding; it may be stale \(Only on A\)/);
  });

  it('a bad ignore file is exit 2 before any request, naming file:line:column', async () => {
    const file = join(w.dir, 'bad-ignore.yaml');
    writeFileSync(file, 'version: 1\nignore:\n  - rule: r\n    reason: x\n    expire: 2027-01-01\n');
    w.sandbox.clearRequests();
    const res = await w.run(['findings', 'list', '--ignore-file', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(':5:5: unknown key "expire" — did you mean "expires"?');
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

describe('--report and --output-file', () => {
  it('three reports from one read of the findings, one gate, stdout keeps the scan summary', async () => {
    const sarif = join(w.dir, 'r.sarif');
    const junit = join(w.dir, 'junit.xml');
    const github = join(w.dir, 'gh.txt');
    w.sandbox.clearRequests();
    const res = await w.run([
      'scans',
      'create',
      '--connection',
      'drift-api',
      '--wait',
      '--fail-on',
      'high',
      '--report',
      `sarif=${sarif}`,
      '--report',
      `junit=${junit}`,
      '--report',
      `github=${github}`,
    ]);
    expect(res.code, res.stderr).toBe(10);
    expect(res.stdout).toMatch(/^STATUS\s+completed$/m);
    const reads = w.sandbox.requests.filter((r) => r.path === '/api/v1/findings');
    expect(reads).toHaveLength(1);
    const doc = JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] };
    const n = doc.runs[0]!.results.length;
    expect(readFileSync(junit, 'utf8')).toContain(`tests="${n}"`);
    expect(readFileSync(github, 'utf8').trim().split('\n')).toHaveLength(n);
  });

  it('--output-file: the report in the file, atomically, nothing on stdout; two reports to one path: exit 2', async () => {
    const out = join(w.dir, 'out.sarif');
    const scan = await newScan();
    const res = await w.run([
      'findings',
      'list',
      '--scan',
      scan,
      '--all',
      '-o',
      'sarif',
      '--output-file',
      out,
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect((JSON.parse(readFileSync(out, 'utf8')) as { version: string }).version).toBe('2.1.0');
    w.sandbox.clearRequests();
    const same = await w.run(['findings', 'list', '--report', `csv=${out}`, '--report', `json=${out}`]);
    expect(same.code).toBe(2);
    expect(w.sandbox.requests).toHaveLength(0);
  });
});
