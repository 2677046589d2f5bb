// Tables at a real terminal (issue 21): on 80 columns the width goes to the columns people read, on 200
// everything shows; -o wide shows every column uncut; --columns picks columns by name or field (names checked
// against the first page before anything is written). Run in tmux, so stdout is a terminal of that width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, errorLine, lines } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

let w: World;
let tmux: Tmux;

interface F {
  id: string;
  title: string;
  resource: string;
  severity: string;
}
interface S {
  scan_id: string;
  created_at: string;
}
let findings: F[];
let scans: S[];

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000 });
  await w.login('acme');
  findings = JSON.parse((await w.run(['findings', 'list', '--limit', '8', '--json'])).stdout) as F[];
  scans = JSON.parse((await w.run(['scans', 'list', '--limit', '8', '--json'])).stdout) as S[];
  expect(findings.length).toBe(8);
  expect(scans.length).toBeGreaterThan(0);
  tmux = new Tmux(w.dir);
});
afterAll(async () => {
  tmux?.kill();
  await w?.close();
});

/** Runs cssctl in a terminal `columns` wide; returns its output lines (the screen up to EXIT=). */
async function atTerminal(columns: number, args: string[]): Promise<string[]> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const env = envPrefix({ ...w.env, TERM: 'xterm-256color', TZ: 'UTC', NO_COLOR: '1' });
  const s = tmux.start(`${env} ${CLI_SHELL} ${args.map(q).join(' ')} 2>/dev/null\necho EXIT=$?\nsleep 60\n`, {
    columns,
    rows: 50,
  });
  const screen = await tmux.waitFor(s, /EXIT=\d+/);
  const all = screen.split('\n');
  const end = all.findIndex((l) => /^EXIT=/.test(l));
  expect(all[end]).toBe('EXIT=0');
  return all.slice(0, end).filter((l) => l.trim() !== '');
}

/** The header's column names, and each row's cells, split where the header's columns start. */
function cells(out: string[]): { header: string[]; rows: Record<string, string>[] } {
  const head = out[0]!;
  const starts = [...head.matchAll(/\S+/g)].map((m) => m.index);
  const header = [...head.matchAll(/\S+/g)].map((m) => m[0]);
  const rows = out
    .slice(1)
    .map((line) =>
      Object.fromEntries(
        header.map((h, i) => [
          h,
          line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim(),
        ]),
      ),
    );
  return { header, rows };
}

describeTmux('findings list at 80 and 200 columns', () => {
  it('80: every column, the id and status whole; the title and resource cut instead (cli-contract.md §15)', async () => {
    const out = await atTerminal(80, ['findings', 'list', '--limit', '8']);
    for (const l of out) expect(l.length).toBeLessThanOrEqual(80);
    const { header, rows } = cells(out);
    expect(header).toEqual(['SEVERITY', 'TITLE', 'RESOURCE', 'CONNECTION', 'STATUS', 'ID']);
    expect(rows).toHaveLength(findings.length);
    rows.forEach((r, i) => {
      const f = findings[i]!;
      // The id is what findings get and findings ignore need: whole.
      expect(r.ID).toBe(f.id);
      expect(r.STATUS).toBe('open');
      // Each text cell is the whole text, or at least its first 10 characters then '…'.
      for (const [col, full] of [
        ['TITLE', f.title],
        ['RESOURCE', f.resource],
      ] as const) {
        const shown = r[col]!;
        if (shown !== full) {
          expect(shown.endsWith('…'), `${col}: ${shown}`).toBe(true);
          expect(shown.length, `${col}: ${shown}`).toBeGreaterThanOrEqual(10);
          expect(full.startsWith(shown.slice(0, -1))).toBe(true);
        }
      }
    });
  });

  it('200: every column, the full id and the full title', async () => {
    const out = await atTerminal(200, ['findings', 'list', '--limit', '8']);
    const { header, rows } = cells(out);
    expect(header).toContain('ID');
    rows.forEach((r, i) => {
      expect(r.ID).toBe(findings[i]!.id);
      expect(r.TITLE).toBe(findings[i]!.title);
    });
  });

  it('-o wide at 80: every column, uncut (the terminal wraps)', async () => {
    const out = await atTerminal(80, ['findings', 'list', '--limit', '8', '-o', 'wide']);
    const joined = out.join('\n');
    for (const f of findings) {
      expect(joined).toContain(f.id);
      expect(joined).toContain(f.title);
    }
  });

  it('--columns id,severity,title at 80: those columns, in that order, the id kept whole', async () => {
    const out = await atTerminal(80, ['findings', 'list', '--limit', '8', '--columns', 'ID,severity,title']);
    const { header, rows } = cells(out);
    expect(header).toEqual(['ID', 'SEVERITY', 'TITLE']);
    rows.forEach((r, i) => expect(r.ID).toBe(findings[i]!.id));
  });
});

