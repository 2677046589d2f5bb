// `-o ocsf` (cli-contract.md §14): the mapping of a finding to an OCSF 1.6.0 Detection Finding, checked against
// the release's own definitions (test/fixtures/ocsf) by test/helpers/ocsf.ts — and that validator itself, which
// must catch each way an event can be wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings-types.js';
import { annotate } from '../../src/report/diff.js';
import { fingerprintOf } from '../../src/report/fingerprint.js';
import {
  OCSF_VERSION,
  ocsf,
  ocsfEvent,
  ocsfLine,
  ocsfMetadata,
  severityOf,
  statusOf,
} from '../../src/report/formats/ocsf.js';
import { markIgnored } from '../../src/report/ignore/stage.js';
import { REPORT_FORMATS } from '../../src/report/registry.js';
import { keepsIgnored } from '../../src/report/ignore/index.js';
import { VERSION } from '../../src/version.js';
import { expectValidOcsf, OCSF_FIXTURES, ocsfSchema } from '../helpers/ocsf.js';
import { PassThrough } from 'node:stream';
import type { ReportAbout } from '../../src/core/format.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { finding, NASTY, runReport } from '../helpers/report.js';

const meta = ocsfMetadata({ workspace: 'acme', service: 'https://css.example.com' });
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const event = (f: Finding) => ocsfEvent(f, meta, () => NOW);
const line = (e: object) => `${JSON.stringify(e)}\n`;

/** An event as a JSON tree, read and changed freely by the tests. */
type Tree = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

const sample = finding({ id: 'fnd_1', created_at: '2025-06-02T08:11:00.000Z' });

