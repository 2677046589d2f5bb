// `-o ocsf` through the real commands against the sandbox (cli-contract.md §14): findings lists, a comparison, a
// scan report on stdout and in --report, every event checked against OCSF 1.6.0's own definitions.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidOcsf } from '../helpers/ocsf.js';
import { World } from './harness.js';

type Event = Record<string, unknown> & {
  finding_info: { uid: string; uid_alt: string; first_seen_time?: number };
  unmapped?: Record<string, unknown>;
};

let w: World;
beforeAll(async () => {
  w = await World.start({
    rateLimit: 100_000,
    scanRateLimit: 100_000,
    findingsPerWorkspace: 120,
    scanStepMs: 100,
    maxPageSize: 50,
  });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '30' };
  expect((await w.run(['connections', 'create', '--alias', 'drift-ocsf', '--provider', 'aws'])).code).toBe(0);
});
afterAll(() => w.close());

const events = (ndjson: string) => expectValidOcsf(ndjson) as Event[];

async function listJson(args: string[]): Promise<{ id: string; severity: string }[]> {
  const r = await w.run(['findings', 'list', ...args, '--all', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; severity: string }[];
}

describe('-o ocsf', () => {
  it('findings list --all: one valid Detection Finding per finding, across pages', async () => {
    const r = await w.run(['findings', 'list', '--all', '-o', 'ocsf']);
    expect(r.code, r.stderr).toBe(0);
    const all = await listJson([]);
    const evs = events(r.stdout);
    // uid: the fingerprint (a repeated one numbered: findings of every scan share them), one per event;
    // uid_alt: the service's id.
    expect(evs.map((e) => e.finding_info.uid_alt).sort()).toEqual(all.map((f) => f.id).sort());
    expect(evs.every((e) => /^[0-9a-f]{64}(#\d+)?$/.test(e.finding_info.uid))).toBe(true);
    expect(new Set(evs.map((e) => e.finding_info.uid)).size).toBe(evs.length);
    expect(evs.every((e) => e.class_uid === 2004 && e.activity_id === 1)).toBe(true);
    expect(evs[0]!.metadata).toMatchObject({ version: '1.6.0', tenant_uid: 'acme' });
  });

  it('--severity narrows it like the other formats; --output-file writes the same events', async () => {
    const file = join(w.dir, 'crit.ocsf.ndjson');
    const r = await w.run([
      'findings',
      'list',
      '--severity',
      'critical',
      '--all',
      '-o',
      'ocsf',
      '--output-file',
      file,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const evs = events(readFileSync(file, 'utf8'));
    expect(evs.length).toBe((await listJson(['--severity', 'critical'])).length);
    expect(evs.every((e) => e.severity_id === 5 && e.severity === 'Critical')).toBe(true);
  });

  it('keeps ignored findings as Suppressed with their reason', async () => {
    const [first] = await listJson(['--severity', 'high']);
    const file = join(w.dir, 'ocsf-ignore.yaml');
    writeFileSync(file, 'version: 1\nignore: []\n');
    const added = await w.run([
      'findings',
      'ignore',
      first!.id,
      '--reason',
      'Public by design (SEC-7)',
      '--ignore-file',
      file,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const r = await w.run(['findings', 'list', '--all', '-o', 'ocsf', '--ignore-file', file]);
    expect(r.code, r.stderr).toBe(0);
    const evs = events(r.stdout);
    const suppressed = evs.filter((e) => e.status_id === 3);
    expect(suppressed.map((e) => e.finding_info.uid_alt)).toEqual([first!.id]);
    expect(suppressed[0]).toMatchObject({
      status: 'Suppressed',
      status_detail: 'Public by design (SEC-7)',
      is_alert: false,
    });
    expect(suppressed[0]!.unmapped!.ignored).toMatchObject({ reason: 'Public by design (SEC-7)' });
    // Kept, so nothing is said to be left out.
    expect(r.stderr).not.toMatch(/--no-ignore to show them/);
  });

  it('findings diff: new Create, updated Update, fixed Close, all valid, followed by the uid the base export gave', async () => {
    const scan = async () => {
      const r = await w.run(['scans', 'create', '--connection', 'drift-ocsf', '--wait', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { scan_id: string; completed_at: string };
    };
    const baseScan = await scan();
    const headScan = await scan();
    const [base, head] = [baseScan.scan_id, headScan.scan_id];
    const baseExport = await w.run(['findings', 'list', '--scan', base, '--all', '-o', 'ocsf']);
    expect(baseExport.code, baseExport.stderr).toBe(0);
    const baseEvents = events(baseExport.stdout);
    const baseUids = new Map(baseEvents.map((e) => [e.finding_info.uid, e]));
    const r = await w.run(['findings', 'diff', '--base', base, '--head', head, '-o', 'ocsf']);
    expect(r.code, r.stderr).toBe(0);
    const evs = events(r.stdout);
    const by = (state: string) => evs.filter((e) => e.unmapped?.state === state);
    expect(by('new').length).toBeGreaterThan(0);
    expect(by('updated').length).toBeGreaterThan(0);
    expect(by('fixed').length).toBeGreaterThan(0);
    for (const e of by('new')) expect(e).toMatchObject({ activity_id: 1, type_uid: 200401, status_id: 1 });
    for (const e of by('updated')) expect(e).toMatchObject({ activity_id: 2, type_uid: 200402 });
    for (const e of by('fixed')) expect(e).toMatchObject({ activity_id: 3, type_uid: 200403, status_id: 4 });
    // A SIEM follows each finding by its uid: a Close or an Update names one the base's export created, a
    // Create one it did not.
    for (const e of [...by('fixed'), ...by('updated'), ...by('unchanged')])
      expect(baseUids.has(e.finding_info.uid), e.finding_info.uid).toBe(true);
    for (const e of by('new')) expect(baseUids.has(e.finding_info.uid)).toBe(false);
    // A Close happened when the fix was seen (the head scan), first seen when the base's finding was.
    for (const e of by('fixed')) {
      expect(e.time).toBe(Date.parse(headScan.completed_at));
      const before = baseUids.get(e.finding_info.uid)!;
      expect(e.finding_info.first_seen_time).toBe(before.time);
      expect(e.finding_info.uid_alt).toBe(before.finding_info.uid_alt);
    }
    expect(r.stderr).toMatch(/\d+ new, \d+ updated, \d+ fixed, \d+ unchanged/);
  });

  it('scans create --wait -o ocsf --fail-on high: the scan report, exit 10 from the gate', async () => {
    const r = await w.run([
      'scans',
      'create',
      '--connection',
      'prod',
      '--wait',
      '--fail-on',
      'high',
      '-o',
      'ocsf',
    ]);
    expect(r.code, r.stderr).toBe(10);
    const evs = events(r.stdout);
    const scanId = evs[0]!.unmapped!.scan_id as string;
    expect(new Set(evs.map((e) => e.unmapped!.scan_id))).toEqual(new Set([scanId]));
    const all = await listJson(['--scan', scanId]);
    expect(evs.map((e) => e.finding_info.uid_alt).sort()).toEqual(all.map((f) => f.id).sort());
  });

  it('--report ocsf=<path> from the same read, stdout keeping the scan summary', async () => {
    const file = join(w.dir, 'scan.ocsf.ndjson');
    const sarif = join(w.dir, 'scan.sarif');
    const r = await w.run([
      'scans',
      'create',
      '--connection',
      'staging',
      '--wait',
      '--json',
      '--report',
      `ocsf=${file}`,
      '--report',
      `sarif=${sarif}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const scan = JSON.parse(r.stdout) as { scan_id: string; total_findings: number };
    const evs = events(readFileSync(file, 'utf8'));
    expect(evs).toHaveLength(scan.total_findings);
    const results = (JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] }).runs[0]!
      .results;
    expect(results).toHaveLength(evs.length);
  });

  it('--jq filters each event as it streams', async () => {
    const r = await w.run([
      'findings',
      'list',
      '--all',
      '-o',
      'ocsf',
      '--jq',
      'select(.severity_id == 5) | .finding_info.uid_alt',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const crit = await listJson(['--severity', 'critical']);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(crit.map((f) => f.id).sort());
  });

  it('is offered by completion and help', async () => {
    const help = await w.run(['findings', 'list', '--help']);
    expect(help.stdout).toMatch(/ocsf/);
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await w.run(['completion', shell]);
      expect(script.stdout, shell).toMatch(/\bocsf\b/);
    }
  });
});
