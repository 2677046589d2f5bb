// `--connection` and `--status` (cli-contract.md §15): filters the service does not have, applied by cssctl while
// it pages — through the verbs' run functions with a scripted service, and argv → options through the tree.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { diff } from '../../src/commands/findings/diff.js';
import { registerFindings } from '../../src/commands/findings/index.js';
import { list } from '../../src/commands/findings/list.js';
import { summary } from '../../src/commands/findings/summary.js';
import { registerScans } from '../../src/commands/scans/index.js';
import { list as listScans } from '../../src/commands/scans/list.js';
import type { Wire } from '../../src/commands/shared/action.js';
import { allCommands, completionModel } from '../../src/completion/model.js';
import { findingsSource } from '../../src/report/sources/findings.js';
import { itemFilter } from '../../src/report/sources/filter.js';
import { FakeContext } from '../helpers/fake-context.js';
import { findingOf, json, scanOf, verbWorld } from '../helpers/verb.js';

const dir = mkdtempSync(join(tmpdir(), 'cssctl-filters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const f = (id: string, connection: string, status = 'open', severity = 'high') =>
  findingOf(id, severity, { connection_alias: connection, status });
const page = (findings: unknown[], total: number, limit: number, offset = 0) =>
  json({ total, findings, limit, offset });
const ids = (text: string) => (JSON.parse(text) as { id: string }[]).map((x) => x.id);

describe('findings list --connection / --status', () => {
  it('one page of matches: the service pages are read until it is full; the hint counts what was read', async () => {
    const w = verbWorld([
      // The first page at the service's own size (3): it sets how many the page shows.
      page([f('a', 'dev'), f('b', 'prod'), f('c', 'dev')], 10, 3),
      // Then large pages.
      page([f('d', 'dev'), f('e', 'PROD'), f('g', 'prod'), f('h', 'prod')], 10, 1000, 3),
    ]);
    expect(await w.run(list, { connection: ['prod'], ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings', 'GET /findings?limit=1000&offset=3']);
    const rows = w.stdout.text.trimEnd().split('\n').slice(1);
    // Aliases match in any case; the page ends at its third match (g), mid-page.
    expect(rows.map((r) => r.split(/\s+/).at(-1))).toStrictEqual(['b', 'e', 'g']);
    expect(w.stderr.text).toBe(
      'Read 1–6 of 10: 3 shown, 3 not matching --connection prod (filtered by cssctl, not by the service) — use --all or --offset 6\n',
    );
  });

  it('--offset and --limit: reading starts at the offset; the next offset follows the last item shown', async () => {
    const w = verbWorld([page([f('a', 'dev'), f('b', 'prod'), f('c', 'prod')], 9, 2, 4)], {
      output: 'json',
    });
    expect(await w.run(list, { connection: ['prod'], offset: 4, limit: 1, ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings?limit=1&offset=4']);
    expect(ids(w.stdout.text)).toStrictEqual(['b']);
  });

  it('--status is the finding’s own status, in any case; the last page says what was left out', async () => {
    const w = verbWorld([
      page([f('a', 'prod', 'open'), f('b', 'prod', 'Resolved'), f('c', 'dev', 'resolved')], 3, 50),
    ]);
    expect(await w.run(list, { status: ['resolved'], ignore: false })).toBe(0);
    expect(
      w.stdout.text
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((r) => r.split(/\s+/).at(-1)),
    ).toStrictEqual(['b', 'c']);
    expect(w.stderr.text).toBe(
      'Read 1–3 of 3: 2 shown, 1 not matching --status resolved (filtered by cssctl, not by the service)\n',
    );
  });

  it('both filters: an item must match each; nothing matching is "No findings found." and what was read', async () => {
    const w = verbWorld([page([f('a', 'prod', 'resolved'), f('b', 'dev', 'open')], 2, 50)]);
    expect(await w.run(list, { connection: ['prod'], status: ['open'], ignore: false })).toBe(0);
    expect(w.stdout.text).toBe('');
    expect(w.stderr.text).toBe(
      'No findings found.\nRead 1–2 of 2: 0 shown, 2 not matching --connection prod --status open (filtered by cssctl, not by the service)\n',
    );
  });

  it('with the ignore file: the hint counts what the filter and the ignore file each left out', async () => {
    const file = join(mkdtempSync(join(dir, 'i-')), '.cssctl-ignore.yaml');
    writeFileSync(
      file,
      'version: 1\nignore:\n  - rule: r-b\n    reason: accepted (SEC-1)\n    expires: never\n',
    );
    const w = verbWorld(
      [
        page(
          [
            f('a', 'dev'),
            { ...f('b', 'prod'), rule_id: 'r-b' },
            f('c', 'prod'),
            f('d', 'prod'),
            f('e', 'prod'),
          ],
          9,
          3,
        ),
      ],
      { env: { CSSCTL_IGNORE_FILE: file } },
    );
    expect(await w.run(list, { connection: ['prod'] })).toBe(0);
    expect(
      w.stdout.text
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((r) => r.split(/\s+/).at(-1)),
    ).toStrictEqual(['c', 'd']);
    expect(w.stderr.text).toBe(
      `Read 1–4 of 9: 2 shown, 1 not matching --connection prod (filtered by cssctl, not by the service), 1 ignored by ${file} (--no-ignore to show them) — use --all or --offset 4\n`,
    );
  });

  it('--all: every page, only the matches, in every format; the table says how many were read', async () => {
    const replies = () => [page([f('a', 'prod'), f('b', 'dev')], 3, 2), page([f('c', 'prod')], 3, 2, 2)];
    const nd = verbWorld(replies(), { output: 'ndjson' });
    expect(await nd.run(list, { connection: ['prod'], all: true, limit: 2, ignore: false })).toBe(0);
    expect(
      nd.stdout.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toStrictEqual(['a', 'c']);
    const t = verbWorld(replies());
    expect(await t.run(list, { connection: ['prod'], all: true, limit: 2, ignore: false })).toBe(0);
    expect(t.stderr.text).toBe(
      'Read 3 findings: 2 shown, 1 not matching --connection prod (filtered by cssctl, not by the service)\n',
    );
  });

  it('several severities: one list across them, --offset counting across', async () => {
    const w = verbWorld(
      [
        // The totals of critical and high, to find where offset 2 falls: past critical's 2 findings.
        page([], 2, 1),
        page([], 3, 1),
        page([f('h1', 'dev', 'open', 'high'), f('h2', 'prod', 'open', 'high')], 3, 2),
        page([f('h3', 'dev', 'open', 'high')], 3, 1000, 2),
        page([f('m1', 'prod', 'open', 'medium')], 5, 1000),
      ],
      { output: 'json' },
    );
    const code = await w.run(list, {
      severity: ['critical', 'high', 'medium'],
      connection: ['prod'],
      offset: 2,
      limit: 2,
      ignore: false,
    });
    expect(w.stderr.text).toBe('');
    expect(code).toBe(0);

    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=1&severity=critical',
      'GET /findings?limit=1&severity=high',
      'GET /findings?limit=2&severity=high',
      'GET /findings?limit=1000&offset=2&severity=high',
      'GET /findings?limit=1000&severity=medium',
    ]);
    expect(ids(w.stdout.text)).toStrictEqual(['h2', 'm1']);
  });

  it('an interrupted --all resumes with the filters (they are in argv) and the service offset', async () => {
    const ctx = new FakeContext({
      replies: [page([f('a', 'prod'), f('b', 'dev')], 4, 2)],
      argv: ['findings', 'list', '--connection', 'prod', '--status=open', '--all'],
    });
    const client = await ctx.api();
    const source = findingsSource(ctx, client, {
      severities: [],
      all: true,
      limit: 2,
      filter: itemFilter({ connection: ['prod'], status: ['open'] }),
    });
    const it = source[Symbol.asyncIterator]();
    expect(((await it.next()).value as { id: string }).id).toBe('a');
    expect(source.resume?.()).toBe('cssctl findings list --connection prod --status=open --all --offset 1');
  });
});

describe('findings summary --connection / --status', () => {
  it('by severity: every finding is read (the service cannot count by connection), only matches counted', async () => {
    const w = verbWorld(
      [
        page(
          [f('a', 'prod', 'open', 'high'), f('b', 'dev', 'open', 'high'), f('c', 'prod', 'open', 'low')],
          3,
          1000,
        ),
      ],
      { output: 'json' },
    );
    expect(await w.run(summary, { connection: ['prod'], ignore: false })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings?limit=1000']);
    const out = JSON.parse(w.stdout.text) as { total: number; groups: { key: string; count: number }[] };
    expect(out.total).toBe(2);
    expect(out.groups.filter((g) => g.count > 0).map((g) => [g.key, g.count])).toStrictEqual([
      ['high', 1],
      ['low', 1],
    ]);
  });

  it('table: the hint says cssctl filtered, and how many of those read were counted', async () => {
    const w = verbWorld([page([f('a', 'prod', 'open'), f('b', 'prod', 'closed')], 2, 1000)]);
    expect(await w.run(summary, { by: 'status', status: ['CLOSED'], ignore: false })).toBe(0);
    expect(w.stdout.text).toMatch(/^STATUS +COUNT/);
    expect(w.stdout.text).toMatch(/\nclosed +1 /);
    expect(w.stdout.text).not.toMatch(/\nopen /);
    expect(w.stderr.text).toBe(
      'Counted the findings that match --status CLOSED: 1 of 2 read (filtered by cssctl, not by the service)\n',
    );
  });
});

describe('findings diff --connection / --status', () => {
  const write = (name: string, items: unknown[]) => {
    const path = join(mkdtempSync(join(dir, 'd-')), name);
    writeFileSync(path, JSON.stringify(items));
    return path;
  };

  it('both sides are narrowed before they are compared: counts and gate are of the matches', async () => {
    const base = write('base.json', [
      findingOf('a1', 'low', { resource: 'x', rule_id: 'r1', connection_alias: 'prod' }),
      findingOf('a2', 'low', { resource: 'y', rule_id: 'r2', connection_alias: 'dev' }),
    ]);
    const head = write('head.json', [
      findingOf('b2', 'critical', { resource: 'n', rule_id: 'r9', connection_alias: 'dev' }),
      findingOf('b1', 'low', { resource: 'x', rule_id: 'r1', connection_alias: 'prod' }),
    ]);
    const w = verbWorld([], { output: 'json' });
    expect(await w.run(diff, { base, head, connection: ['prod'], failOn: 'high', ignore: false })).toBe(0);
    expect(ids(w.stdout.text)).toStrictEqual(['b1']);
    expect(w.stderr.text).toBe('0 new, 0 updated, 0 fixed, 1 unchanged\n');
    // Without the filter dev's new critical finding meets the gate.
    const all = verbWorld([], { output: 'json' });
    expect(await all.run(diff, { base, head, failOn: 'high', ignore: false })).toBe(10);
  });
});

describe('scans list --connection', () => {
  it('only the scans of these connections, read while paging', async () => {
    const w = verbWorld(
      [
        json({
          total: 3,
          scans: [
            scanOf({ scan_id: 's1' }),
            scanOf({ scan_id: 's2', connection_alias: 'dev' }),
            scanOf({ scan_id: 's3' }),
          ],
          limit: 50,
          offset: 0,
        }),
      ],
      { output: 'json' },
    );
    expect(await w.run(listScans, { connection: ['prod'] })).toBe(0);
    expect((JSON.parse(w.stdout.text) as { scan_id: string }[]).map((s) => s.scan_id)).toStrictEqual([
      's1',
      's3',
    ]);
  });
});

describe('the filter flags, argv → options', () => {
  function parse(...argv: string[]) {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    const captured: Record<string, unknown>[] = [];
    const wire = Object.assign(
      () =>
        async (...params: unknown[]) => {
          captured.push((params.at(-1) as Command).opts());
        },
      { frontEnd: () => async () => {} },
    ) as unknown as Wire;
    registerFindings(program, wire);
    registerScans(program, wire);
    return program.parseAsync(argv, { from: 'user' }).then(() => captured[0]);
  }

  it('comma lists and repeats, each once, on findings list, summary and diff and on scans list', async () => {
    expect(
      await parse('findings', 'list', '--connection', 'prod,dev', '--connection', 'prod', '--status', 'open'),
    ).toMatchObject({
      connection: ['prod', 'dev'],
      status: ['open'],
    });
    expect(await parse('findings', 'summary', '--connection', ' prod ', '--status', 'a,b')).toMatchObject({
      connection: ['prod'],
      status: ['a', 'b'],
    });
    expect(
      await parse('findings', 'diff', '--base', 'x.json', '--head', 'y.json', '--status', 'open'),
    ).toMatchObject({ status: ['open'] });
    expect(await parse('scans', 'list', '--connection', 'prod')).toMatchObject({ connection: ['prod'] });
  });

  it('an empty value is a usage error (exit 2) naming it', async () => {
    const err = await parse('findings', 'list', '--status', 'open,').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as Error).message).toMatch(/empty status in "open,"/);
    const err2 = await parse('scans', 'list', '--connection', '').catch((e: unknown) => e);
    expect((err2 as Error).message).toMatch(/empty connection alias/);
  });
});

describe('completion of the filter flags', () => {
  it('--connection offers the connection aliases (asked at TAB time); findings --status no scan statuses', () => {
    const program = new Command('cssctl');
    const wire = Object.assign(() => async () => {}, { frontEnd: () => async () => {} }) as unknown as Wire;
    registerFindings(program, wire);
    registerScans(program, wire);
    const commands = allCommands(completionModel(program));
    const flag = (path: string, long: string) =>
      commands.find((c) => c.path.join(' ') === `cssctl ${path}`)!.flags.find((f) => f.long === long);
    for (const path of ['findings list', 'findings summary', 'findings diff', 'scans list'])
      expect(flag(path, '--connection')?.values, path).toStrictEqual({ dynamic: 'connections' });
    // A finding's statuses are the service's own (it lists none): a free value, not queued/running/….
    for (const path of ['findings list', 'findings summary', 'findings diff'])
      expect(flag(path, '--status')?.values, path).toStrictEqual([]);
    expect(flag('scans list', '--status')?.values).toContain('completed');
  });
});
