import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, lines, received } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

interface Group {
  key: string;
  count: number;
  by_severity: Record<string, number>;
}
interface Summary {
  by: string;
  total: number;
  groups: Group[];
}

let w: World;
let findings: Record<string, unknown>[];

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, findingsPerWorkspace: 240 });
  await w.login('acme');
  findings = lines((await w.run(['findings', 'list', '--all', '-o', 'ndjson'])).stdout).map(
    (l) => JSON.parse(l) as Record<string, unknown>,
  );
});
afterAll(() => w.close());

function countBy(key: (f: Record<string, unknown>) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of findings) m.set(key(f), (m.get(key(f)) ?? 0) + 1);
  return m;
}

describe('findings summary', () => {
  it('--by severity (the default): one limit=1 request per severity, counts from their totals', async () => {
    const before = received(w.sandbox, '/findings').length;
    const res = await w.run(['findings', 'summary', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const asked = received(w.sandbox, '/findings').slice(before);
    expect(asked).toHaveLength(5);
    expect(asked.every((r) => r.query.limit === '1' && r.query.severity)).toBe(true);
    const s = JSON.parse(res.stdout) as Summary;
    expect(s.by).toBe('severity');
    expect(s.total).toBe(findings.length);
    const want = countBy((f) => String(f.severity));
    for (const g of s.groups) expect(g.count, g.key).toBe(want.get(g.key) ?? 0);
    expect(s.groups.map((g) => g.count)).toEqual([...s.groups.map((g) => g.count)].sort((a, b) => b - a));
  });

  it('--by connection / rule / status read every finding; largest first; per-severity counts add up', async () => {
    for (const by of ['connection', 'status', 'rule']) {
      const res = await w.run(['findings', 'summary', '--by', by, '-o', 'json']);
      expect(res.code, res.stderr).toBe(0);
      const s = JSON.parse(res.stdout) as Summary;
      expect(s.total).toBe(findings.length);
      expect(s.groups.reduce((n, g) => n + g.count, 0)).toBe(findings.length);
      for (const g of s.groups)
        expect(
          Object.values(g.by_severity).reduce((a, b) => a + b, 0),
          g.key,
        ).toBe(g.count);
      expect(s.groups.map((g) => g.count)).toEqual([...s.groups.map((g) => g.count)].sort((a, b) => b - a));
      if (by === 'connection') {
        const want = countBy((f) => String(f.connection_alias));
        for (const g of s.groups) expect(g.count).toBe(want.get(g.key));
      }
    }
  });

  it('--severity narrows what is counted; --by must be one of the four', async () => {
    const res = await w.run([
      'findings',
      'summary',
      '--by',
      'connection',
      '--severity',
      'critical,high',
      '--json',
    ]);
    const s = JSON.parse(res.stdout) as Summary;
    expect(s.total).toBe(findings.filter((f) => f.severity === 'critical' || f.severity === 'high').length);
    for (const g of s.groups) expect(g.by_severity.medium).toBe(0);
    const missing = await w.run(['findings', 'summary', '--scan', 'scn_doesnotexist']);
    expect(missing.code).toBe(5);
    const scans = JSON.parse((await w.run(['scans', 'list', '--json'])).stdout) as {
      scan_id: string;
      total_findings: number;
    }[];
    const done = scans.find((x) => x.total_findings > 0)!;
    const one = JSON.parse(
      (await w.run(['findings', 'summary', '--scan', done.scan_id, '--json'])).stdout,
    ) as Summary;
    expect(one.total).toBe(done.total_findings);
    const bad = await w.run(['findings', 'summary', '--by', 'colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*colour/m);
  });

  it('the ignore file applies (§8): accepted risks are counted apart, never in the groups', async () => {
    const f = findings.find((x) => x.severity === 'high')!;
    const fp = (
      JSON.parse((await w.run(['findings', 'get', String(f.id), '--json'])).stdout) as {
        fingerprint: string;
      }
    ).fingerprint;
    const file = join(w.dir, 'summary-ignore.yaml');
    writeFileSync(
      file,
      `version: 1\nignore:\n  - fingerprint: ${fp}\n    reason: Accepted\n    expires: never\n`,
    );
    const highs = findings.filter((x) => x.severity === 'high').length;
    const bySeverity = await w.run(['findings', 'summary', '--ignore-file', file, '--json']);
    expect(bySeverity.code, bySeverity.stderr).toBe(0);
    const s = JSON.parse(bySeverity.stdout) as Summary & { ignored: number };
    expect(s.total).toBe(findings.length - 1);
    expect(s.ignored).toBe(1);
    expect(s.groups.find((g) => g.key === 'high')!.count).toBe(highs - 1);
    expect(s.groups.map((g) => g.key).sort()).toEqual(['critical', 'high', 'info', 'low', 'medium']);
    expect(bySeverity.stderr).toContain('1 finding ignored by');
    const byConnection = await w.run(['findings', 'summary', '--by', 'connection', '--ignore-file', file]);
    expect(lines(byConnection.stdout).at(-1)).toMatch(new RegExp(`^TOTAL\\s+${findings.length - 1}$`));
    // --no-ignore, and CSSCTL_IGNORE_FILE as the flag.
    const all = await w.run(['findings', 'summary', '--no-ignore', '--json'], {
      env: { CSSCTL_IGNORE_FILE: file },
    });
    expect((JSON.parse(all.stdout) as Summary).total).toBe(findings.length);
    expect(all.stdout).not.toContain('"ignored"');
    // An ignore file without entries changes no count: the limit=1 totals, five requests.
    writeFileSync(file, 'version: 1\nignore: []\n');
    const asked = received(w.sandbox, '/findings').length;
    const empty = await w.run(['findings', 'summary', '--ignore-file', file, '--json']);
    expect((JSON.parse(empty.stdout) as Summary & { ignored: number }).ignored).toBe(0);
    expect(received(w.sandbox, '/findings').length - asked).toBe(5);
    // A bad file is exit 2 before any request.
    writeFileSync(file, 'version: 1\nignore:\n  - rule: x\n    reason: r\n    expire: never\n');
    const before = received(w.sandbox, '/findings').length;
    const bad = await w.run(['findings', 'summary', '--ignore-file', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*summary-ignore\.yaml:5:/m);
    expect(received(w.sandbox, '/findings')).toHaveLength(before);
  });

  it('a table with bars: blocks on a UTF-8 locale, # otherwise; 80 columns off a terminal; colour', async () => {
    const utf = await w.run(['findings', 'summary', '--by', 'connection'], { env: { LANG: 'C.UTF-8' } });
    expect(utf.code, utf.stderr).toBe(0);
    const rows = lines(utf.stdout);
    expect(rows[0]).toMatch(/^CONNECTION\s+COUNT\s+CRIT\s+HIGH\s+MED\s+LOW\s+INFO$/);
    expect(rows.at(-1)).toMatch(new RegExp(`^TOTAL\\s+${findings.length}$`));
    expect(rows[1]).toMatch(/█+[▏▎▍▌▋▊▉]?$/);
    // The largest row's bar reaches the 80th column's neighbourhood, and no line is longer.
    expect(Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(80);
    expect(rows[1]!.length).toBeGreaterThanOrEqual(78);
    const ascii = await w.run(['findings', 'summary', '--by', 'connection'], {
      env: { LANG: 'C', LC_ALL: undefined },
    });
    expect(lines(ascii.stdout)[1]).toMatch(/#+$/);
    expect(ascii.stdout).not.toMatch(/[█▏▎▍▌▋▊▉]/);
    // LC_ALL wins over LANG.
    const lcAll = await w.run(['findings', 'summary'], { env: { LANG: 'C.UTF-8', LC_ALL: 'POSIX' } });
    expect(lcAll.stdout).toContain('#');
    const colour = await w.run(['findings', 'summary'], { env: { FORCE_COLOR: '1' } });
    // eslint-disable-next-line no-control-regex
    expect(colour.stdout).toMatch(/\u001b\[31m█/); // high's bar in red
    expect(utf.stdout).not.toContain('\u001b');
  });
});

describeTmux('findings summary on a terminal', () => {
  let tmux: Tmux;
  beforeAll(() => {
    tmux = new Tmux(w.dir);
  });
  afterAll(() => tmux.kill());

  /** The bar rows of `findings summary` in a `width`-column pane. */
  async function barsAt(width: number): Promise<string[]> {
    const env = envPrefix({ ...w.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' });
    const name = `w${width}`;
    tmux.cmd(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      String(width),
      '-y',
      '20',
      `${env} ${CLI_SHELL} findings summary; echo EXIT=$?; sleep 30`,
    );
    const screen = await tmux.waitFor(name, /EXIT=\d/);
    expect(screen).toContain('EXIT=0');
    return screen.split('\n').filter((l) => /█/.test(l));
  }

  it('the bars are scaled to the terminal: 80 columns and 200 columns', async () => {
    const narrow = await barsAt(80);
    const wide = await barsAt(200);
    expect(narrow.length).toBeGreaterThan(0);
    const len = (rows: string[]) => Math.max(...rows.map((r) => r.trimEnd().length));
    expect(len(narrow)).toBeLessThanOrEqual(80);
    expect(len(narrow)).toBeGreaterThan(70);
    expect(len(wide)).toBeLessThanOrEqual(200);
    expect(len(wide)).toBeGreaterThan(190);
  });
});
