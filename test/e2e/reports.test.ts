// The CI reports through the real commands (cli-contract.md §3): the gate apart from the report, every format
// valid, the step summary appended.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sarifSchemaErrors } from '../helpers/sarif.js';
import { World, lines } from './harness.js';

const XSD = join(import.meta.dirname, '../fixtures/junit-10.xsd');

interface SarifDoc {
  runs: { results: { level: string; properties: { severity: string; 'finding-id': string } }[] }[];
}

let w: World;
beforeAll(async () => {
  w = await World.start({ scanStepMs: 100, findingsPerWorkspace: 20 });
  w.env.CSSCTL_POLL_BASE_MS = '40';
  await w.login();
});
afterAll(() => w.close());

function scanIdOf(stderr: string): string {
  const m = /Started scan (\S+)/.exec(stderr);
  if (!m) throw new Error(`no scan id in: ${stderr}`);
  return m[1]!;
}

async function findingsOfScan(id: string): Promise<{ id: string; severity: string }[]> {
  const r = await w.run(['findings', 'list', '--scan', id, '--all', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; severity: string }[];
}

function junitErrors(xml: string): string {
  const file = join(w.dir, `r-${Date.now()}-${Math.random()}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr;
}

describe('CI reports through the commands', () => {
  it('scans create --wait --fail-on high -o sarif: every finding in the report, exit 10 only from the gate', async () => {
    const r = await w.run([
      'scans',
      'create',
      '--connection',
      'prod',
      '--wait',
      '--fail-on',
      'high',
      '-o',
      'sarif',
    ]);
    expect(r.code, r.stderr).toBe(10);
    const doc = JSON.parse(r.stdout) as SarifDoc;
    expect(sarifSchemaErrors(doc)).toStrictEqual([]);
    const all = await findingsOfScan(scanIdOf(r.stderr));
    expect(all.length).toBeGreaterThan(0);
    const reported = doc.runs[0]!.results.map((x) => x.properties['finding-id']);
    expect(reported.sort()).toStrictEqual(all.map((f) => f.id).sort());
    // Below the gate too: the report is not filtered by --fail-on.
    expect(doc.runs[0]!.results.some((x) => x.level === 'note')).toBe(true);
    expect(r.stderr).toMatch(/error: scan \S+ has \d+ findings? at or above high: /);
  });

  it('--severity narrows the report, never the gate', async () => {
    const created = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { scan_id: string }).scan_id;
    const all = await findingsOfScan(id);
    const r = await w.run(['scans', 'wait', id, '--fail-on', 'high', '--severity', 'low', '-o', 'junit']);
    expect(r.code, r.stderr).toBe(10);
    expect(junitErrors(r.stdout)).toBe('');
    const lows = all.filter((f) => f.severity === 'low');
    // The report fails as the run does: the gate's own test case, since no listed finding meets it.
    expect(r.stdout).toContain(`<testsuites name="cssctl findings" tests="${lows.length + 1}" failures="1"`);
    expect(r.stdout).toMatch(/<testcase name="--fail-on high" classname="cssctl gate"/);
    expect(r.stdout).toMatch(/--fail-on high: \d+ findings? at or above high, not listed in this report/);
    for (const f of lows) expect(r.stdout).toContain(`[${f.id}]`);
    // With a gate that is not met, the same report exits 0.
    const ok = await w.run(['scans', 'wait', id, '--severity', 'low', '-o', 'junit', '--no-step-summary']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`failures="${lows.length}"`);
  });

  it('-o github: one workflow command per finding, most severe first', async () => {
    const r = await w.run(['scans', 'create', '--connection', 'staging', '--wait', '-o', 'github']);
    expect(r.code, r.stderr).toBe(0);
    const all = await findingsOfScan(scanIdOf(r.stderr));
    const out = lines(r.stdout);
    expect(out).toHaveLength(all.length);
    const kinds = out.map((l) => /^::(error|warning|notice)[ :]/.exec(l)?.[1]);
    const order = { error: 0, warning: 1, notice: 2 } as const;
    const ranks = kinds.map((k) => order[k as keyof typeof order]);
    expect(ranks).toStrictEqual([...ranks].sort((a, b) => a - b));
    expect(kinds.filter((k) => k === 'error')).toHaveLength(
      all.filter((f) => f.severity === 'critical' || f.severity === 'high').length,
    );
  });

  it('findings list -o junit without a gate: every finding is a failure; -o sarif valid', async () => {
    const j = await w.run(['findings', 'list', '--severity', 'high,critical', '--all', '-o', 'junit']);
    expect(j.code, j.stderr).toBe(0);
    expect(junitErrors(j.stdout)).toBe('');
    const m = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(j.stdout)!;
    expect(Number(m[1])).toBeGreaterThan(0);
    expect(m[2]).toBe(m[1]);
    const s = await w.run(['findings', 'list', '--limit', '30', '-o', 'sarif']);
    expect(s.code, s.stderr).toBe(0);
    expect(sarifSchemaErrors(JSON.parse(s.stdout))).toStrictEqual([]);
  });

  it('appends a step summary to $GITHUB_STEP_SUMMARY, never over earlier steps; --no-step-summary turns it off', async () => {
    const summary = join(w.dir, 'step-summary.md');
    writeFileSync(summary, '## An earlier step\n');
    const env = { GITHUB_STEP_SUMMARY: summary };
    const r = await w.run(
      ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'critical', '-o', 'sarif'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(10);
    const id = scanIdOf(r.stderr);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('## An earlier step\n\n### cssctl scan ')).toBe(true);
    expect(text).toContain(`| Scan | ${id.replace(/_/g, '\\_')} |`);
    expect(text).toContain('| Connection | prod |');
    expect(text).toContain('| Status | completed |');
    expect(text).toMatch(/\| Gate \| .*`--fail-on critical`/);
    expect(text).toMatch(/\| critical \| \d+ \|/);
    const off = await w.run(['scans', 'wait', id, '--no-step-summary', '-q'], { env });
    expect(off.code, off.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toBe(text);
    const again = await w.run(['scans', 'wait', id, '-q'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8').startsWith(text)).toBe(true);
    expect(readFileSync(summary, 'utf8').split('### cssctl scan')).toHaveLength(3);
  });

  it('--wait-timeout 1e-9 on a scan that is final already: its result, never exit 9', async () => {
    const created = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { scan_id: string }).scan_id;
    const tiny = await w.run(['scans', 'wait', id, '--wait-timeout', '1e-9']);
    expect(tiny.code, tiny.stderr).toBe(0);
    expect(tiny.stdout).toMatch(/^STATUS\s+completed$/m);
    // A variant: a short deadline with a report and a gate: the gate decides, not the deadline.
    const sarif = await w.run([
      'scans',
      'wait',
      id,
      '--wait-timeout',
      '0.001',
      '-o',
      'sarif',
      '--fail-on',
      'info',
    ]);
    expect(sarif.code, sarif.stderr).toBe(10);
    expect(sarifSchemaErrors(JSON.parse(sarif.stdout))).toStrictEqual([]);
  });

  // cli-contract.md §12: a failed scan writes no report that looks like a result (an empty SARIF saying the run
  // succeeded, uploaded with `if: always()`, would close every open alert).
  it('a failed scan, -o sarif / junit / github: nothing on stdout, in create --wait and in wait', async () => {
    const created = await w.run(['scans', 'create', '--connection', 'legacy-fail', '--wait', '-o', 'sarif']);
    expect(created.code, created.stderr).toBe(9);
    expect(created.stdout).toBe('');
    expect(lines(created.stderr).at(-1)).toMatch(/^error: scan scn_\w+ failed/);
    const id = scanIdOf(created.stderr);
    for (const format of ['junit', 'github', 'sarif']) {
      const waited = await w.run(['scans', 'wait', id, '-o', format, '--fail-on', 'low']);
      expect(waited.code, waited.stderr).toBe(9);
      expect(waited.stdout).toBe('');
    }
    // A variant: another failing connection, and -o junit with a --report file that stays unwritten.
    const report = join(w.dir, 'failed-report.sarif');
    const made = await w.run(['connections', 'create', '--alias', 'fail-ci', '--provider', 'gcp']);
    expect(made.code, made.stderr).toBe(0);
    const other = await w.run([
      'scans',
      'create',
      '--connection',
      'fail-ci',
      '--wait',
      '-o',
      'junit',
      '--report',
      `sarif=${report}`,
    ]);
    expect(other.code, other.stderr).toBe(9);
    expect(other.stdout).toBe('');
    expect(() => readFileSync(report)).toThrow(/ENOENT/);
  });

  it('a failed scan: exit 9, and the summary says so; an unwritable summary is a warning only', async () => {
    const summary = join(w.dir, 'failed.md');
    const r = await w.run(['scans', 'create', '--connection', 'legacy-fail', '--wait', '--fail-on', 'high'], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.code, r.stderr).toBe(9);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('| Status | failed |');
    expect(text).toContain('not decided: the scan failed (exit 9)');
    const dir = join(w.dir, 'a-dir');
    mkdirSync(dir);
    const ok = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '-q'], {
      env: { GITHUB_STEP_SUMMARY: dir },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(lines(ok.stderr)).toStrictEqual([
      expect.stringMatching(
        /^warning: did not append the step summary to .*a-dir \(\$GITHUB_STEP_SUMMARY\): it is a folder, not a regular file$/,
      ),
    ]);
  });
});
