// `-o csv` against a service whose findings carry formulas and terminal controls (issue 20 #7): piped, the
// text is kept and formulas are defused; on a terminal (a pty, via script) nothing of it drives the terminal.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, hasCommand, runCli } from './harness.js';
import { skipped } from '../helpers/skip.js';

const TITLES = [
  "=cmd|' /C calc'!A0",
  '+SUM(1,2)',
  '@prod',
  '-open',
  'link \u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007',
  'clear\u001b[2J\u001b[H',
  'c1 \u009b31m red',
  'bidi \u202egnp.exe',
];

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: Server;
let dir: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-csv-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = url.pathname.endsWith('/findings')
      ? {
          total: TITLES.length,
          findings: TITLES.map((title, i) => ({
            id: `f${i}`,
            severity: 'high',
            title,
            resource: i === 0 ? '-1' : 'arn:x',
          })),
        }
      : {
          scan_id: 'scn_1',
          status: 'completed',
          critical_count: -1,
          risk_score: '-3',
          connection_alias: '=x',
        };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  env = {
    PATH: process.env.PATH,
    HOME: dir,
    LANG: 'C.UTF-8',
    CSSCTL_CONFIG_DIR: join(dir, 'config'),
    CSSCTL_TOKEN: 'csv-test-token',
    CSSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    CSSCTL_WORKSPACE: 'acme',
  };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('-o csv piped (a spreadsheet import)', () => {
  it('formula-looking titles get a leading quote; the rest of the text is kept as given', async () => {
    const res = await runCli(['findings', 'list', '-o', 'csv'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toContain("'=cmd|' /C calc'!A0");
    expect(out).toContain(`"'+SUM(1,2)"`);
    expect(out).toContain(",'@prod,");
    expect(out).toContain(",'-open,");
    // A string "-1" is a text cell: prefixed too.
    expect(out).toContain(",'-1,");
    // Not a terminal: the service's bytes are data, kept whole.
    expect(out).toContain('\u001b]8;;https://evil.example/\u0007click');
  });

  it('a scan record: numbers stay numbers, text cells are defused', async () => {
    const res = await runCli(['scans', 'get', 'scn_1', '-o', 'csv'], env);
    expect(res.code, res.stderr).toBe(0);
    const [header, row] = res.stdout.trim().split('\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    expect(cells).toMatchObject({ critical_count: '-1', risk_score: "'-3", connection_alias: "'=x" });
  });
});

describe.skipIf(!hasCommand('script'))(
  '-o csv on a terminal (a pty under script)',
  skipped(
    'script(1) is not installed',
    'apt-get install bsdutils, then bash scripts/test test/e2e/csv.test.ts',
  ),
  () => {
    it('no escape sequence, C0/C1 control or bidi override from the service reaches the terminal', async () => {
      const line = [...CLI, 'findings', 'list', '-o', 'csv']
        .map((s) => `'${s.replace(/'/g, `'\\''`)}'`)
        .join(' ');
      const clean: Record<string, string> = {};
      for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
      const child = spawn('script', ['-qec', line, '/dev/null'], {
        env: clean,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(out).toContain('link click');
      expect(out).toContain("'=cmd|' /C calc'!A0");
      // The pty turns each \n into \r\n; anything else below U+0020, C1, DEL or bidi came from the service.
      expect(out.replace(/\r\n/g, '\n')).not.toMatch(UNSAFE);
    });
  },
);
