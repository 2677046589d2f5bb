import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings-types.js';
import { ignore } from '../../src/commands/findings/ignore.js';
import { list } from '../../src/commands/findings/list.js';
import { wait } from '../../src/commands/scans/wait.js';
import { fingerprintOf } from '../../src/report/fingerprint.js';
import { appendEntries, parseExpires } from '../../src/report/ignore/append.js';
import { findIgnoreFile, loadIgnoreFile, parseIgnoreText } from '../../src/report/ignore/file.js';
import { IgnoreRules, globMatcher } from '../../src/report/ignore/stage.js';
import { loadIgnore } from '../../src/report/ignore/index.js';
import { FakeContext } from '../helpers/fake-context.js';
import { finding } from '../helpers/report.js';
import { json, verbWorld } from '../helpers/verb.js';

const work = mkdtempSync(join(tmpdir(), 'cssctl-ignore-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
function dir(): string {
  const d = join(work, `d${n++}`);
  mkdirSync(d, { recursive: true });
  return d;
}

const EXAMPLE = `# .cssctl-ignore.yaml
version: 1
ignore:
  - fingerprint: 9c1f0a3b5d7e        # one finding
    reason: Static website bucket, public by design (SEC-1234)
    expires: 2027-03-31

  - rule: s3-bucket-public-read      # every finding of a rule ...
    resource: "arn:aws:s3:::static-*"
    connection: prod
    reason: Marketing buckets are reviewed quarterly
    expires: 2027-01-15
    owner: secops@acme.test
`;

/** PyYAML, where the machine has it (Debian's python3-yaml): an outside reader of the files cssctl writes. */
const pyyaml = (() => {
  try {
    execFileSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!pyyaml)
  console.log(
    'PyYAML is not installed (apt-get install python3-yaml): the ignore file is not checked with it',
  );

function loadWithPyYaml(text: string): unknown {
  const out = execFileSync(
    'python3',
    ['-c', 'import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.buffer), default=str))'],
    { input: text },
  );
  return JSON.parse(out.toString());
}

const parse = (text: string) => parseIgnoreText(text, '/x/.cssctl-ignore.yaml', '.cssctl-ignore.yaml').file;

describe('the ignore file: checks', () => {
  it("reads the contract's example", () => {
    const f = parse(EXAMPLE);
    expect(f.entries).toMatchObject([
      {
        line: 4,
        fingerprint: '9c1f0a3b5d7e',
        expires: '2027-03-31',
        reason: expect.stringContaining('SEC-1234'),
      },
      {
        line: 8,
        rule: 's3-bucket-public-read',
        resource: 'arn:aws:s3:::static-*',
        connection: 'prod',
        owner: 'secops@acme.test',
      },
    ]);
    expect(f.entries[0]!.expiresAt).toBe(Date.UTC(2027, 2, 31, 23, 59, 59, 999));
  });

  it.each([
    [
      'unknown key, with a guess',
      'version: 1\nignore:\n  - rule: r\n    reason: x\n    expire: 2027-01-01\n',
      '.cssctl-ignore.yaml:5:5: unknown key "expire" — did you mean "expires"?',
    ],
    [
      'unknown top key',
      'version: 1\nignores: []\n',
      '.cssctl-ignore.yaml:2:1: unknown key "ignores" — did you mean "ignore"?',
    ],
    [
      'missing reason',
      'version: 1\nignore:\n  - rule: r\n    expires: never\n',
      '.cssctl-ignore.yaml:3:5: an entry needs a non-empty "reason"',
    ],
    [
      'empty reason',
      'version: 1\nignore:\n  - rule: r\n    reason: ""\n    expires: never\n',
      '.cssctl-ignore.yaml:4:13: an entry needs a non-empty "reason"',
    ],
    [
      'missing expiry',
      'version: 1\nignore:\n  - rule: r\n    reason: x\n',
      '.cssctl-ignore.yaml:3:5: an entry needs "expires"',
    ],
    [
      'bad date',
      'version: 1\nignore:\n  - rule: r\n    reason: x\n    expires: 2027-02-30\n',
      '.cssctl-ignore.yaml:5:14: bad date "2027-02-30"',
    ],
    [
      'both',
      'version: 1\nignore:\n  - rule: r\n    fingerprint: 9c1f0a3b5d7e\n    reason: x\n    expires: never\n',
      'either "fingerprint" or "rule", not both',
    ],
    [
      'neither',
      'version: 1\nignore:\n  - reason: x\n    expires: never\n',
      '.cssctl-ignore.yaml:3:5: an entry needs "fingerprint"',
    ],
    [
      'short fingerprint',
      'version: 1\nignore:\n  - fingerprint: 9c1f\n    reason: x\n    expires: never\n',
      'a fingerprint is 12 to 64 hex digits',
    ],
    ['no version', 'ignore: []\n', '"version: 1" is required'],
    ['version 2', 'version: 2\nignore: []\n', '.cssctl-ignore.yaml:1:10: unsupported version 2'],
    ['YAML error', 'version: 1\nignore:\n  - rule: [\n', '.cssctl-ignore.yaml:'],
    ['duplicate key', 'version: 1\nversion: 1\n', '.cssctl-ignore.yaml:2:1: Map keys must be unique'],
  ])('%s: exit 2 with file:line:column', (_name, text, message) => {
    let err: unknown;
    try {
      parse(text);
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toContain(message);
    expect((err as { exitCode?: number }).exitCode ?? 2).toBe(2);
  });

  it('a digits-only fingerprint and an unquoted date stay as written', () => {
    const f = parse(
      'version: 1\nignore:\n  - fingerprint: 123456789012\n    reason: x\n    expires: 2027-01-01\n',
    );
    expect(f.entries[0]).toMatchObject({ fingerprint: '123456789012', expires: '2027-01-01' });
  });

  it('a symbolic link to elsewhere, a huge file, a file that is not UTF-8: a clear error', () => {
    const d = dir();
    const outside = join(dir(), 'real.yaml');
    writeFileSync(outside, 'version: 1\n');
    symlinkSync(outside, join(d, '.cssctl-ignore.yaml'));
    expect(() => loadIgnoreFile({}, {}, d)).toThrow('is a symbolic link to a file elsewhere');
    const d2 = dir();
    writeFileSync(join(d2, '.cssctl-ignore.yaml'), `version: 1\n#${'x'.repeat(1024 * 1024)}\n`);
    expect(() => loadIgnoreFile({}, {}, d2)).toThrow('more than an ignore file can be (1 MiB)');
    const d3 = dir();
    writeFileSync(
      join(d3, '.cssctl-ignore.yaml'),
      Buffer.concat([Buffer.from('version: 1\n# caf'), Buffer.from([0xe9, 0x0a])]),
    );
    expect(() => loadIgnoreFile({}, {}, d3)).toThrow(
      '.cssctl-ignore.yaml:2:6: the ignore file is not UTF-8 text',
    );
    // A FIFO is never opened (the open would block, deaf to Ctrl-C).
    const d5 = dir();
    execFileSync('mkfifo', [join(d5, '.cssctl-ignore.yaml')]);
    expect(() => loadIgnoreFile({}, {}, d5)).toThrow('the ignore file is not a regular file');
    // A link within its own folder is read.
    const d4 = dir();
    writeFileSync(join(d4, 'rules.yaml'), 'version: 1\n');
    symlinkSync(join(d4, 'rules.yaml'), join(d4, '.cssctl-ignore.yaml'));
    expect(loadIgnoreFile({}, {}, d4)?.entries).toStrictEqual([]);
  });
});

describe('the ignore file: which one', () => {
  it('--ignore-file or CSSCTL_IGNORE_FILE must exist; else the nearest parent, stopping at the .git folder', () => {
    const repo = dir();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'a/b'), { recursive: true });
    writeFileSync(join(repo, '.cssctl-ignore.yaml'), 'version: 1\n');
    expect(findIgnoreFile({}, {}, join(repo, 'a/b'))).toBe(join(repo, '.cssctl-ignore.yaml'));
    // Above the repository root nothing is looked for.
    const outer = dir();
    writeFileSync(join(outer, '.cssctl-ignore.yaml'), 'version: 1\n');
    const inner = join(outer, 'repo');
    mkdirSync(join(inner, '.git'), { recursive: true });
    expect(findIgnoreFile({}, {}, inner)).toBeUndefined();
    expect(findIgnoreFile({ ignore: false }, {}, join(repo, 'a'))).toBeUndefined();
    expect(() => findIgnoreFile({ ignoreFile: 'nope.yaml' }, {}, repo)).toThrow(
      'nope.yaml: no such ignore file (--ignore-file)',
    );
    expect(() => findIgnoreFile({}, { CSSCTL_IGNORE_FILE: 'nope.yaml' }, repo)).toThrow(
      '(CSSCTL_IGNORE_FILE)',
    );
  });
});

describe('the ignore file: matching and expiry', () => {
  const now = Date.UTC(2026, 11, 1, 12);
  const rules = (text: string) => new IgnoreRules(parse(text), now);

  it('a fingerprint prefix; a rule narrowed by a resource glob and a connection', () => {
    const f = finding({
      id: 'a',
      rule_id: 'r1',
      resource: 'arn:aws:s3:::static-www',
      connection_alias: 'prod',
    });
    const fp = fingerprintOf(f);
    const byFp = rules(
      `version: 1\nignore:\n  - fingerprint: ${fp.slice(0, 12)}\n    reason: x\n    expires: never\n`,
    );
    expect(byFp.check(f).info).toMatchObject({
      reason: 'x',
      expires: 'never',
      source: '.cssctl-ignore.yaml:3',
    });
    expect(byFp.check({ ...f, resource: 'other' }).info).toBeUndefined();
    const byRule = rules(
      'version: 1\nignore:\n  - rule: r1\n    resource: "arn:aws:s3:::static-*"\n    connection: prod\n    reason: y\n    expires: never\n',
    );
    expect(byRule.check(f).info?.reason).toBe('y');
    expect(byRule.check({ ...f, connection_alias: 'dev' }).info).toBeUndefined();
    expect(byRule.check({ ...f, resource: 'arn:aws:s3:::data' }).info).toBeUndefined();
    expect(globMatcher('a?c*')('abc-[x]')).toBe(true);
    expect(globMatcher('a.c')('abc')).toBe(false);
  });

  it('an entry lasts until the end of its day (UTC); then its findings count again, with a warning naming it', () => {
    const f = finding({ id: 'a', rule_id: 'r1' });
    const today = rules(
      'version: 1\nignore:\n  - rule: r1\n    reason: Static website bucket\n    expires: 2026-12-01\n',
    );
    expect(today.check(f).info).toBeDefined();
    const past = rules(
      'version: 1\nignore:\n  - rule: r1\n    reason: Static website bucket\n    expires: 2026-11-30\n',
    );
    expect(past.check(f)).toStrictEqual({ expired: true });
    past.check(f);
    past.check(f);
    const { warnings } = past.messages({ complete: true });
    expect(warnings).toStrictEqual([
      {
        line: 3,
        text: '.cssctl-ignore.yaml:3: expired on 2026-11-30 (Static website bucket); 3 findings count again',
      },
    ]);
  });

  it('notices: an entry that expires within 14 days; one that matched nothing in a complete read', () => {
    const r = rules(
      'version: 1\nignore:\n  - rule: soon\n    reason: a\n    expires: 2026-12-10\n  - rule: never-seen\n    reason: b\n    expires: never\n  - rule: other\n    connection: dev\n    reason: c\n    expires: never\n',
    );
    expect(r.messages({ complete: true, connection: 'prod' }).notices).toStrictEqual([
      '.cssctl-ignore.yaml:3: expires on 2026-12-10 (a)',
      '.cssctl-ignore.yaml:3: matched no finding; it may be stale (a)',
      '.cssctl-ignore.yaml:6: matched no finding; it may be stale (b)',
    ]);
    expect(r.messages({ complete: false }).notices).toStrictEqual([
      '.cssctl-ignore.yaml:3: expires on 2026-12-10 (a)',
    ]);
  });

  it('an entry whose finding an earlier entry also covers still matched it: never called stale', () => {
    const f = finding({ id: 'a', rule_id: 'r1', resource: 'arn:bucket-1', connection_alias: 'prod' });
    const r = rules(
      `version: 1\nignore:\n  - fingerprint: ${fingerprintOf(f)}\n    reason: one\n    expires: never\n  - rule: r1\n    resource: "arn:bucket-*"\n    reason: the buckets\n    expires: never\n`,
    );
    // The first entry decides what is shown, and the finding is ignored once.
    expect(r.check(f).info?.source).toBe('.cssctl-ignore.yaml:3');
    expect(r.ignored).toBe(1);
    expect(r.messages({ complete: true, workspace: true }).notices).toStrictEqual([]);
  });

  it('a fingerprint entry is called stale only by a read that could have seen its finding', () => {
    const onDev = finding({ id: 'd', rule_id: 'r1', connection_alias: 'dev' });
    const onProd = finding({ id: 'p', rule_id: 'r2', connection_alias: 'prod' });
    const text = (fp: string) =>
      `version: 1\nignore:\n  - fingerprint: ${fp}\n    reason: one finding\n    expires: never\n  - rule: r9\n    reason: a rule\n    expires: never\n`;
    const stale = (line: number, why: string) =>
      `.cssctl-ignore.yaml:${line}: matched no finding; it may be stale (${why})`;
    // Its finding is on dev; a read of prod's scan cannot tell, so says nothing of it (the rule entry could
    // have matched on prod, so it is named).
    const prodRead = rules(text(fingerprintOf(onDev)));
    prodRead.check(onProd);
    expect(prodRead.messages({ complete: true, connection: 'prod' }).notices).toStrictEqual([
      stale(6, 'a rule'),
    ]);
    // The connection is known from the findings read too (a file head), not only from the scan.
    expect(prodRead.messages({ complete: true }).notices).toStrictEqual([stale(6, 'a rule')]);
    // A read of the whole workspace could have seen it.
    expect(prodRead.messages({ complete: true, workspace: true }).notices).toStrictEqual([
      stale(3, 'one finding'),
      stale(6, 'a rule'),
    ]);
    // A diff whose base held it on the connection the head covers: it is gone from there, so it may be stale.
    const fixed = rules(text(fingerprintOf(onProd).slice(0, 16)));
    fixed.check(finding({ id: 'q', rule_id: 'r3', connection_alias: 'prod' }));
    fixed.gone(onProd, fingerprintOf(onProd));
    expect(fixed.messages({ complete: true, connection: 'prod' }).notices).toStrictEqual([
      stale(3, 'one finding'),
      stale(6, 'a rule'),
    ]);
    // ... but not when the base held it on another connection than the head's.
    const elsewhere = rules(text(fingerprintOf(onDev)));
    elsewhere.check(onProd);
    elsewhere.gone(onDev, fingerprintOf(onDev));
    expect(elsewhere.messages({ complete: true, connection: 'prod' }).notices).toStrictEqual([
      stale(6, 'a rule'),
    ]);
    // A read that held nothing of any known connection sees no entry; an incomplete read says nothing.
    expect(rules(text(fingerprintOf(onDev))).messages({ complete: true }).notices).toStrictEqual([]);
    expect(prodRead.messages({ complete: false, workspace: true }).notices).toStrictEqual([]);
  });
});

describe('findings ignore: appending', () => {
  const entry = {
    fingerprint: 'ab'.repeat(32),
    reason: 'Accepted: see SEC-9',
    expires: '2027-01-01',
    comment: 'Title — arn',
  };

  it('keeps every other byte of the file: comments, order, blank lines', () => {
    const after = appendEntries(EXAMPLE, [entry], '.cssctl-ignore.yaml');
    const added = after.split('\n').filter((l) => !EXAMPLE.split('\n').includes(l));
    expect(added).toStrictEqual([
      '  # Title — arn',
      `  - fingerprint: ${'ab'.repeat(32)}`,
      '    reason: "Accepted: see SEC-9"',
      '    expires: 2027-01-01',
    ]);
    // Removing the added lines gives the file back, byte for byte.
    expect(
      after
        .split('\n')
        .filter((l) => !added.includes(l))
        .join('\n'),
    ).toBe(EXAMPLE);
    expect(parse(after).entries).toHaveLength(3);
  });

  it('a new file, an empty list, a missing list, a flow list, a file without a final newline', () => {
    expect(appendEntries(undefined, [entry], 'f')).toBe(
      `version: 1\nignore:\n  # Title — arn\n  - fingerprint: ${'ab'.repeat(32)}\n    reason: "Accepted: see SEC-9"\n    expires: 2027-01-01\n`,
    );
    for (const text of [
      'version: 1\nignore:\n# end\n',
      'version: 1 # v\n',
      'version: 1\nignore: []\n',
      EXAMPLE.trimEnd(),
    ])
      expect(parse(appendEntries(text, [entry], 'f')).entries.at(-1)?.fingerprint).toBe('ab'.repeat(32));
    expect(appendEntries('version: 1\nignore:\n# end\n', [entry], 'f')).toContain('# end\n');
  });

  it('a null list (~, null, !!null, on its line or the next, with a comment): the entries become the list', () => {
    for (const text of [
      'version: 1\nignore: ~\n',
      'version: 1\nignore: null\n',
      'version: 1\nignore: Null # none yet\n',
      'version: 1\nignore: !!null\n',
      'version: 1\nignore: !!null ""\n',
      'version: 1\nignore: &none ~\n',
      'version: 1\nignore:\n  ~\n# end\n',
      'ignore: ~\nversion: 1\n',
      'version: 1\nignore: ~',
      'version: 1\r\nignore: ~ # none\r\n',
    ]) {
      const after = appendEntries(text, [entry, { ...entry, fingerprint: 'cd'.repeat(32) }], 'f');
      expect(
        parse(after).entries.map((e) => e.fingerprint),
        JSON.stringify(text),
      ).toStrictEqual(['ab'.repeat(32), 'cd'.repeat(32)]);
      // Only the null goes: every other line is kept (a comment after it too).
      const kept = text.split(/\r?\n/).filter((l) => !/^ignore:|^\s+~$/.test(l));
      for (const line of kept) expect(after.split(/\r?\n/), JSON.stringify(text)).toContain(line);
      if (text.includes('# none')) expect(after).toMatch(/^ignore: # none/m);
    }
  });

  it("the service's control characters never reach the comment line; the file stays YAML that other tools load", () => {
    const hostile = [
      'Bucket\u001b]0;pwned\u0007 title\u001b[2J',
      'C1\u009b31m csi\u0085next\u009dosc\u009c and DEL\u007f',
      'bidi \u202egnp.exe\u202c \u2066iso\u2069 line\u2028sep\u2029para',
      'tab\tnul\u0000 bell\u0007 esc\u001bc nonchar\uffff',
    ].join(' — ');
    for (const text of [undefined, EXAMPLE, 'version: 1\nignore: []\n', 'version: 1\nignore: ~\n']) {
      const after = appendEntries(text, [{ ...entry, comment: hostile }], 'f');
      const comment = after.split('\n').find((l) => l.includes('Bucket'))!;
      expect(after, JSON.stringify(text)).not.toMatch(
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufffe\uffff]/,
      );
      expect(comment).toMatch(
        /^ {2}# Bucket title — C1 csinext and DEL — bidi gnp\.exe iso line sep para — tab nul bell esc nonchar$/,
      );
      expect(parse(after).entries.at(-1)?.fingerprint).toBe('ab'.repeat(32));
      if (pyyaml) expect(loadWithPyYaml(after)).toMatchObject({ version: 1 });
    }
  });

  it('a reason over several lines (or with control characters) is written double-quoted and reads back as given', () => {
    for (const reason of ['Two lines:\nsee SEC-9 # not a comment', 'tab\tand\r\nCRLF', 'bell\u0007'])
      for (const text of [undefined, EXAMPLE, 'version: 1\nignore: []\n']) {
        const after = appendEntries(text, [{ ...entry, reason }], 'f');
        expect(parse(after).entries.at(-1)?.reason).toBe(reason);
      }
  });

  it('a file with CRLF line endings gets CRLF lines: never mixed endings', () => {
    const crlf = (t: string) => t.replace(/\n/g, '\r\n');
    for (const text of [
      crlf(EXAMPLE),
      crlf(EXAMPLE).trimEnd(),
      crlf('version: 1\nignore:\n'),
      crlf('version: 1\nignore: []\n'),
      crlf('version: 1\n'),
    ]) {
      const after = appendEntries(text, [entry], 'f');
      expect(after.replace(/\r\n/g, ''), JSON.stringify(text)).not.toContain('\n');
      expect(after.startsWith(text.split('\r\n')[0]!)).toBe(true);
      expect(parse(after).entries.at(-1)?.fingerprint).toBe('ab'.repeat(32));
    }
    // Every byte of the CRLF file is kept (the new lines added only).
    const after = appendEntries(crlf(EXAMPLE), [entry], 'f');
    expect(after.startsWith(crlf(EXAMPLE))).toBe(true);
  });

  it('--expires: a date, <n>d, never; 90 days by default', () => {
    const now = Date.UTC(2026, 10, 25);
    expect(parseExpires(undefined, now)).toBe('2027-02-23');
    expect(parseExpires('30d', now)).toBe('2026-12-25');
    expect(parseExpires('never', now)).toBe('never');
    expect(parseExpires('2027-05-01', now)).toBe('2027-05-01');
    expect(() => parseExpires('soon', now)).toThrow('invalid --expires "soon"');
    expect(() => parseExpires('2026-11-24', now)).toThrow('that day has passed');
    expect(parseExpires('2026-11-25', now)).toBe('2026-11-25');
  });
});

describe('findings ignore (verb)', () => {
  const f1 = {
    id: 'fnd_1',
    severity: 'high',
    title: 'Public bucket',
    resource: 'arn:aws:s3:::b',
    rule_id: 'r',
  };

  it('looks the finding up, appends one entry and writes the file; a second time it is already covered', async () => {
    const d = dir();
    const w = verbWorld([json(f1)], { cwd: d });
    expect(await w.run(ignore, { reason: 'by design' }, ['fnd_1'])).toBe(0);
    const text = readFileSync(join(d, '.cssctl-ignore.yaml'), 'utf8');
    expect(parse(text).entries).toMatchObject([
      { fingerprint: fingerprintOf(f1 as Finding), reason: 'by design' },
    ]);
    expect(text).toContain('# Public bucket — arn:aws:s3:::b (finding fnd_1)');
    const again = verbWorld([json(f1)], { cwd: d });
    expect(await again.run(ignore, { reason: 'again' }, ['fnd_1'])).toBe(0);
    expect(again.stderr.text).toContain('finding fnd_1 is already ignored by .cssctl-ignore.yaml:');
    expect(readFileSync(join(d, '.cssctl-ignore.yaml'), 'utf8')).toBe(text);
  });

  it("loadIgnore reads the context's folder (ctx.cwd), never the process's: its file, or its nearest parent's", () => {
    const d = dir();
    writeFileSync(
      join(d, '.cssctl-ignore.yaml'),
      'version: 1\nignore:\n  - rule: r\n    reason: x\n    expires: never\n',
    );
    mkdirSync(join(d, 'a', 'b'), { recursive: true });
    writeFileSync(join(d, 'a', 'rel.yaml'), 'version: 1\nignore: []\n');
    for (const cwd of [d, join(d, 'a', 'b')]) {
      const ctx = new FakeContext({ cwd });
      expect(ctx.cwd).not.toBe(process.cwd());
      expect(loadIgnore(ctx, {})?.file.path, cwd).toBe(join(d, '.cssctl-ignore.yaml'));
    }
    // A relative --ignore-file names a file of that folder too.
    const nested = new FakeContext({ cwd: join(d, 'a', 'b') });
    expect(loadIgnore(nested, { ignoreFile: join('..', 'rel.yaml') })?.file.path).toBe(
      join(d, 'a', 'rel.yaml'),
    );
    expect(loadIgnore(new FakeContext({ cwd: dir() }), {})).toBeUndefined();
  });

  it("works in the context's folder, not the process's: the file it writes, a relative --ignore-file, the list that reads it", async () => {
    const d = dir();
    expect(d).not.toBe(process.cwd());
    const w = verbWorld([json(f1)], { cwd: d });
    expect(w.ctx.cwd).toBe(d);
    expect(await w.run(ignore, { reason: 'by design' }, ['fnd_1'])).toBe(0);
    expect(parse(readFileSync(join(d, '.cssctl-ignore.yaml'), 'utf8')).entries).toHaveLength(1);
    expect(existsSync(join(process.cwd(), '.cssctl-ignore.yaml'))).toBe(false);
    // A relative --ignore-file names a file in the context's folder (a sub-folder here, made first).
    mkdirSync(join(d, 'sub'));
    const rel = verbWorld([json(f1)], { cwd: d });
    expect(await rel.run(ignore, { reason: 'r', ignoreFile: 'sub/accepted.yaml' }, ['fnd_1'])).toBe(0);
    expect(parse(readFileSync(join(d, 'sub', 'accepted.yaml'), 'utf8')).entries).toHaveLength(1);
    // findings list in that folder finds the file written there and leaves the finding out; elsewhere it shows.
    const listed = verbWorld([json({ total: 1, findings: [f1] })], { cwd: d, output: 'json' });
    expect(await listed.run(list, { all: true })).toBe(0);
    expect(JSON.parse(listed.stdout.text)).toStrictEqual([]);
    const elsewhere = verbWorld([json({ total: 1, findings: [f1] })], { cwd: dir(), output: 'json' });
    expect(await elsewhere.run(list, { all: true })).toBe(0);
    expect(JSON.parse(elsewhere.stdout.text)).toMatchObject([{ id: 'fnd_1' }]);
  });

  it('without --reason: exit 2 before any request; a bad file: exit 2 before any request', async () => {
    const w = verbWorld([], { cwd: dir() });
    expect(await w.run(ignore, {}, ['fnd_1'])).toBe(2);
    const d = dir();
    writeFileSync(join(d, '.cssctl-ignore.yaml'), 'version: 1\nignore:\n  - rule: r\n');
    const bad = verbWorld([], { cwd: d });
    expect(await bad.run(ignore, { reason: 'x' }, ['fnd_1'])).toBe(2);
    expect(bad.stderr.text).toContain('.cssctl-ignore.yaml:3:5:');
  });

  it('an ignore file whose list is null (ignore: ~): the entry is appended; a bad file is exit 2 before any request', async () => {
    for (const list of ['~', 'null', '!!null']) {
      const d = dir();
      const path = join(d, '.cssctl-ignore.yaml');
      writeFileSync(path, `# accepted risks\nversion: 1\nignore: ${list}\n`);
      const w = verbWorld([json(f1)], { cwd: d });
      expect(await w.run(ignore, { reason: 'by design' }, ['fnd_1']), w.stderr.text).toBe(0);
      const text = readFileSync(path, 'utf8');
      expect(text.startsWith('# accepted risks\nversion: 1\nignore:\n  # Public bucket')).toBe(true);
      expect(parse(text).entries).toMatchObject([{ fingerprint: fingerprintOf(f1 as Finding) }]);
    }
    // A list that is not a list: refused with the file's own line, and the service is never asked.
    const d = dir();
    writeFileSync(join(d, '.cssctl-ignore.yaml'), 'version: 1\nignore: ~x\n');
    const bad = verbWorld([], { cwd: d });
    expect(await bad.run(ignore, { reason: 'x' }, ['fnd_1'])).toBe(2);
    expect(bad.requests()).toStrictEqual([]);
    expect(bad.stderr.text).toContain('.cssctl-ignore.yaml:2:9: "ignore" must be a list of entries');
  });

  it('an edit made while the service was asked is kept: the entry is appended to the file as it is then', async () => {
    const d = dir();
    const path = join(d, '.cssctl-ignore.yaml');
    writeFileSync(path, 'version: 1\nignore: []\n');
    const w = verbWorld(
      [
        (req) => {
          writeFileSync(path, 'version: 1\nignore: []\n# edited meanwhile\n');
          return {
            status: 200,
            body: JSON.stringify({ ...f1, id: new URL(req.url).pathname.split('/').at(-1) }),
          };
        },
      ],
      { cwd: d },
    );
    expect(await w.run(ignore, { reason: 'x' }, ['fnd_1'])).toBe(0);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# edited meanwhile\n');
    expect(parse(text).entries).toMatchObject([{ fingerprint: fingerprintOf(f1 as Finding) }]);
  });

  it('two at once on one file: each appends to what the other wrote; a finding the other just added gets no second entry', async () => {
    const d = dir();
    const path = join(d, '.cssctl-ignore.yaml');
    writeFileSync(path, 'version: 1\nignore: []\n');
    const f2 = { ...f1, id: 'fnd_2', resource: 'arn:aws:s3:::c' };
    const a = verbWorld([json(f1), json(f2)], { cwd: d });
    const b = verbWorld([json(f2), json(f1)], { cwd: d });
    const codes = await Promise.all([
      a.run(ignore, { reason: 'a' }, ['fnd_1', 'fnd_2']),
      b.run(ignore, { reason: 'b' }, ['fnd_2', 'fnd_1']),
    ]);
    expect(codes).toStrictEqual([0, 0]);
    const entries = parse(readFileSync(path, 'utf8')).entries;
    expect(entries.map((e) => e.fingerprint).sort()).toStrictEqual(
      [fingerprintOf(f1 as Finding), fingerprintOf(f2 as Finding)].sort(),
    );
    // Whoever wrote second found both covered: it says so, and never "Added".
    const said = [a.stderr.text, b.stderr.text];
    expect(said.filter((t) => t.includes('Added 2 entries'))).toHaveLength(1);
    expect(
      said.filter((t) =>
        /fnd_1 is already ignored[\s\S]*fnd_2 is already ignored|fnd_2 is already ignored[\s\S]*fnd_1 is already ignored/.test(
          t,
        ),
      ),
    ).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe('ignored findings in the reports and the gate', () => {
  const fs = [
    { id: 'a', severity: 'critical', title: 'T', resource: 'arn:a', rule_id: 'accepted' },
    { id: 'b', severity: 'low', title: 'T', resource: 'arn:b', rule_id: 'other' },
  ];
  function ignoreFileIn(d: string): string {
    const p = join(d, 'ign.yaml');
    writeFileSync(
      p,
      'version: 1\nignore:\n  - rule: accepted\n    reason: Known and accepted\n    expires: never\n',
    );
    return p;
  }

  it('stderr says how many were ignored once: in the page hint, or in its own line, or in the scan line; never 0', async () => {
    const p = ignoreFileIn(dir());
    const mentions = (text: string) => text.split('\n').filter((l) => /ignored by/.test(l));
    // A single page with more to read: the hint says it, with how to see them; no second line.
    const page = verbWorld([json({ total: 5, findings: fs, limit: 2, offset: 0 })]);
    expect(await page.run(list, { ignoreFile: p, limit: 2 })).toBe(0);
    expect(mentions(page.stderr.text)).toStrictEqual([
      expect.stringMatching(
        /^Read 1–2 of 5: 1 shown, 1 ignored by .*ign\.yaml \(--no-ignore to show them\) — use --all or --offset 2$/,
      ),
    ]);
    // The whole list (no hint): the line of its own, once.
    const all = verbWorld([json({ total: 2, findings: fs })]);
    expect(await all.run(list, { ignoreFile: p, all: true })).toBe(0);
    expect(mentions(all.stderr.text)).toStrictEqual([
      expect.stringMatching(/^1 finding ignored by .*ign\.yaml \(--no-ignore to show them\)$/),
    ]);
    // scans wait: the scan's line says it once, in a table and in junit (which keeps them as skipped).
    const scan = { scan_id: 'scn_1', status: 'completed', connection_alias: 'prod', total_findings: 2 };
    for (const output of ['table', 'junit']) {
      const w = verbWorld([json(scan), json({ total: 2, findings: fs })], { output });
      expect(await w.run(wait, { failOn: 'critical', ignoreFile: p }, ['scn_1'])).toBe(0);
      expect(mentions(w.stderr.text), output).toStrictEqual([
        expect.stringMatching(
          /^✓ Scan scn_1 completed: 1 findings .*; 1 ignored by .*ign\.yaml \(--no-ignore/,
        ),
      ]);
    }
    // Nothing ignored: nothing said (was "0 ignored by .cssctl-ignore.yaml").
    const none = verbWorld([json(scan), json({ total: 1, findings: [fs[1]] })]);
    expect(await none.run(wait, { failOn: 'critical', ignoreFile: p }, ['scn_1'])).toBe(0);
    expect(mentions(none.stderr.text)).toStrictEqual([]);
  });

  it('findings list leaves them out with one line; --show-ignored keeps them with "ignored" and "fingerprint"', async () => {
    const p = ignoreFileIn(dir());
    const w = verbWorld([json({ total: 2, findings: fs })], { output: 'json' });
    expect(await w.run(list, { ignoreFile: p })).toBe(0);
    expect((JSON.parse(w.stdout.text) as { id: string }[]).map((x) => x.id)).toStrictEqual(['b']);
    expect(w.stderr.text).toMatch(/1 finding ignored by .*ign\.yaml \(--no-ignore to show them\)/);
    const shown = verbWorld([json({ total: 2, findings: fs })], { output: 'json' });
    expect(await shown.run(list, { ignoreFile: p, showIgnored: true })).toBe(0);
    const out = JSON.parse(shown.stdout.text) as Record<string, unknown>[];
    expect(out[0]).toMatchObject({
      id: 'a',
      fingerprint: fingerprintOf(fs[0] as Finding),
      ignored: {
        reason: 'Known and accepted',
        expires: 'never',
        source: expect.stringMatching(/ign\.yaml:3$/),
      },
    });
    const csv = verbWorld([json({ total: 2, findings: fs })], { output: 'csv' });
    expect(await csv.run(list, { ignoreFile: p, showIgnored: true })).toBe(0);
    const [header, first] = csv.stdout.text.split('\n');
    expect(header).toMatch(/,ignored,fingerprint$/);
    expect(first).toContain('Known and accepted (until never; ');
    expect(first!.endsWith(fingerprintOf(fs[0] as Finding))).toBe(true);
    const none = verbWorld([json({ total: 2, findings: fs })], { output: 'json' });
    expect(await none.run(list, { ignoreFile: p, ignore: false })).toBe(0);
    expect(JSON.parse(none.stdout.text)).toHaveLength(2);
  });

  it('--columns can name the IGNORED and FINGERPRINT columns that --show-ignored adds', async () => {
    const p = ignoreFileIn(dir());
    const w = verbWorld([json({ total: 2, findings: fs })], { output: 'csv' });
    expect(await w.run(list, { ignoreFile: p, showIgnored: true, columns: 'id,ignored,fingerprint' })).toBe(
      0,
    );
    const [header, first, second] = w.stdout.text.split('\n');
    expect(header).toBe('id,ignored,fingerprint');
    expect(first).toMatch(/^a,Known and accepted \(until never; .*ign\.yaml:3\),[0-9a-f]{64}$/);
    expect(second).toBe('b,,');
    // Without --show-ignored no finding carries them: empty cells, and a warning naming the column.
    const plain = verbWorld([json({ total: 2, findings: fs })], { output: 'csv' });
    expect(await plain.run(list, { ignoreFile: p, columns: 'id,ignored' })).toBe(0);
    expect(plain.stderr.text).toContain('--columns ignored: no item carried this field');
    expect(plain.stdout.text).toBe('id,ignored\nb,\n');
  });

  it('with an ignore file, --all keeps its pages: --columns all reads the fields of the first page only', async () => {
    const p = ignoreFileIn(dir());
    const later = {
      id: 'c',
      severity: 'high',
      title: 'T',
      resource: 'arn:c',
      rule_id: 'other',
      region: 'eu',
    };
    const w = verbWorld([json({ total: 3, findings: fs }), json({ total: 3, findings: [later] })], {
      output: 'csv',
    });
    expect(await w.run(list, { ignoreFile: p, all: true, columns: 'all' })).toBe(0);
    const rows = w.stdout.text.split('\n').filter(Boolean);
    expect(rows[0]).toBe('severity,title,resource,id,rule_id');
    expect(rows.slice(1).map((r) => r.split(',')[3])).toEqual(['b', 'c']);
    expect(w.stderr.text).toMatch(/later items also carry region/);
  });

  it('junit keeps them as skipped; sarif leaves them out unless --show-ignored (then suppressions); github never', async () => {
    const p = ignoreFileIn(dir());
    const junit = verbWorld([json({ total: 2, findings: fs })], { output: 'junit' });
    expect(await junit.run(list, { ignoreFile: p })).toBe(0);
    expect(junit.stdout.text).toContain('<skipped message="ignored until never: Known and accepted');
    const sarif = verbWorld([json({ total: 2, findings: fs })], { output: 'sarif' });
    await sarif.run(list, { ignoreFile: p });
    expect(sarif.stdout.text).not.toContain('"finding-id":"a"');
    const kept = verbWorld([json({ total: 2, findings: fs })], { output: 'sarif' });
    await kept.run(list, { ignoreFile: p, showIgnored: true });
    expect(kept.stdout.text).toContain(
      '"suppressions":[{"kind":"external","status":"accepted","justification":"Known and accepted"}]',
    );
    const github = verbWorld([json({ total: 2, findings: fs })], { output: 'github' });
    await github.run(list, { ignoreFile: p, showIgnored: true });
    expect(github.stdout.text).not.toContain('finding a');
  });

  it('each --report decides for its own format: junit keeps them as skipped, sarif leaves them out, whatever -o is', async () => {
    const d = dir();
    const p = ignoreFileIn(d);
    const [junitFile, sarifFile, csvFile] = ['r.xml', 'r.sarif', 'r.csv'].map((n) => join(d, n));
    // stdout json (which leaves them out), a junit report (which keeps them).
    const w = verbWorld([json({ total: 2, findings: fs })], { output: 'json' });
    expect(await w.run(list, { ignoreFile: p, report: [{ format: 'junit', path: junitFile! }] })).toBe(0);
    expect((JSON.parse(w.stdout.text) as { id: string }[]).map((x) => x.id)).toStrictEqual(['b']);
    expect(readFileSync(junitFile!, 'utf8')).toContain(
      '<skipped message="ignored until never: Known and accepted',
    );
    // stdout junit (which keeps them), a sarif and a csv report (which do not).
    const j = verbWorld([json({ total: 2, findings: fs })], { output: 'junit' });
    const reports = [
      { format: 'sarif', path: sarifFile! },
      { format: 'csv', path: csvFile! },
    ];
    expect(await j.run(list, { ignoreFile: p, report: reports })).toBe(0);
    expect(j.stdout.text).toContain('<skipped message="ignored until never');
    expect(readFileSync(sarifFile!, 'utf8')).not.toContain('"finding-id":"a"');
    expect(readFileSync(sarifFile!, 'utf8')).toContain('"finding-id":"b"');
    expect(readFileSync(csvFile!, 'utf8').split('\n').filter(Boolean)).toHaveLength(2); // header and b
    // A scan report whose stdout is the summary: the same, from its one read.
    const scan = { scan_id: 'scn_1', status: 'completed', connection_alias: 'prod', total_findings: 2 };
    const s = verbWorld([json(scan), json({ total: 2, findings: fs })]);
    expect(
      await s.run(wait, { ignoreFile: p, report: [{ format: 'junit', path: junitFile! }, reports[0]!] }, [
        'scn_1',
      ]),
    ).toBe(0);
    expect(readFileSync(junitFile!, 'utf8')).toContain('<skipped message="ignored until never');
    expect(readFileSync(sarifFile!, 'utf8')).not.toContain('"finding-id":"a"');
  });

  it('html keeps them as marked rows with reason and expiry, counted apart: never in the chart or the verdict', async () => {
    const p = ignoreFileIn(dir());
    const w = verbWorld([json({ total: 2, findings: fs })], { output: 'html' });
    expect(await w.run(list, { ignoreFile: p })).toBe(0);
    const page = w.stdout.text;
    expect(page).toMatch(/<tr class="s0 ignored"[^>]*data-state="ignored">/);
    expect(page).toContain('Known and accepted (until never)');
    expect(page).toContain('>1 finding</p><p class="muted">and 1 ignored (accepted risk)</p>');
    // The chart counts b (low) only: no critical bar.
    expect(page).toMatch(/>critical<\/text><rect[^>]*\/><text[^>]*>0<\/text>/);
    expect(w.stderr.text).not.toContain('--no-ignore to show them');
  });

  it('an ignored finding never counts for --fail-on: the scan is read once instead of counted', async () => {
    const p = ignoreFileIn(dir());
    const scan = {
      scan_id: 'scn_1',
      status: 'completed',
      connection_alias: 'prod',
      critical_count: 1,
      total_findings: 2,
    };
    const w = verbWorld([json(scan), json({ total: 2, findings: fs })]);
    expect(await w.run(wait, { failOn: 'critical', ignoreFile: p }, ['scn_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1', 'GET /findings?limit=1000&scan_id=scn_1']);
    expect(w.stderr.text).toContain('1 ignored by');
    expect(w.stderr.text).toContain('none at or above critical');
  });
});

describe('the ignore file in a comparison', () => {
  it('an ignored head finding is neither shown nor gated; one an expired entry covered is new with why=ignore-expired', async () => {
    const { diff } = await import('../../src/commands/findings/diff.js');
    const d = dir();
    const base = join(d, 'base.ndjson');
    const head = join(d, 'head.ndjson');
    const f = (id: string, rule: string, severity = 'critical') =>
      JSON.stringify({
        id,
        severity,
        title: 'T',
        resource: `arn:${rule}`,
        rule_id: rule,
        connection_alias: 'prod',
      });
    writeFileSync(base, `${f('a', 'old')}\n`);
    writeFileSync(head, `${f('b', 'old')}\n${f('c', 'accepted')}\n${f('e', 'lapsed')}\n`);
    const ign = join(d, 'ign.yaml');
    writeFileSync(
      ign,
      'version: 1\nignore:\n  - rule: accepted\n    reason: ok\n    expires: never\n  - rule: lapsed\n    reason: was ok\n    expires: 2020-01-01\n',
    );
    const w = verbWorld([], { output: 'ndjson' });
    expect(await w.run(diff, { base, head, ignoreFile: ign, failOn: 'critical' })).toBe(10);
    const out = w.stdout.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; state: string; why?: string });
    expect(out.map((x) => [x.id, x.state, x.why])).toStrictEqual([
      ['b', 'unchanged', undefined],
      ['e', 'new', 'ignore-expired'],
    ]);
    expect(w.stderr.text).toContain('has 1 new or raised finding at or above critical: 1 critical');
    expect(w.stderr.text).toMatch(/ign\.yaml:6: expired on 2020-01-01 \(was ok\); 1 finding counts again/);
    expect(w.stderr.text).toMatch(/1 finding ignored by .*ign\.yaml/);
  });
  it('--show-ignored marks the accepted rows of the diff in table, wide and csv, as findings list does', async () => {
    const { diff } = await import('../../src/commands/findings/diff.js');
    const d = dir();
    const base = join(d, 'base.ndjson');
    const head = join(d, 'head.ndjson');
    const f = (id: string, rule: string) =>
      JSON.stringify({ id, severity: 'high', title: `T-${id}`, resource: `arn:${rule}`, rule_id: rule });
    writeFileSync(base, `${f('a', 'old')}\n`);
    writeFileSync(head, `${f('b', 'old')}\n${f('c', 'accepted')}\n`);
    const ign = join(d, 'ign.yaml');
    writeFileSync(
      ign,
      'version: 1\nignore:\n  - rule: accepted\n    reason: Known risk\n    expires: never\n',
    );
    const marker = /Known risk \(until never; \S*ign\.yaml:3\)/;
    const lines = (t: string) => t.trim().split('\n');
    for (const output of ['table', 'wide']) {
      const w = verbWorld([], { output });
      expect(await w.run(diff, { base, head, ignoreFile: ign, showIgnored: true })).toBe(0);
      const [header, ...rows] = lines(w.stdout.text);
      expect(header, output).toMatch(/\bIGNORED\b/);
      const accepted = rows.find((r) => r.includes('T-c'));
      expect(accepted, output).toMatch(marker);
      expect(accepted, output).toMatch(/^new\b/);
      expect(
        rows.find((r) => r.includes('T-b')),
        output,
      ).not.toMatch(/Known risk/);
      // Without --show-ignored the row and the column are gone.
      const hidden = verbWorld([], { output });
      expect(await hidden.run(diff, { base, head, ignoreFile: ign })).toBe(0);
      expect(hidden.stdout.text).not.toContain('T-c');
      expect(lines(hidden.stdout.text)[0]).not.toMatch(/IGNORED/);
    }
    const csv = verbWorld([], { output: 'csv' });
    expect(await csv.run(diff, { base, head, ignoreFile: ign, showIgnored: true })).toBe(0);
    const [header, ...rows] = lines(csv.stdout.text);
    expect(header).toMatch(/^state,fingerprint,.*,ignored$/);
    expect(rows.find((r) => r.includes('T-c'))).toMatch(marker);
    expect(rows.find((r) => r.includes('T-b'))!.endsWith(',')).toBe(true);
    // findings list shows the same marker in its table.
    const listed = verbWorld(
      [json({ total: 1, findings: [JSON.parse(f('c', 'accepted')) as Record<string, unknown>] })],
      { output: 'table' },
    );
    expect(await listed.run(list, { ignoreFile: ign, showIgnored: true })).toBe(0);
    expect(lines(listed.stdout.text)[0]).toMatch(/\bIGNORED\b/);
    expect(listed.stdout.text).toMatch(marker);
  });
  it('scans wait and findings list --scan --all: no stale notice for a fingerprint entry of another connection', async () => {
    const d = dir();
    const prod = {
      id: 'p',
      severity: 'high',
      title: 'T',
      resource: 'arn:p',
      rule_id: 'r2',
      connection_alias: 'prod',
    };
    const dev = {
      id: 'd',
      severity: 'high',
      title: 'T',
      resource: 'arn:d',
      rule_id: 'r1',
      connection_alias: 'dev',
    };
    const ign = join(d, 'ign.yaml');
    writeFileSync(
      ign,
      `version: 1\nignore:\n  - fingerprint: ${fingerprintOf(dev as Finding)}\n    reason: on dev\n    expires: never\n  - rule: r9\n    connection: prod\n    reason: prod rule\n    expires: never\n`,
    );
    const scan = { scan_id: 'scn_p', status: 'completed', connection_alias: 'prod', total_findings: 1 };
    const waited = verbWorld([json(scan), json({ total: 1, findings: [prod] })]);
    expect(await waited.run(wait, { ignoreFile: ign }, ['scn_p'])).toBe(0);
    expect(waited.stderr.text).not.toContain('(on dev)');
    expect(waited.stderr.text).toMatch(/ign\.yaml:6: matched no finding; it may be stale \(prod rule\)/);
    // findings list --scan --all reads a whole scan: the same rule.
    const listed = verbWorld([json({ total: 1, findings: [prod] })], { output: 'json' });
    expect(await listed.run(list, { ignoreFile: ign, scan: 'scn_p', all: true })).toBe(0);
    expect(listed.stderr.text).not.toContain('(on dev)');
    expect(listed.stderr.text).toMatch(/ign\.yaml:6: matched no finding; it may be stale \(prod rule\)/);
    // The whole workspace, read: the dev finding is not there, so the entry may be stale.
    const all = verbWorld([json({ total: 1, findings: [prod] })], { output: 'json' });
    expect(await all.run(list, { ignoreFile: ign, all: true })).toBe(0);
    expect(all.stderr.text).toMatch(/ign\.yaml:3: matched no finding; it may be stale \(on dev\)/);
  });

  it('findings diff: a fingerprint entry whose finding the head scan no longer has is called stale', async () => {
    const { diff } = await import('../../src/commands/findings/diff.js');
    const d = dir();
    const f = (id: string, rule: string, connection: string) => ({
      id,
      severity: 'high',
      title: 'T',
      resource: `arn:${rule}`,
      rule_id: rule,
      connection_alias: connection,
    });
    const gone = f('g', 'gone', 'prod');
    const other = f('o', 'other', 'dev');
    const kept = f('k', 'kept', 'prod');
    const base = join(d, 'base.ndjson');
    writeFileSync(base, [gone, other, kept].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const ign = join(d, 'ign.yaml');
    writeFileSync(
      ign,
      `version: 1\nignore:\n  - fingerprint: ${fingerprintOf(gone as Finding)}\n    reason: fixed since\n    expires: never\n  - fingerprint: ${fingerprintOf(other as Finding)}\n    reason: on dev\n    expires: never\n`,
    );
    const head = { scan_id: 'scn_h', status: 'completed', connection_alias: 'prod' };
    const w = verbWorld([json(head), json({ total: 1, findings: [{ ...kept, id: 'k2' }] })], {
      output: 'json',
    });
    expect(await w.run(diff, { base, head: 'scn_h', ignoreFile: ign })).toBe(0);
    expect(w.stderr.text).toMatch(/ign\.yaml:3: matched no finding; it may be stale \(fixed since\)/);
    // The base's dev finding is "fixed" against a prod head, but this read did not cover dev.
    expect(w.stderr.text).not.toContain('(on dev)');
  });
});
