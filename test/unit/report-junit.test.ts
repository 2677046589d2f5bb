import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { junit, xmlAttr, xmlText } from '../../src/report/formats/junit.js';
import { NASTY, finding, manyFindings, runReport } from '../helpers/report.js';

const XSD = join(import.meta.dirname, '../fixtures/junit-10.xsd');
const work = mkdtempSync(join(tmpdir(), 'cssctl-junit-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let files = 0;

function save(xml: string): string {
  const file = join(work, `report-${++files}.xml`);
  writeFileSync(file, xml);
  return file;
}

/** xmllint --schema junit-10.xsd (Jenkins xUnit): '' when valid, else its complaint. */
function schemaErrors(xml: string): string {
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, save(xml)], { encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr || `xmllint exited ${r.status}`;
}

/** What an XML parser (libxml2) reads at an XPath: the string value, entities and references decoded. */
function xpath(file: string, expr: string): string {
  const r = spawnSync('xmllint', ['--xpath', `string(${expr})`, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xmllint --xpath ${expr}: ${r.stderr}`);
  return r.stdout.replace(/\n$/, '');
}

/** The attributes of every element with this name, in document order. */
function attrs(xml: string, element: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${element}( [^>]*)?>`, 'g'))].map((m) =>
    Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

const MIXED = [
  finding({ id: 'f1', severity: 'low' }),
  finding({ id: 'f2', severity: 'critical' }),
  finding({ id: 'f3', severity: 'High' }),
  finding({ id: 'f4', severity: 'medium' }),
  finding({ id: 'f5', severity: 'info', connection_alias: undefined }),
  finding({ id: 'f6', severity: 'high' }),
  finding({ id: 'f7', severity: 'bogus' }),
];

describe('junit', () => {
  it('is valid against junit-10.xsd, with one testsuite per severity and exact counts', async () => {
    const { out } = await runReport(junit, MIXED);
    expect(schemaErrors(out)).toBe('');
    expect(attrs(out, 'testsuites')).toStrictEqual([
      { name: 'cssctl findings', tests: '7', failures: '7', errors: '0', time: '0' },
    ]);
    expect(attrs(out, 'testsuite').map((s) => [s.name, s.tests, s.failures])).toStrictEqual([
      ['critical', '1', '1'],
      ['high', '2', '2'],
      ['medium', '1', '1'],
      ['low', '1', '1'],
      ['info', '1', '1'],
      ['other', '1', '1'],
    ]);
  });

  it('the schema check can fail: a testsuite without its counts is rejected', async () => {
    const { out } = await runReport(junit, MIXED.slice(0, 1));
    expect(schemaErrors(out.replace(/ failures="\d+" errors="0" skipped/, ' skipped'))).toMatch(/failures/);
  });

  it('failures are the findings at or above --fail-on; every finding without it', async () => {
    const { out } = await runReport(junit, MIXED, { failOn: 'high' });
    expect(schemaErrors(out)).toBe('');
    expect(attrs(out, 'testsuites')[0]).toMatchObject({ tests: '7', failures: '3' });
    expect(attrs(out, 'testsuite').map((s) => [s.name, s.tests, s.failures])).toStrictEqual([
      ['critical', '1', '1'],
      ['high', '2', '2'],
      ['medium', '1', '0'],
      ['low', '1', '0'],
      ['info', '1', '0'],
      ['other', '1', '0'],
    ]);
    expect(out.match(/<failure /g)).toHaveLength(3);
    // A passing finding still shows its details.
    expect(out.match(/<system-out>/g)).toHaveLength(4);
    const file = save(out);
    expect(xpath(file, '//testsuite[@name="critical"]/testcase[1]/failure/@type')).toBe('critical');
    expect(xpath(file, '//testsuite[@name="critical"]/testcase[1]/failure/@message')).toBe(
      'critical: S3 bucket allows public read access — arn:aws:s3:::acme-data-f2',
    );
  });

  it('takes --fail-on from the formatter context too (the output layer passes it there)', () => {
    const chunks: string[] = [];
    const io = new IO(
      { stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() },
      { env: {} },
    );
    const ctx = { io, write: (s: string) => chunks.push(s), columns: [], noun: 'findings', failOn: 'HIGH' };
    const fmt = junit(ctx);
    for (const f of MIXED) void fmt.item(f);
    void fmt.end({ complete: true, count: MIXED.length });
    expect(attrs(chunks.join(''), 'testsuites')[0]).toMatchObject({ tests: '7', failures: '3' });
  });

  describe("reads the run's verdict (the gate as the command decided it)", () => {
    /** The report of `findings`, with the verdict the command decided (ReportAbout.verdict) and --fail-on. */
    async function withVerdict(
      findings: ReturnType<typeof finding>[],
      verdict: { met: boolean; count: number; threshold: string } | undefined,
    ): Promise<string> {
      const chunks: string[] = [];
      const io = new IO(
        { stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() },
        { env: {} },
      );
      const ctx = {
        io,
        write: (s: string) => chunks.push(s),
        columns: [],
        noun: 'findings',
        about: { verdict: () => verdict },
      };
      const fmt = junit(ctx, { failOn: 'high' });
      for (const f of findings) await fmt.item(f);
      await fmt.end({ complete: true, count: findings.length });
      return chunks.join('');
    }
    const LOW = [finding({ id: 'l1', severity: 'low' }), finding({ id: 'm1', severity: 'medium' })];

    it('a gate met by findings the report does not list (--severity low,medium; the service counted 3 high) fails it', async () => {
      // Before, the report had no failure while the run exited 10: CI showed green for a failed gate.
      const out = await withVerdict(LOW, { met: true, count: 3, threshold: 'high' });
      expect(schemaErrors(out)).toBe('');
      expect(attrs(out, 'testsuites')[0]).toMatchObject({ tests: '3', failures: '1' });
      expect(attrs(out, 'testsuite').map((s) => [s.name, s.tests, s.failures])).toStrictEqual([
        ['critical', '0', '0'],
        ['high', '1', '1'],
        ['medium', '1', '0'],
        ['low', '1', '0'],
        ['info', '0', '0'],
      ]);
      const file = save(out);
      expect(xpath(file, '//testsuite[@name="high"]/testcase[1]/@classname')).toBe('cssctl gate');
      expect(xpath(file, '//testsuite[@name="high"]/testcase[1]/failure/@message')).toBe(
        '--fail-on high: 3 findings at or above high, not listed in this report',
      );
    });

    it('the threshold is the one the gate used (critical: the critical suite)', async () => {
      const out = await withVerdict(LOW, { met: true, count: 1, threshold: 'critical' });
      expect(schemaErrors(out)).toBe('');
      expect(attrs(out, 'testsuite')[0]).toMatchObject({ name: 'critical', tests: '1', failures: '1' });
      expect(out).toContain('--fail-on critical: 1 finding at or above critical, not listed in this report');
    });

    it('adds nothing when the gate passed, when a listed finding already fails, or without a gate', async () => {
      for (const [findings, verdict, failures] of [
        [LOW, { met: false, count: 0, threshold: 'high' }, '0'],
        [[...LOW, finding({ id: 'h1', severity: 'high' })], { met: true, count: 1, threshold: 'high' }, '1'],
        [LOW, undefined, '0'],
      ] as const) {
        const out = await withVerdict([...findings], verdict);
        expect(out).not.toContain('cssctl gate');
        expect(attrs(out, 'testsuites')[0]).toMatchObject({ tests: String(findings.length), failures });
      }
    });
    it("a gate passed on the service's totals: a listed finding at or above the threshold does not fail (the exit code is 0)", async () => {
      // The gate was decided from the service's counts before the read (no ignore file, no baseline); the service
      // lists a high finding its counts did not have. Before, its test case failed while the run exited 0.
      for (const threshold of ['high', 'medium'] as const) {
        const listed = [...LOW, finding({ id: 'h1', severity: 'high' })];
        const out = await withVerdict(listed, { met: false, count: 0, threshold });
        expect(schemaErrors(out)).toBe('');
        expect(attrs(out, 'testsuites')[0], threshold).toMatchObject({ tests: '3', failures: '0' });
        expect(out).not.toContain('<failure');
        // Still a test case, with the finding's details.
        expect(xpath(save(out), '//testsuite[@name="high"]/testcase[1]/system-out')).toContain('finding: h1');
      }
      // The same findings with a gate that was met: the finding's test case fails, as before.
      const met = await withVerdict([...LOW, finding({ id: 'h1', severity: 'high' })], {
        met: true,
        count: 1,
        threshold: 'high',
      });
      expect(attrs(met, 'testsuites')[0]).toMatchObject({ tests: '3', failures: '1' });
    });
  });

  it('test case names are unique within their classname (the connection, else cssctl)', async () => {
    const same = [1, 2, 3].map((i) => finding({ id: `dup${i}`, resource: 'arn:aws:s3:::same' }));
    const { out } = await runReport(junit, [...same, ...MIXED]);
    const cases = attrs(out, 'testcase');
    const keys = cases.map((c) => `${c.classname}\u0000${c.name}`);
    expect(new Set(keys).size).toBe(cases.length);
    expect(cases.find((c) => c.name!.includes('[f5]'))!.classname).toBe('cssctl');
    expect(cases[0]).toMatchObject({
      classname: 'prod',
      name: 'S3 bucket allows public read access — arn:aws:s3:::acme-data-f2 [f2]',
    });
  });

  it('an empty report has the five empty suites; an interrupted one is still valid and says so', async () => {
    const empty = (await runReport(junit, [])).out;
    expect(schemaErrors(empty)).toBe('');
    expect(attrs(empty, 'testsuite').map((s) => `${s.name}:${s.tests}`)).toStrictEqual([
      'critical:0',
      'high:0',
      'medium:0',
      'low:0',
      'info:0',
    ]);
    const cut = (await runReport(junit, MIXED.slice(0, 2), {}, false)).out;
    expect(schemaErrors(cut)).toBe('');
    expect(attrs(cut, 'testsuites')[0]!.name).toContain('interrupted');
  });

  it('service text survives: escaped as XML requires, XML-invalid characters shown as their JSON escape', async () => {
    const f = finding({
      id: 'n1',
      title: NASTY,
      resource: NASTY,
      connection_alias: NASTY,
      description: NASTY,
    });
    const { out } = await runReport(junit, [f]);
    expect(schemaErrors(out)).toBe('');
    // What XML 1.0 cannot carry at all becomes visible text; everything else reads back exactly.
    const expected = NASTY.replace('\u0007', '\\u0007')
      .replace('\u0000', '\\u0000')
      .replaceAll('\u001b', '\\u001b')
      .replace('\ufffe', '\\ufffe');
    const file = save(out);
    const tc = '//testsuite[@name="high"]/testcase[1]';
    expect(xpath(file, `${tc}/@classname`)).toBe(expected);
    expect(xpath(file, `${tc}/@name`)).toBe(`${expected} — ${expected} [n1]`);
    expect(xpath(file, `${tc}/failure/@message`)).toBe(`high: ${expected} — ${expected}`);
    expect(xpath(file, `${tc}/failure`)).toContain(`\ntitle: ${expected}\nresource: ${expected}\n`);
    expect(xpath(file, `${tc}/failure`)).toContain(`\n\n${expected}`);
    // No raw control character other than LF and tab (in text) is in the file.
    // eslint-disable-next-line no-control-regex
    expect(out.replace(/[\n\t]/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('escaping: lone surrogates and non-characters are replaced; non-ASCII and astral characters kept', () => {
    expect(xmlText('a\ud800b\udc00c 😀 é \uffff')).toBe('a\\ud800b\\udc00c 😀 é \\uffff');
    expect(xmlText('<&>"\'\r\n\t\u0085')).toBe('&lt;&amp;&gt;"\'&#xD;\n\t&#x85;');
    expect(xmlAttr('<&>"\'\r\n\t')).toBe("&lt;&amp;&gt;&quot;'&#xD;&#xA;&#x9;");
  });

  it('findings arrive in any order; past the memory threshold they spill to temporary files, same output', async () => {
    const tmp = mkdtempSync(join(work, 'spill-'));
    const inMemory = await runReport(junit, manyFindings(2000), { failOn: 'medium' });
    const spilled = await runReport(junit, manyFindings(2000), {
      failOn: 'medium',
      spillBytes: 32 * 1024,
      tmpDir: tmp,
    });
    expect(spilled.out).toBe(inMemory.out);
    expect(readdirSync(tmp)).toStrictEqual([]);
    expect(schemaErrors(spilled.out)).toBe('');
    const suites = attrs(spilled.out, 'testsuite');
    expect(suites.reduce((a, s) => a + Number(s.tests), 0)).toBe(2000);
    // Each suite holds only its own severity.
    const file = save(spilled.out);
    expect(xpath(file, 'count(//testsuite[@name="critical"]/testcase)')).toBe(suites[0]!.tests);
    expect(xpath(file, 'count(//testsuite[@name="critical"]//failure[@type!="critical"])')).toBe('0');
    expect(xpath(file, 'count(//testsuite[@name="low"]//failure)')).toBe('0');
  });
});