describe('the OCSF definitions kept in test/fixtures/ocsf', () => {
  it('are the release named in metadata.version, with the Apache-2.0 licence', () => {
    expect(ocsfSchema().version).toBe(OCSF_VERSION);
    expect(readFileSync(join(OCSF_FIXTURES, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
  });

  it('resolve Detection Finding through its extends chain, the dictionary and the categories', () => {
    const cls = ocsfSchema().classByUid(2004)!;
    expect(cls).toMatchObject({ name: 'detection_finding', caption: 'Detection Finding', category_uid: 2 });
    const required = Object.entries(cls.attributes)
      .filter(([, a]) => a.requirement === 'required' && !a.profile)
      .map(([k]) => k)
      .sort();
    expect(required).toEqual([
      'activity_id',
      'category_uid',
      'class_uid',
      'finding_info',
      'metadata',
      'severity_id',
      'time',
      'type_uid',
    ]);
    // Enum values of the class, its parents and the dictionary all count.
    expect(Object.keys(cls.attributes.activity_id!.enum!)).toEqual(['0', '1', '2', '3', '99']);
    expect(cls.attributes.status_id!.enum!['3']!.caption).toBe('Suppressed');
    expect(cls.attributes.status_id!.enum!['99']!.caption).toBe('Other');
    // A profile's attributes are marked; the class's own `"profile": null` makes one part of the class.
    expect(cls.attributes.actor!.profile).toBe('host');
    expect(cls.attributes.is_alert!.profile).toBeNull();
  });
});

describe('the validator', () => {
  const good = event(sample);
  const schema = ocsfSchema();
  const errorsOf = (e: unknown) => schema.validate(e).errors;
  const mutate = (fn: (e: Tree) => void) => {
    const copy = structuredClone(good) as Tree;
    fn(copy);
    return errorsOf(copy);
  };

  it('accepts a well-formed event', () => {
    expect(errorsOf(good)).toEqual([]);
  });

  it.each([
    ['a required attribute missing', (e) => delete e.time, /^time: required attribute missing/],
    ['a nested required attribute missing', (e) => delete e.finding_info.uid, /finding_info\.uid: required/],
    ['a wrong type', (e) => (e.time = '2025-06-02'), /^time: expected timestamp_t \(long_t\)/],
    ['a float for an integer', (e) => (e.severity_id = 4.5), /severity_id: expected integer_t/],
    ['a nested wrong type', (e) => (e.finding_info.title = 7), /finding_info\.title: expected string_t/],
    ['an object for a string', (e) => (e.message = { t: 1 }), /^message: expected string_t/],
    [
      'a string for an object',
      (e) => (e.metadata.product = 'x'),
      /metadata\.product: expected a product object/,
    ],
    [
      'a non-array',
      (e) => (e.resources = e.resources[0]),
      /^resources: expected an array of resource_details/,
    ],
    [
      'an undefined enum value',
      (e) => (e.severity_id = 7),
      /^severity_id: 7 is not one of 0, 1, 2, 3, 4, 5, 6, 99/,
    ],
    ['a nested enum value', (e) => (e.resources[0].role_id = 9), /resources\[0\]\.role_id: 9 is not one of/],
    [
      'a Detection Finding activity it does not have',
      (e) => (e.activity_id = 4),
      /activity_id: 4 is not one/,
    ],
    [
      'a sibling that is not the caption',
      (e) => (e.severity = 'Severe'),
      /^severity: "Severe" is not the caption/,
    ],
    [
      'an attribute the class does not have',
      (e) => (e.scan_id = 'scn_1'),
      /^scan_id: no attribute "scan_id" in class/,
    ],
    [
      'one an object does not have',
      (e) => (e.finding_info.scan = 1),
      /finding_info\.scan: no attribute .* object finding_info/,
    ],
    [
      'a profile attribute without the profile',
      (e) => (e.cloud = { provider: 'aws' }),
      /cloud: attribute of the cloud profile/,
    ],
    ['an unknown profile', (e) => (e.metadata.profiles = ['nope']), /unknown profile "nope"/],
    ['a wrong type_uid', (e) => (e.type_uid = 200402), /^type_uid: 200402 is not one of|type_uid is 200402/],
    ['another class', (e) => (e.class_uid = 2001), /class_uid/],
    ['another category', (e) => (e.category_uid = 1), /^category_uid: 1 is not one of 2/],
    ['another version', (e) => (e.metadata.version = '1.5.0'), /metadata\.version is 1\.5\.0/],
    [
      'an object constraint',
      (e) => (e.metadata.product = { url_string: 'https://x' }),
      /metadata\.product: needs at least one of name, uid/,
    ],
    [
      'a data type pattern',
      (e) => (e.resources[0].ip = '10.0.0.300'),
      /resources\[0\]\.ip: "10\.0\.0\.300" does not match ip_t/,
    ],
    [
      'a data type length',
      (e) => (e.resources[0].ip = `::${'0'.repeat(40)}`),
      /resources\[0\]\.ip: longer than ip_t's 40/,
    ],
    ['a null', (e) => (e.message = null), /^message: null/],
    [
      'a deprecated attribute',
      (e) => (e.finding_info.analytic.related_analytics = []),
      /related_analytics: deprecated/,
    ],
  ] as [string, (e: Tree) => void, RegExp][])('reports %s', (_what, change, expected) => {
    const errors = mutate(change);
    expect(
      errors.some((m) => expected.test(m)),
      errors.join('\n'),
    ).toBe(true);
  });

  it('takes profile attributes once metadata.profiles names the profile', () => {
    const errors = mutate((e) => {
      e.metadata.profiles = ['security_control'];
      e.action_id = 1;
      e.action = 'Allowed';
    });
    expect(errors).toEqual([]);
  });

  it('takes anything in unmapped, an open object', () => {
    expect(mutate((e) => (e.unmapped = { a: [1, { b: null }], c: 'x' }))).toEqual([]);
  });

  it('names a kept file missing for an object the event uses', () => {
    const errors = mutate((e) => (e.finding_info.attacks = [{ technique: { uid: 'T1' } }]));
    expect(errors.join('\n')).toMatch(/objects\/attack\.json is not among the OCSF files kept/);
  });

  it('rejects a line that is not an event, naming it', () => {
    expect(() => expectValidOcsf(`${line(good)}{"class_uid": 2004}\n`)).toThrow(
      /line 2 is not a valid OCSF event/,
    );
    expect(() => expectValidOcsf('not json\n')).toThrow(/line 1 is not JSON/);
  });
});

describe('a finding as a Detection Finding', () => {
  it('maps the fields the contract names', () => {
    const e = event(sample) as Tree;
    expect(e).toMatchObject({
      class_uid: 2004,
      category_uid: 2,
      activity_id: 1,
      activity_name: 'Create',
      type_uid: 200401,
      severity_id: 4,
      severity: 'High',
      status_id: 1,
      status: 'New',
      time: Date.parse('2025-06-02T08:11:00.000Z'),
      message: sample.title,
      is_alert: true,
    });
    // The fingerprint: the same finding across scans (the service's id changes with every scan).
    expect(e.finding_info).toEqual({
      uid: fingerprintOf(sample),
      title: sample.title,
      uid_alt: 'fnd_1',
      created_time: Date.parse('2025-06-02T08:11:00.000Z'),
      analytic: { uid: 's3-bucket-allows-public-read-access', name: sample.title, type_id: 1, type: 'Rule' },
    });
    expect(e.resources).toEqual([
      { uid: sample.resource, name: sample.resource, role_id: 1, role: 'Target' },
    ]);
    expect(e.metadata).toEqual({
      version: '1.6.0',
      product: { name: 'Cloud Security Scanning Service', url_string: 'https://css.example.com' },
      tenant_uid: 'acme',
      log_provider: 'cssctl',
      loggers: [{ name: 'cssctl', version: VERSION, product: { name: 'cssctl', version: VERSION } }],
      original_time: '2025-06-02T08:11:00.000Z',
    });
    // Every other field of the finding, as the service gave it.
    expect(e.unmapped).toEqual({ connection_alias: 'prod', scan_id: 'scn_1', status: 'open' });
    expectValidOcsf(line(e));
  });

  it.each([
    ['critical', 5, 'Critical'],
    ['HIGH', 4, 'High'],
    ['medium', 3, 'Medium'],
    ['low', 2, 'Low'],
    ['info', 1, 'Informational'],
    ['moderate', 99, 'moderate'],
    ['', 0, 'Unknown'],
    // Trimmed, any case, and OCSF's own words.
    [' high ', 4, 'High'],
    ['\tCritical\n', 5, 'Critical'],
    ['informational', 1, 'Informational'],
    ['INFORMATIONAL ', 1, 'Informational'],
    ['fatal', 6, 'Fatal'],
    [' Fatal', 6, 'Fatal'],
    [' moderate ', 99, 'moderate'],
  ])('severity %j is severity_id %i', (severity, id, caption) => {
    const f = finding({ id: 'x', severity });
    expect(severityOf(f)).toEqual({ severity_id: id, severity: caption });
    expectValidOcsf(line(event(f)));
  });

  it.each([
    ['open', 1, 'New'],
    [undefined, 1, 'New'],
    ['resolved', 4, 'Resolved'],
    ['in_progress', 2, 'In Progress'],
    ['wontfix', 99, 'wontfix'],
  ])('the service status %j is status_id %i', (status, id, caption) => {
    const f = finding({ id: 'x', status });
    expect(statusOf(f)).toEqual({ status_id: id, status: caption });
    expectValidOcsf(line(event(f)));
  });

  it('keeps the check id as the analytic, and fields it does not map in unmapped', () => {
    const f = finding({
      id: 'fnd_2',
      rule_id: 's3-public-read',
      check_id: 'CKV_AWS_20',
      description: 'Anyone can read it.',
      remediation: 'Turn on Block Public Access.',
      details: { region: 'eu-west-1', tags: ['a'] },
      risk: 7.5,
    });
    const e = event(f) as Tree;
    expect(e.finding_info.analytic.uid).toBe('s3-public-read');
    expect(e.finding_info.desc).toBe('Anyone can read it.');
    expect(e.remediation).toEqual({ desc: 'Turn on Block Public Access.' });
    expect(e.unmapped).toEqual({
      connection_alias: 'prod',
      scan_id: 'scn_1',
      status: 'open',
      check_id: 'CKV_AWS_20',
      details: { region: 'eu-west-1', tags: ['a'] },
      risk: 7.5,
    });
    expectValidOcsf(line(e));
  });

  it('a field named __proto__ is kept in unmapped like any other', () => {
    const f = JSON.parse('{"id":"p","severity":"low","__proto__":{"x":1},"constructor":"c"}') as Finding;
    const [e] = expectValidOcsf(ocsfLine(f, JSON.stringify(meta), () => NOW));
    expect(JSON.stringify(e!.unmapped)).toBe('{"__proto__":{"x":1},"constructor":"c"}');
  });

  it('falls back to the time of the export when created_at is missing or not a date', () => {
    for (const created_at of [undefined, 'yesterday', '']) {
      const e = event(finding({ id: 'x', created_at })) as Tree;
      expect(e.time).toBe(NOW);
      expect(e.finding_info.created_time).toBeUndefined();
      expectValidOcsf(line(e));
    }
  });

  it.each<[string, unknown, number]>([
    ['UTC text', '2025-06-02T08:00:00Z', Date.UTC(2025, 5, 2, 8)],
    ['text without an offset (UTC, whatever the zone)', '2025-06-02T08:00:00', Date.UTC(2025, 5, 2, 8)],
    ['a space and no seconds', '2025-06-02 08:00', Date.UTC(2025, 5, 2, 8)],
    ['a date alone', '2025-06-02', Date.UTC(2025, 5, 2)],
    ['an offset', '2025-06-02T10:00:00+02:00', Date.UTC(2025, 5, 2, 8)],
    ['an offset without a colon', '2025-06-02T03:30:00.250-0430', Date.UTC(2025, 5, 2, 8, 0, 0, 250)],
    ['29 February of a leap year', '2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['epoch seconds', 1748851200, Date.UTC(2025, 5, 2, 8)],
    ['epoch seconds with a fraction', 1748851200.5, Date.UTC(2025, 5, 2, 8, 0, 0, 500)],
    ['epoch milliseconds', 1748851200123, Date.UTC(2025, 5, 2, 8, 0, 0, 123)],
    ['a year before 100', '0050-01-01T00:00:00Z', -60589296000000],
  ])('reads %s as a time: %j', (_, created_at, ms) => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        const e = event(finding({ id: 'x', created_at: created_at as string })) as Tree;
        expect(e.time).toBe(ms);
        expect(e.finding_info.created_time).toBe(ms);
        expect(e.metadata.original_time).toBe(String(created_at));
        expect(e.unmapped?.created_at).toBeUndefined();
        expectValidOcsf(line(e));
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it.each<[string, unknown]>([
    ['30 February', '2025-02-30T00:00:00Z'],
    ['29 February of a year that is not leap', '2025-02-29'],
    ['31 April', '2025-04-31T12:00:00Z'],
    ['month 13', '2025-13-01T00:00:00Z'],
    ['hour 25', '2025-06-02T25:00:00Z'],
    ['minute 60', '2025-06-02T08:60:00Z'],
    ['an offset of 25 hours', '2025-06-02T08:00:00+25:00'],
    ['words', 'last Tuesday'],
    ['infinity', Infinity],
    ['a number past what a date holds', 1e300],
    ['true', true],
    ['an object', { at: '2025-06-02' }],
  ])(
    'never rolls over or loses %s: kept in unmapped, the time the export’s, one warning',
    async (_, created_at) => {
      const f = finding({ id: 'x', created_at: created_at as string });
      const e = event(f) as Tree;
      expect(e.time).toBe(NOW);
      expect(e.finding_info.created_time).toBeUndefined();
      expect(e.metadata.original_time).toBeUndefined();
      expect(e.unmapped.created_at).toStrictEqual(created_at);
      expectValidOcsf(line(e));
      const { out, err } = await runReport((ctx) => ocsf(ctx, { now: () => NOW }), [f, finding({ id: 'y' })]);
      expect(expectValidOcsf(out)).toHaveLength(2);
      expect(err).toBe(
        "warning: ocsf: 1 finding has a created_at that is not a time cssctl can read: kept in unmapped.created_at, the event's time is the export's\n",
      );
    },
  );

  it('carries text from the service as JSON escapes it, and stays valid', () => {
    const f = finding({ id: NASTY, title: NASTY, resource: NASTY, connection_alias: NASTY, severity: NASTY });
    const [e] = expectValidOcsf(line(event(f)));
    expect((e!.finding_info as Record<string, unknown>).title).toBe(NASTY);
    // eslint-disable-next-line no-control-regex
    expect(JSON.stringify(event(f))).not.toMatch(/[\u0000-\u001f]/);
  });

  it('without a resource, an id or a title still gives a valid event', () => {
    const f = { severity: 'low' } as Finding;
    const [e] = expectValidOcsf(line(event(f)));
    expect(e!.resources).toBeUndefined();
    expect((e!.finding_info as Record<string, unknown>).uid).toBe(fingerprintOf(f));
  });

  it('never writes a password of the base URL', () => {
    const m = ocsfMetadata({ workspace: 'acme', service: 'https://user:s3cret@css.example.com/' });
    expect(JSON.stringify(m)).not.toContain('s3cret');
    expect((m.product as Record<string, unknown>).url_string).toBe('https://css.example.com');
    expect(ocsfMetadata(undefined).product).toEqual({ name: 'Cloud Security Scanning Service' });
  });
});

describe('a comparison and accepted risks', () => {
  const state = (s: 'new' | 'updated' | 'unchanged' | 'fixed', extra: object = {}) =>
    annotate(sample, { state: s, fingerprint: fingerprintOf(sample), ...extra });

  it.each([
    ['new', 1, 'Create', 1, 'New', true],
    ['updated', 2, 'Update', 1, 'New', true],
    ['unchanged', 2, 'Update', 1, 'New', true],
    ['fixed', 3, 'Close', 4, 'Resolved', false],
  ] as const)('%s is activity %i %s, status %i %s', (s, act, actName, st, stName, alert) => {
    const e = event(state(s)) as Tree;
    expect(e).toMatchObject({
      activity_id: act,
      activity_name: actName,
      type_uid: 200400 + act,
      type_name: `Detection Finding: ${actName}`,
      status_id: st,
      status: stName,
      is_alert: alert,
    });
    expect(e.unmapped.state).toBe(s);
    expect(e.unmapped.fingerprint).toBeUndefined();
    expectValidOcsf(line(e));
  });

  it('keeps what an update changed', () => {
    const e = event(state('updated', { previous_severity: 'medium' })) as Tree;
    expect(e.unmapped.previous_severity).toBe('medium');
  });

  it('an ignored finding is Suppressed with its reason, with or without --show-ignored', () => {
    const info = {
      reason: 'Public by design (SEC-1)',
      expires: '2027-03-31',
      source: '.cssctl-ignore.yaml:3',
    };
    for (const show of [false, true]) {
      const e = event(markIgnored(sample, info, show)) as Tree;
      expect(e).toMatchObject({
        status_id: 3,
        status: 'Suppressed',
        status_detail: info.reason,
        is_alert: false,
      });
      expect(e.unmapped.ignored).toEqual(info);
      expect(e.unmapped.fingerprint).toBeUndefined();
      expectValidOcsf(line(e));
    }
    expect(keepsIgnored('ocsf', false)).toBe(true);
  });
});

describe('the line ocsf() writes', () => {
  it('is the event ocsfEvent() builds, metadata spliced in, for every kind of finding', () => {
    const metaJson = JSON.stringify(meta);
    const info = { reason: 'r', expires: 'never', source: 'f:1' };
    const cases: Finding[] = [
      sample,
      finding({ id: 'x', created_at: undefined }),
      { severity: 'low' } as Finding,
      finding({ id: 'y', rule_id: 'r1', details: { a: [1] } }),
      annotate(sample, { state: 'fixed', fingerprint: fingerprintOf(sample) }),
      markIgnored(sample, info, true),
    ];
    for (const f of cases) {
      const text = ocsfLine(f, metaJson, () => NOW);
      expect(text.endsWith('\n')).toBe(true);
      expect(text.slice(0, -1)).toBe(JSON.stringify(event(f)));
    }
  });
});

describe('the ocsf format', () => {
  it('is registered with the report formats', () => {
    expect(REPORT_FORMATS).toContain('ocsf');
  });

  it('writes one valid event a line, and leaves out what is not a finding with a warning', async () => {
    const items = [sample, null, finding({ id: 'fnd_2', severity: 'critical' }), 7] as unknown as Finding[];
    const { out, err } = await runReport((ctx) => ocsf(ctx, { now: () => NOW }), items);
    const events = expectValidOcsf(out);
    expect(events.map((e) => (e.finding_info as Record<string, unknown>).uid_alt)).toEqual([
      'fnd_1',
      'fnd_2',
    ]);
    expect(out.split('\n').filter(Boolean)).toHaveLength(2);
    expect(err).toMatch(/ocsf: left out 2 items that are not a finding/);
  });
});

/** The ocsf formatter over pages (as a listing writes them), with what the command knows (`about`). */
async function pages(
  batches: Finding[][],
  about: ReportAbout = {},
): Promise<{ events: Tree[]; err: string }> {
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr }, { env: {} });
  const chunks: string[] = [];
  const fmt = ocsf(
    { io, write: (s) => chunks.push(s), columns: [], noun: 'findings', about },
    { now: () => NOW },
  );
  let count = 0;
  for (const batch of batches) {
    await fmt.items!(batch);
    count += batch.length;
  }
  await fmt.end({ complete: true, count });
  return { events: expectValidOcsf(chunks.join('')) as Tree[], err: stderr.text };
}

const uidOf = (e: Tree) => e.finding_info.uid as string;

describe('finding_info.uid: one finding followed across scans', () => {
  it('a diff: Create, Update and Close carry the fingerprint the earlier export gave, never the service id', async () => {
    const a = finding({ id: 'fnd_base_a', title: 'A', created_at: '2025-06-01T00:00:00Z' });
    const b = finding({ id: 'fnd_base_b', title: 'B', created_at: '2025-06-01T00:00:00Z' });
    const base = await pages([[a, b]]);
    // The next scan: new ids; a is fixed, b is seen again (re-rated), c is new.
    const b2 = { ...b, id: 'fnd_head_b', severity: 'critical' };
    const c = finding({ id: 'fnd_head_c', title: 'C' });
    const diff = await pages(
      [
        [annotate(c, { state: 'new', fingerprint: fingerprintOf(c) })],
        [annotate(b2, { state: 'updated', fingerprint: fingerprintOf(b2), previous_severity: 'high' })],
        [annotate(a, { state: 'fixed', fingerprint: fingerprintOf(a) })],
      ],
      { fixSeen: '2025-06-09T12:00:00Z' },
    );
    expect(diff.events.map((e) => [e.activity_name, uidOf(e), e.finding_info.uid_alt])).toStrictEqual([
      ['Create', fingerprintOf(c), 'fnd_head_c'],
      ['Update', uidOf(base.events[1]), 'fnd_head_b'],
      ['Close', uidOf(base.events[0]), 'fnd_base_a'],
    ]);
  });

  it('a fingerprint twice in one set: the later one by service id gets #2, the next #3, across pages', async () => {
    const twin = (id: string) => finding({ id, resource: 'arn:aws:s3:::same' });
    const fp = fingerprintOf(twin('x'));
    // Listed out of id order within the page: numbered by id all the same.
    const { events } = await pages([
      [twin('fnd_9'), finding({ id: 'other' }), twin('fnd_10'), twin('fnd_1')],
      [twin('fnd_0')],
    ]);
    expect(events.map((e) => [e.finding_info.uid_alt, uidOf(e)])).toStrictEqual([
      // Ids compared as text (fnd_10 before fnd_9); ids that are numbers by their value.
      ['fnd_9', `${fp}#3`],
      ['other', fingerprintOf(finding({ id: 'other' }))],
      ['fnd_10', `${fp}#2`],
      ['fnd_1', fp],
      ['fnd_0', `${fp}#4`],
    ]);
  });

  it('ids that are numbers are ordered by value', async () => {
    const twin = (id: string) => finding({ id, resource: 'arn:aws:s3:::same' });
    const fp = fingerprintOf(twin('x'));
    const { events } = await pages([[twin('10'), twin('9')]]);
    expect(events.map(uidOf)).toStrictEqual([`${fp}#2`, fp]);
  });

  it('two findings without an id, with the same title and resource, get two uids', async () => {
    const f = { severity: 'high', title: 'Open port', resource: 'sg-1' } as Finding;
    const { events } = await pages([[f, { ...f }], [{ ...f }]]);
    const uids = events.map(uidOf);
    expect(new Set(uids).size).toBe(3);
    expect(uids).toStrictEqual([fingerprintOf(f), `${fingerprintOf(f)}#2`, `${fingerprintOf(f)}#3`]);
    expect(events.every((e) => e.finding_info.uid_alt === undefined)).toBe(true);
    // One at a time (a comparison's events) the same.
    const one = await pages([[f], [{ ...f }]]);
    expect(one.events.map(uidOf)).toStrictEqual(uids.slice(0, 2));
  });
});

describe('a Close event’s time', () => {
  const base = finding({ id: 'fnd_old', created_at: '2025-05-01T00:00:00Z' });
  const fixed = annotate(base, { state: 'fixed', fingerprint: fingerprintOf(base) });

  it('is when the fix was seen (the head scan’s time), with the base’s time as first_seen_time', async () => {
    const { events } = await pages([[fixed]], { fixSeen: '2025-06-09T12:00:00Z' });
    expect(events[0].time).toBe(Date.UTC(2025, 5, 9, 12));
    expect(events[0].finding_info.first_seen_time).toBe(Date.UTC(2025, 4, 1));
    expect(events[0].finding_info.created_time).toBe(Date.UTC(2025, 4, 1));
  });

  it('is the export’s time when the head has none (a file) or one that cannot be read', async () => {
    for (const fixSeen of [undefined, 'soon', '2025-02-30T00:00:00Z']) {
      const { events } = await pages([[fixed]], { fixSeen });
      expect(events[0].time).toBe(NOW);
      expect(events[0].finding_info.first_seen_time).toBe(Date.UTC(2025, 4, 1));
    }
  });

  it('leaves the other events at their finding’s time, with no first_seen_time', async () => {
    const { events } = await pages(
      [[annotate(base, { state: 'unchanged', fingerprint: fingerprintOf(base) })]],
      {
        fixSeen: '2025-06-09T12:00:00Z',
      },
    );
    expect(events[0].time).toBe(Date.UTC(2025, 4, 1));
    expect(events[0].finding_info.first_seen_time).toBeUndefined();
  });
});
