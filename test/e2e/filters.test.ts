// `--connection` and `--status` against the sandbox (cli-contract.md §15): the built binary, the service's real
// pages; counts agree between findings list --all, findings summary and the hint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000 });
  await w.login('acme');
}, 30_000);

afterAll(async () => {
  await w?.close();
});

describe('filters applied by cssctl while it pages', () => {
  it('findings list --all --connection: only that connection, as many as summary --by connection counts', async () => {
    const all = await w.run(['findings', 'list', '--all', '--connection', 'STAGING', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const items = JSON.parse(all.stdout) as { connection_alias: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((f) => f.connection_alias))).toStrictEqual(new Set(['staging']));
    const sum = await w.run(['findings', 'summary', '--by', 'connection', '--json']);
    const groups = (JSON.parse(sum.stdout) as { groups: { key: string; count: number }[] }).groups;
    expect(items.length).toBe(groups.find((g) => g.key === 'staging')!.count);
    const filtered = await w.run(['findings', 'summary', '--connection', 'staging', '--json']);
    expect((JSON.parse(filtered.stdout) as { total: number }).total).toBe(items.length);
  });

  it('one page: a full page of matches, and a hint that says cssctl filtered and where the next page starts', async () => {
    const r = await w.run(['findings', 'list', '--connection', 'staging', '--limit', '5']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toMatch(/\bstaging\b/);
    const hint =
      /^Read 1–(\d+) of [\d,]+: 5 shown, \d+ not matching --connection staging \(filtered by cssctl, not by the service\) — use --all or --offset (\d+)$/m.exec(
        r.stderr,
      );
    expect(hint, r.stderr).not.toBeNull();
    expect(hint![2]).toBe(hint![1]);
    // The next page goes on from there: none of the same findings.
    const next = await w.run([
      'findings',
      'list',
      '--connection',
      'staging',
      '--limit',
      '5',
      '--offset',
      hint![2]!,
      '--json',
    ]);
    const ids = (JSON.parse(next.stdout) as { id: string }[]).map((f) => f.id);
    for (const id of ids) expect(r.stdout).not.toContain(id);
  });

  it('--status: the finding’s own status (the sandbox’s are all open); scans list --connection', async () => {
    const none = await w.run(['findings', 'list', '--status', 'resolved', '--json']);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toStrictEqual([]);
    const open = await w.run(['findings', 'list', '--status', 'Open', '--limit', '3', '--json']);
    expect((JSON.parse(open.stdout) as unknown[]).length).toBe(3);
    const scans = await w.run(['scans', 'list', '--connection', 'dev', '--all', '--json']);
    expect(scans.code, scans.stderr).toBe(0);
    const list = JSON.parse(scans.stdout) as { connection_alias: string }[];
    expect(list.length).toBeGreaterThan(0);
    for (const s of list) expect(s.connection_alias).toBe('dev');
  });

  it('an empty value is exit 2 before any request', async () => {
    const r = await w.run(['findings', 'list', '--connection', 'prod,']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/empty connection alias in "prod,"/);
  });
});
