import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintOf, ruleIdOf } from '../../src/report/fingerprint.js';
import { SARIF_MAX_RESULTS, artifactUriOf, sarif } from '../../src/report/formats/sarif.js';
import { NASTY, finding, manyFindings, runReport } from '../helpers/report.js';
import { sarifSchemaErrors } from '../helpers/sarif.js';

const require = createRequire(import.meta.url);

const work = mkdtempSync(join(tmpdir(), 'cssctl-sarif-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MULTITOOL = join(
  require.resolve('@microsoft/sarif-multitool-linux/package.json'),
  '..',
  'Sarif.Multitool',
);
let runs = 0;

/** Microsoft's SARIF multitool with GitHub's ingestion rules; it exits 0 even when it finds errors. */
function multitoolErrors(text: string): string[] {
  runs++;
  const input = join(work, `in-${runs}.sarif`);
  const output = join(work, `out-${runs}.sarif`);
  writeFileSync(input, text);
  const r = spawnSync(MULTITOOL, ['validate', '--rule-kind', 'Ghas;Sarif', '-o', output, input], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`multitool failed (${r.status}): ${r.stderr}${r.stdout}`);
  const log = JSON.parse(readFileSync(output, 'utf8')) as {
    runs: {
      results?: { level?: string; ruleId: string; message: { id?: string; arguments?: string[] } }[];
    }[];
  };
  // A result without a level is a warning (SARIF's default).
  return (log.runs[0]?.results ?? [])
    .filter((r) => r.level === 'error')
    .map((r) => `${r.ruleId} ${r.message.id ?? ''} ${(r.message.arguments ?? []).join(' | ')}`);
}

interface Sarif {
  runs: {
    tool: { driver: { name: string; version: string; rules: Rule[] } };
    invocations: {
      executionSuccessful: boolean;
      toolExecutionNotifications?: { message: { text: string } }[];
    }[];
    results: Result[];
  }[];
}
interface Rule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  properties: { 'security-severity'?: string; tags: string[] };
}
interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
    logicalLocations?: { fullyQualifiedName: string }[];
  }[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, string>;
}

const MIXED = [
  finding({ id: 'f1', severity: 'low', title: 'Service account key older than 90 days' }),
  finding({ id: 'f2', severity: 'critical', rule_id: 'AWS.S3.1', title: 'S3 bucket is public' }),
  finding({ id: 'f3', severity: 'HIGH', check_id: 'iam-star', title: 'IAM policy grants "*" actions' }),
  finding({ id: 'f4', severity: 'medium', title: NASTY, resource: NASTY, connection_alias: NASTY }),
  finding({ id: 'f5', severity: 'info', title: undefined, resource: undefined }),
  finding({ id: 'f6', severity: 'weird', title: 'Unknown severity from the service' }),
  finding({
    id: 'f7',
    severity: 'high',
    rule_id: 'AWS.S3.1',
    title: 'S3 bucket is public',
    description: 'Long.',
  }),
  finding({
    id: 'f8',
    severity: 'critical',
    title: 'Azure storage',
    resource: '/subscriptions/0000/resourceGroups/rg-1/providers/Microsoft.Storage/storageAccounts/st1',
    remediation: 'Turn off *public* access [docs](https://example.invalid)',
  }),
];