describeTmux('scans list at 80 and 200 columns', () => {
  const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16);

  it('80: the whole scan id and CREATED as 2025-11-25 08:41', async () => {
    const out = await atTerminal(80, ['scans', 'list', '--limit', '8']);
    for (const l of out) expect(l.length).toBeLessThanOrEqual(80);
    const { header, rows } = cells(out);
    expect(header).toEqual(expect.arrayContaining(['SCAN', 'CONNECTION', 'STATUS', 'CREATED']));
    rows.forEach((r, i) => {
      expect(r.SCAN).toBe(scans[i]!.scan_id);
      expect(r.CREATED).toBe(minute(scans[i]!.created_at));
    });
  });

  it('200: the same, with the columns left out at 80', async () => {
    const out = await atTerminal(200, ['scans', 'list', '--limit', '8']);
    const { header, rows } = cells(out);
    expect(header).toEqual(['SCAN', 'CONNECTION', 'STATUS', 'FINDINGS', 'CRITICAL', 'RISK', 'CREATED']);
    rows.forEach((r, i) => expect(r.CREATED).toBe(minute(scans[i]!.created_at)));
  });

  it('-o wide: CREATED as the service gave it', async () => {
    const out = await atTerminal(200, ['scans', 'list', '--limit', '8', '-o', 'wide']);
    const { rows } = cells(out);
    rows.forEach((r, i) => expect(r.CREATED).toBe(scans[i]!.created_at));
  });
});

describe('-o wide is for lists', () => {
  it.each([
    [['scans', 'get', 'scn_x'], 'scans get'],
    [['auth', 'status'], 'auth status'],
    [['webhooks', 'delete', 'x'], 'webhooks delete'],
  ])('%j -o wide: exit 2, no request', async (args, name) => {
    w.sandbox.clearRequests();
    const res = await w.run([...args, '-o', 'wide']);
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(
      new RegExp(`-o wide is not available for "${name}": use table, json, ndjson, csv`),
    );
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('webhooks list and connections list accept it', async () => {
    for (const args of [
      ['webhooks', 'list'],
      ['connections', 'list'],
    ]) {
      const res = await w.run([...args, '-o', 'wide']);
      expect(res.code, res.stderr).toBe(0);
    }
  });
});

describe('--columns', () => {
  it.each([
    [
      ['findings', 'list'],
      'sevrity',
      'did you mean severity? Use a column (severity, title, resource, connection, status, id), a field of the findings (',
    ],
    [
      ['scans', 'list'],
      'statsu',
      'did you mean status? Use a column (scan, connection, status, findings, critical, risk, created), a field of the scans (',
    ],
    [
      ['connections', 'list'],
      'provder',
      'did you mean provider? Use a column (alias, provider, status, id, created), a field of the connections (',
    ],
    [['findings', 'list'], 'titel', 'did you mean title? Use a column'],
    [['scans', 'list'], 'scan_di', 'did you mean scan_id? Use a column'],
  ])(
    '%j --columns id,%s: a typo, exit 2 after the first page, naming the closest, nothing written',
    async (args, bad, hint) => {
      w.sandbox.clearRequests();
      const res = await w.run([...args, '--columns', `${args[0] === 'scans' ? 'scan_id' : 'id'},${bad}`]);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(errorLine(res)).toContain(`error: unknown column "${bad}"`);
      expect(errorLine(res)).toContain(hint);
      // The first page only: what the items carry is known from them.
      expect(w.sandbox.requests).toHaveLength(1);
    },
  );

  it.each([
    [['findings', 'list'], 'id'],
    [['scans', 'list'], 'scan_id'],
    [['connections', 'list'], 'id'],
  ])('%j --columns %s,nope: no typo of a field, kept: empty cells, a warning naming it', async (args, id) => {
    const res = await w.run([...args, '-o', 'csv', '--columns', `${id},nope`]);
    expect(res.code, res.stderr).toBe(0);
    const rows = lines(res.stdout);
    expect(rows[0]).toBe(`${id},nope`);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((r) => r.endsWith(','))).toBe(true);
    expect(lines(res.stderr)).toStrictEqual([
      'warning: --columns nope: no item carried this field, its cells are empty',
    ]);
  });

  it('--columns all: every field of the first page, the default columns first', async () => {
    const res = await w.run(['findings', 'list', '--limit', '3', '-o', 'csv', '--columns', 'all']);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stdout)[0]).toBe(
      'severity,title,resource,connection_alias,status,id,created_at,scan_id',
    );
    expect(lines(res.stdout)).toHaveLength(4);
  });

  it('fields the items carry and dotted paths: no typo, no request lost', async () => {
    const res = await w.run([
      'findings',
      'list',
      '--limit',
      '3',
      '-o',
      'csv',
      '--columns',
      'id,severity,scan_id,created_at',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stdout)[0]).toBe('id,severity,scan_id,created_at');
    expect(lines(res.stdout)).toHaveLength(4);
  });

  it('an empty name, or a format without columns, is exit 2', async () => {
    const empty = await w.run(['findings', 'list', '--columns', 'id,,title']);
    expect(empty.code).toBe(2);
    expect(errorLine(empty)).toMatch(/empty column name/);
    const json = await w.run(['findings', 'list', '--columns', 'id', '--json']);
    expect(json.code).toBe(2);
    // With --json the error is JSON too.
    expect(JSON.parse(json.stderr).error.detail).toBe(
      '--columns applies to table, wide, csv output, not json',
    );
  });

  it('csv follows --columns too', async () => {
    const res = await w.run(['findings', 'list', '--limit', '3', '-o', 'csv', '--columns', 'id,severity']);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stdout)).toEqual([
      'id,severity',
      ...findings.slice(0, 3).map((f) => `${f.id},${f.severity}`),
    ]);
  });
});
