import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings-types.js';
import { get } from '../../src/commands/findings/get.js';
import { fingerprintOf, ruleIdOf } from '../../src/report/fingerprint.js';
import { sarif } from '../../src/report/formats/sarif.js';
import { finding, runReport } from '../helpers/report.js';
import { json, verbWorld } from '../helpers/verb.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('fingerprints (cli-contract.md §8)', () => {
  it('the SHA-256 of [rule, connection, "resource", resource] as JSON without spaces', () => {
    const f = finding({
      id: 'f1',
      rule_id: 's3-public',
      resource: 'arn:aws:s3:::b',
      connection_alias: 'prod',
    });
    expect(fingerprintOf(f)).toBe(sha('["s3-public","prod","resource","arn:aws:s3:::b"]'));
  });

  it('rule: rule_id, else check_id, else the slug of the title; connection "" when absent', () => {
    const byCheck = finding({ id: 'f1', check_id: 'CKV_1', resource: 'r' });
    delete byCheck.connection_alias;
    expect(fingerprintOf(byCheck)).toBe(sha('["CKV_1","","resource","r"]'));
    const byTitle = finding({
      id: 'f1',
      title: 'Root account has keys!',
      resource: 'r',
      connection_alias: 'c',
    });
    expect(ruleIdOf(byTitle)).toBe('root-account-has-keys');
    expect(fingerprintOf(byTitle)).toBe(sha('["root-account-has-keys","c","resource","r"]'));
  });

  it('without a resource: "id" and the id in place of the last two', () => {
    const f = finding({ id: 'fnd_9', rule_id: 'r1', connection_alias: 'c' });
    delete f.resource;
    expect(fingerprintOf(f)).toBe(sha('["r1","c","id","fnd_9"]'));
  });

  it('never the id, severity, status or position', () => {
    const a = finding({ id: 'a', severity: 'high', status: 'open' });
    const b = finding({ id: 'b', severity: 'low', status: 'closed', resource: a.resource });
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
  });

  it('is what SARIF carries as partialFingerprints["cssctlFindingHash/v1"]', async () => {
    const fs = [finding({ id: 'a' }), finding({ id: 'b', rule_id: 'x', resource: 'y' })];
    const { out } = await runReport(sarif, fs);
    const doc = JSON.parse(out) as {
      runs: {
        results: { partialFingerprints: Record<string, string>; properties: { 'finding-id': string } }[];
      }[];
    };
    for (const r of doc.runs[0]!.results) {
      const f = fs.find((x) => x.id === r.properties['finding-id'])!;
      expect(r.partialFingerprints['cssctlFindingHash/v1']).toBe(fingerprintOf(f));
    }
  });
});

describe('findings get (verb)', () => {
  it('json: the finding plus its fingerprint', async () => {
    const f = {
      id: 'fnd_1',
      severity: 'high',
      title: 'T',
      resource: 'r',
      connection_alias: 'prod',
      rule_id: 'x',
    };
    const w = verbWorld([json(f)], { output: 'json' });
    expect(await w.run(get, {}, ['fnd_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings/fnd_1']);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      ...f,
      fingerprint: sha('["x","prod","resource","r"]'),
    });
  });

  it('table: one field a line, the fingerprint among them', async () => {
    const w = verbWorld([json({ id: 'fnd_1', severity: 'high', title: 'T', resource: 'r' })]);
    expect(await w.run(get, {}, ['fnd_1'])).toBe(0);
    expect(w.stdout.text).toMatch(/^FINGERPRINT\s+[0-9a-f]{64}$/m);
    expect(w.stdout.text).toMatch(/^SEVERITY\s+high$/m);
  });

  it('an unknown id is exit 5; an id with a slash is exit 2 before any request', async () => {
    const w = verbWorld([json({ detail: 'finding "nope" not found' }, 404)]);
    expect(await w.run(get, {}, ['nope'])).toBe(5);
    const generic = verbWorld([json({ detail: 'Not Found' }, 404)]);
    expect(await generic.run(get, {}, ['fnd_gone'])).toBe(5);
    expect(generic.stderr.text).toContain('error: finding "fnd_gone" not found');
    const bad = verbWorld([]);
    expect(await bad.run(get, {}, ['../scans'])).toBe(2);
  });

  it('an answer about another finding is exit 1 naming it', async () => {
    const w = verbWorld([json({ id: 'fnd_2', severity: 'low' })]);
    expect(await w.run(get, {}, ['fnd_1'])).toBe(1);
    expect(w.stderr.text).toContain('the service answered about finding fnd_2 when asked for finding fnd_1');
  });
});

describe('fingerprints: properties', () => {
  const arb = fc.record({
    id: fc.string({ minLength: 1, maxLength: 12 }),
    severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info', 'weird'),
    status: fc.constantFrom('open', 'closed', undefined),
    title: fc.string({ maxLength: 30 }),
    resource: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
    connection_alias: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    rule_id: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
  });

  it('never changes with the id (when there is a resource), the severity or the status', () => {
    fc.assert(
      fc.property(arb, fc.string({ minLength: 1 }), fc.constantFrom('critical', 'low'), (f, id, severity) => {
        fc.pre(f.resource !== undefined && f.resource.trim() !== '');
        expect(fingerprintOf({ ...f, id, severity, status: 'other' } as Finding)).toBe(
          fingerprintOf(f as Finding),
        );
      }),
    );
  });

  it('never changes with the position in the list or the page size it was read with', async () => {
    const { allPages } = await import('../../src/report/sources/pages.js');
    const { IO } = await import('../../src/core/io.js');
    const { PassThrough } = await import('node:stream');
    const { Collect } = await import('../helpers/streams.js');
    await fc.assert(
      fc.asyncProperty(
        fc.array(arb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 15 }),
        async (raw, size) => {
          const fs = raw.map((f, i) => ({ ...f, id: `f${i}` })) as Finding[];
          const io = new IO(
            { stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() },
            { env: {} },
          );
          const ctx = { io, argv: [] } as unknown as Parameters<typeof allPages>[0];
          const src = allPages<Finding>(
            ctx,
            {
              fetch: async (offset, limit) => ({
                items: fs.slice(offset, offset + Math.min(limit, size)),
                total: fs.length,
              }),
              idOf: (f) => f.id,
            },
            { limit: size },
          );
          const read = new Map<string, string>();
          for await (const f of src) read.set(f.id, fingerprintOf(f));
          const shuffled = [...fs].reverse();
          for (const f of shuffled) expect(read.get(f.id)).toBe(fingerprintOf(f));
        },
      ),
      { numRuns: 60 },
    );
  });
});