describe('sarif', () => {
  it('is valid against the OASIS SARIF 2.1.0 schema and GitHub’s ingestion rules (SARIF multitool)', async () => {
    const { out } = await runReport(sarif, MIXED);
    const doc = JSON.parse(out) as Sarif;
    expect(sarifSchemaErrors(doc)).toStrictEqual([]);
    expect(multitoolErrors(out)).toStrictEqual([]);
  });

  it('the validators can fail: the multitool rejects a result without a location, the schema an unknown level or a bad URI', async () => {
    const doc = JSON.parse((await runReport(sarif, MIXED.slice(0, 2))).out) as Sarif;
    const broken = structuredClone(doc);
    delete (broken.runs[0]!.results[0] as Partial<Result>).locations;
    expect(multitoolErrors(JSON.stringify(broken)).join('\n')).toMatch(/GH\d+/);
    const invalid = structuredClone(doc) as unknown as { runs: { results: { level: string }[] }[] };
    invalid.runs[0]!.results[0]!.level = 'fatal';
    expect(sarifSchemaErrors(invalid).length).toBeGreaterThan(0);
    // formats are checked too: an artifact URI must be a valid uri-reference
    const badUri = structuredClone(doc);
    badUri.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri = 'arn aws:s3 bucket';
    expect(sarifSchemaErrors(badUri).length).toBeGreaterThan(0);
  });

  it('an empty or interrupted report is still a valid document', async () => {
    const empty = JSON.parse((await runReport(sarif, [])).out) as Sarif;
    expect(empty.runs[0]!.results).toStrictEqual([]);
    expect(sarifSchemaErrors(empty)).toStrictEqual([]);
    const cut = JSON.parse((await runReport(sarif, MIXED.slice(0, 3), {}, false)).out) as Sarif;
    expect(sarifSchemaErrors(cut)).toStrictEqual([]);
    expect(cut.runs[0]!.results).toHaveLength(3);
    expect(cut.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
  });

  it('one rule per check, with descriptions, help and security-severity in GitHub’s bands', async () => {
    const doc = JSON.parse((await runReport(sarif, MIXED)).out) as Sarif;
    const run = doc.runs[0]!;
    expect(run.tool.driver.name).toBe('cssctl');
    const rules = run.tool.driver.rules;
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    // f2 and f7 share AWS.S3.1; the others are each their own check.
    expect(rules).toHaveLength(MIXED.length - 1);
    const byId = new Map(rules.map((r) => [r.id, r]));
    const s3 = byId.get('AWS.S3.1')!;
    expect(s3.shortDescription.text).toBe('S3 bucket is public');
    expect(s3.fullDescription.text).toBe('Long.');
    expect(s3.help.text).toContain('AWS.S3.1');
    expect(byId.has('iam-star')).toBe(true);
    const band = (id: string) => Number(byId.get(id)!.properties['security-severity']);
    expect(band('AWS.S3.1')).toBeGreaterThanOrEqual(9.0); // critical and high: the most severe counts
    expect(band('iam-star')).toBeGreaterThanOrEqual(7.0);
    expect(band('iam-star')).toBeLessThanOrEqual(8.9);
    const med = run.results.find((r) => r.properties['finding-id'] === 'f4')!;
    expect(Number(rules[med.ruleIndex]!.properties['security-severity'])).toBeGreaterThanOrEqual(4.0);
    expect(Number(rules[med.ruleIndex]!.properties['security-severity'])).toBeLessThanOrEqual(6.9);
    const low = run.results.find((r) => r.properties['finding-id'] === 'f1')!;
    expect(Number(rules[low.ruleIndex]!.properties['security-severity'])).toBeGreaterThanOrEqual(0.1);
    expect(Number(rules[low.ruleIndex]!.properties['security-severity'])).toBeLessThanOrEqual(3.9);
    for (const r of rules) expect(r.properties.tags).toContain('security');
    // Markdown in service text is escaped, not rendered.
    const az = run.results.find((r) => r.properties['finding-id'] === 'f8')!;
    expect(rules[az.ruleIndex]!.help.markdown).toContain('Turn off \\*public\\* access \\[docs\\]');
  });

  it('each result points at its rule by id and index, with the level of its severity', async () => {
    const doc = JSON.parse((await runReport(sarif, MIXED)).out) as Sarif;
    const run = doc.runs[0]!;
    const levels = Object.fromEntries(run.results.map((r) => [r.properties['finding-id'], r.level]));
    expect(levels).toStrictEqual({
      f1: 'note',
      f2: 'error',
      f3: 'error',
      f4: 'warning',
      f5: 'note',
      f6: 'note',
      f7: 'error',
      f8: 'error',
    });
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
  });

  it('results come most severe first, whatever order the findings arrive in', async () => {
    const doc = JSON.parse((await runReport(sarif, MIXED)).out) as Sarif;
    expect(doc.runs[0]!.results.map((r) => r.properties['finding-id'])).toStrictEqual([
      'f2',
      'f8',
      'f3',
      'f7',
      'f4',
      'f1',
      'f5',
      'f6',
    ]);
  });

  it('text from the service survives exactly (JSON escapes what it must)', async () => {
    const doc = JSON.parse((await runReport(sarif, [MIXED[3]!])).out) as Sarif;
    const r = doc.runs[0]!.results[0]!;
    expect(r.message.text.startsWith(`${NASTY}. `)).toBe(true);
    expect(r.locations[0]!.logicalLocations![0]!.fullyQualifiedName).toBe(NASTY);
    expect(r.properties.connection).toBe(NASTY);
    expect(doc.runs[0]!.tool.driver.rules[0]!.shortDescription.text).toBe(NASTY);
  });

  it('every result has a relative location URI that names the resource and stays the same', () => {
    const f = finding({ id: 'a', resource: 'arn:aws:s3:::acme-data-1' });
    expect(artifactUriOf(f)).toBe('cloud-resources/prod/arn%3Aaws%3As3%3A%3A%3Aacme-data-1');
    expect(artifactUriOf({ ...f, id: 'b', severity: 'low' })).toBe(artifactUriOf(f));
    expect(
      artifactUriOf(finding({ id: 'x', resource: '/subscriptions/1/../rg', connection_alias: 'a b' })),
    ).toBe('cloud-resources/a%20b/subscriptions/1/%2E%2E/rg');
    expect(artifactUriOf(finding({ id: 'x', resource: undefined, connection_alias: undefined }))).toBe(
      'cloud-resources/_/findings/x',
    );
  });

  it('partialFingerprints: the same finding keeps its fingerprint across runs, a different one does not', async () => {
    const a = finding({ id: 'fnd_1', severity: 'high', resource: 'arn:aws:s3:::bucket' });
    // The next scan: a new finding id, another position in the report, re-rated severity.
    const again = { ...a, id: 'fnd_999', severity: 'critical', created_at: '2026-01-01T00:00:00Z' };
    expect(fingerprintOf(again)).toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, resource: 'arn:aws:s3:::other' })).not.toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, connection_alias: 'staging' })).not.toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, title: 'Another check' })).not.toBe(fingerprintOf(a));
    const run1 = JSON.parse((await runReport(sarif, [finding({ id: 'x' }), a])).out) as Sarif;
    const run2 = JSON.parse((await runReport(sarif, [again])).out) as Sarif;
    const fp = (d: Sarif, i: number) => d.runs[0]!.results[i]!.partialFingerprints;
    expect(fp(run2, 0)).toStrictEqual(fp(run1, 1));
    expect(fp(run1, 0).primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:1$/);
  });

  it('rule ids: the service’s check id, else a stable slug of the title', () => {
    expect(ruleIdOf(finding({ id: '1', rule_id: 'R-1', check_id: 'C-1' }))).toBe('R-1');
    expect(ruleIdOf(finding({ id: '1', check_id: 'C-1' }))).toBe('C-1');
    expect(ruleIdOf(finding({ id: '1', title: 'Security group allows 0.0.0.0/0 on port 22' }))).toBe(
      'security-group-allows-0-0-0-0-0-on-port-22',
    );
    const k = ruleIdOf(finding({ id: '1', title: 'Key Vault purge protection disabled — soft delete only' }));
    expect(k).toMatch(/^key-vault-purge-protection-disabled-soft-delete-only-[0-9a-f]{8}$/);
    expect(ruleIdOf(finding({ id: '2', title: '漢字' }))).not.toBe(
      ruleIdOf(finding({ id: '3', title: '字漢' })),
    );
    expect(ruleIdOf(finding({ id: '2', title: undefined }))).toBe('cssctl/finding');
  });

  it(`keeps at most ${SARIF_MAX_RESULTS.toLocaleString('en-US')} results (the most severe) and says on stderr how many were left out`, async () => {
    const input = [...manyFindings(50)];
    const { out, err } = await runReport(sarif, input, { maxResults: 20 });
    const doc = JSON.parse(out) as Sarif;
    expect(sarifSchemaErrors(doc)).toStrictEqual([]);
    const kept = doc.runs[0]!.results;
    expect(kept).toHaveLength(20);
    const rank = ['critical', 'high', 'medium', 'low', 'info'];
    const ranks = kept.map((r) => rank.indexOf(r.properties.severity!));
    expect(ranks).toStrictEqual([...ranks].sort((a, b) => a - b));
    // 50 findings at 1/7 critical, 1/7 high, 2/7 medium...: every critical and high is kept.
    const severe = input.filter((f) => f.severity === 'critical' || f.severity === 'high').length;
    expect(kept.filter((r) => r.level === 'error')).toHaveLength(severe);
    expect(err).toMatch(/30 of 50 findings left out.*at most 20 results per run/);
    expect(doc.runs[0]!.invocations[0]!.toolExecutionNotifications![0]!.message.text).toMatch(/30 of 50/);
    expect((await runReport(sarif, input.slice(0, 20), { maxResults: 20 })).err).toBe('');
  });

  it('past the rule limit, further checks share one rule (bounded memory, accepted by GitHub)', async () => {
    const input = ['A', 'B', 'C', 'D', 'E', 'A'].map((t, i) =>
      finding({ id: `r${i}`, title: `Check ${t}`, severity: i === 4 ? 'critical' : 'low' }),
    );
    const { out, err } = await runReport(sarif, input, { maxRules: 3 });
    const doc = JSON.parse(out) as Sarif;
    expect(sarifSchemaErrors(doc)).toStrictEqual([]);
    const run = doc.runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toStrictEqual([
      'check-a',
      'check-b',
      'cssctl/other-checks',
    ]);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
    const other = run.tool.driver.rules[2]!;
    expect(Number(other.properties['security-severity'])).toBeGreaterThanOrEqual(9); // E was critical
    expect(run.results.find((r) => r.properties['finding-id'] === 'r3')!.message.text).toMatch(/^Check D\. /);
    expect(err).toMatch(/sarif: 3 findings of checks beyond the first 2 share the rule cssctl\/other-checks/);
  });

  it('the result cut and the separators hold wherever the spill files are read apart (property)', async () => {
    const rank = ['critical', 'high', 'medium', 'low', 'info'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            severity: fc.constantFrom(...rank, 'weird'),
            title: fc.stringMatching(/^[a-z ,\n{}"\\]{0,12}$/),
          }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 1, max: 64 }),
        async (specs, maxResults, spillBytes, readChunk) => {
          const input = specs.map((s, i) => finding({ id: `f${i}`, ...s }));
          const tmp = mkdtempSync(join(work, 'prop-'));
          const { out } = await runReport(sarif, input, { maxResults, spillBytes, readChunk, tmpDir: tmp });
          const doc = JSON.parse(out) as Sarif;
          const order = (f: { severity: string }) => {
            const i = rank.indexOf(f.severity);
            return i < 0 ? rank.length : i;
          };
          const expected = input
            .map((f, i) => ({ f, i }))
            .sort((a, b) => order(a.f) - order(b.f) || a.i - b.i)
            .slice(0, maxResults)
            .map(({ f }) => f.id);
          expect(doc.runs[0]!.results.map((r) => r.properties['finding-id'])).toStrictEqual(expected);
          rmSync(tmp, { recursive: true, force: true });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('past the memory threshold results spill to a private temporary folder, same output, folder removed', async () => {
    const tmp = mkdtempSync(join(work, 'spill-'));
    const inMemory = await runReport(sarif, manyFindings(3000));
    const spilled = await runReport(sarif, manyFindings(3000), { spillBytes: 64 * 1024, tmpDir: tmp });
    expect(spilled.out).toBe(inMemory.out);
    expect(readdirSync(tmp)).toStrictEqual([]);
    expect(sarifSchemaErrors(JSON.parse(spilled.out))).toStrictEqual([]);
  });
});
