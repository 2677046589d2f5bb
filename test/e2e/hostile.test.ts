// Issue 9 (#8, #11–#14, #16, #18) against a loopback service that answers what each test scripts.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lines, runCli, type RunOptions } from './harness.js';
import { interruptWhen, shellSplit } from './interrupt.js';

type Handler = (url: URL, req: IncomingMessage) => { status?: number; body?: string; delayMs?: number };

let server: Server;
let base: string;
let dir: string;
let handler: Handler;
let seen: URL[] = [];

function run(args: string[], opts: RunOptions = {}) {
  return runCli(args, env(), opts);
}

function env(): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    LANG: 'C.UTF-8',
    CSSCTL_CONFIG_DIR: join(dir, 'config'),
    CSSCTL_TOKEN: 'hostile-test-token',
    CSSCTL_BASE_URL: base,
    CSSCTL_WORKSPACE: 'acme',
    CSSCTL_RETRY_BASE_MS: '10',
  };
}

/** A list endpoint over `items` that honours limit/offset (capped at `cap`) and answers `shape`. */
function listOf(items: unknown[], shape: 'array' | 'object-no-total', cap: number): Handler {
  return (url) => {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), cap);
    const page = items.slice(offset, offset + limit);
    return { body: JSON.stringify(shape === 'array' ? page : { connections: page }) };
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-hostile-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    const a = handler(url, req);
    const send = () => {
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(a.body ?? '');
    };
    if (a.delayMs) setTimeout(send, a.delayMs);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  seen = [];
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const conns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ alias: `c${String(i).padStart(3, '0')}`, provider: 'aws' }));

describe('--all never truncates silently (#11)', () => {
  it('a bare array that honours limit/offset, capped at 10 a page: every item', async () => {
    handler = listOf(conns(35), 'array', 10);
    const res = await run(['connections', 'list', '--all', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect((JSON.parse(res.stdout) as { alias: string }[]).map((c) => c.alias)).toStrictEqual(
      conns(35).map((c) => c.alias),
    );
  });

  it('a paginated object without total, capped at 25 a page: every item', async () => {
    handler = listOf(conns(60), 'object-no-total', 25);
    const res = await run(['connections', 'list', '--all', '-o', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stdout)).toHaveLength(60);
  });

  it('a bare array that ignores limit and offset: printed once, no loop', async () => {
    handler = () => ({ body: JSON.stringify(conns(7)) });
    const res = await run(['connections', 'list', '--all', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(7);
    expect(seen.length).toBeLessThanOrEqual(2);
  });
});

describe('answers that are not lists (#12)', () => {
  for (const body of ['null', '"hello"', '42', '{"a":[1],"b":[2]}', '']) {
    it(`${body || 'an empty 200 body'}: a clear error, exit 1, not an empty list`, async () => {
      handler = () => ({ body });
      for (const args of [
        ['connections', 'list'],
        ['connections', 'list', '--all', '--json'],
        ['findings', 'list', '--json'],
      ]) {
        const res = await run(args);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(lines(res.stderr), res.stderr).toHaveLength(1);
        expect(res.stderr).toMatch(/not a list/);
      }
    });
  }

  it('api --paginate on a single object prints that object, not []', async () => {
    handler = () => ({ body: JSON.stringify({ id: 'x1', name: 'one', tags: ['a', 'b'] }) });
    const res = await run(['api', '/things/x1', '--paginate']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toStrictEqual({ id: 'x1', name: 'one', tags: ['a', 'b'] });
  });
});

describe('api --paginate', () => {
  it('stops on a repeated page when the server ignores offset, gives no total and no ids (#13)', async () => {
    handler = () => ({ body: JSON.stringify([{ n: 1 }, { n: 2 }]) });
    const res = await run(['api', '/things', '--paginate'], { timeoutMs: 10_000 });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toStrictEqual([{ n: 1 }, { n: 2 }]);
    expect(res.stderr).toMatch(/warning: .*already read/);
    expect(seen.length).toBe(2);
  });

  it('honours -o ndjson (#16)', async () => {
    handler = listOf(conns(12), 'array', 5);
    const res = await run(['api', '/connections', '--paginate', '-o', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stdout).map((l) => (JSON.parse(l) as { alias: string }).alias)).toStrictEqual(
      conns(12).map((c) => c.alias),
    );
  });

  it('Ctrl-C prints a resume command that works: a GET with the offset in the path (#16)', async () => {
    const items = conns(30);
    const list = listOf(items, 'array', 5);
    let stall = true;
    handler = (url, req) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      expect(req.method).toBe('GET');
      return { ...list(url, req), delayMs: stall && offset >= 15 ? 8_000 : 0 };
    };
    const res = await interruptWhen(
      ['api', '/connections?limit=5', '--paginate', '-o', 'ndjson'],
      env(),
      () => seen.some((u) => u.searchParams.get('offset') === '15'),
    );
    expect(res.code).toBe(130);
    const detail = (JSON.parse(lines(res.stderr).at(-1)!) as { error: { detail: string } }).error.detail;
    expect(detail).toBe(
      "interrupted; resume with: cssctl api '/connections?limit=5&offset=15' --paginate -o ndjson",
    );
    stall = false;
    const again = await run(shellSplit(detail.replace(/^interrupted; resume with: /, '')).slice(1));
    expect(again.code, again.stderr).toBe(0);
    expect(
      [...lines(res.stdout), ...lines(again.stdout)].map((l) => (JSON.parse(l) as { alias: string }).alias),
    ).toStrictEqual(items.map((c) => c.alias));
  });
});

describe('a null item (#14) and service text on the terminal (#8)', () => {
  it('a null item in a list does not crash any format', async () => {
    handler = () => ({
      body: JSON.stringify({
        total: 3,
        connections: [{ alias: 'a', provider: 'aws' }, null, { alias: 'b', provider: 'gcp' }],
      }),
    });
    for (const format of ['table', 'json', 'ndjson', 'csv']) {
      const res = await run(['connections', 'list', '-o', format]);
      expect(res.code, `${format}: ${res.stderr}`).toBe(0);
      expect(res.stdout).toContain('b');
    }
    const sarif = await run(['findings', 'list', '-o', 'sarif']);
    expect(sarif.code, sarif.stderr).toBe(0);
  });

  it('the "Created connection" notice, object keys and table cells carry no escape or bidi control', async () => {
    const evil = 'prod\u001b]0;owned\u0007\u001b[2J\u202egnp.exe';
    handler = (_url, req) =>
      req.method === 'POST'
        ? {
            status: 201,
            body: JSON.stringify({ alias: evil, provider: 'aws\u009b31m', [`k\u001b[31mey`]: 'v' }),
          }
        : { body: JSON.stringify([{ alias: evil, provider: 'aws' }]) };
    const created = await run(['connections', 'create', '--alias', 'prod', '--provider', 'aws']);
    expect(created.code, created.stderr).toBe(0);
    const listed = await run(['connections', 'list']);
    // eslint-disable-next-line no-control-regex
    const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const text of [created.stdout, created.stderr, listed.stdout, listed.stderr])
      expect(text).not.toMatch(unsafe);
    expect(created.stderr).toContain('✓ Created connection prodgnp.exe (aws)');
    expect(created.stdout).toMatch(/^KEY\s+v$/m);
  });

  it('a 5,000-character field does not make a 5,000-column row; json keeps it whole', async () => {
    const long = 'r'.repeat(5000);
    handler = () => ({ body: JSON.stringify([{ alias: 'a', provider: long }]) });
    const table = await run(['connections', 'list']);
    expect(Math.max(...lines(table.stdout).map((l) => l.length))).toBeLessThanOrEqual(200);
    expect(table.stdout).toContain('…');
    const json = await run(['connections', 'list', '--json']);
    expect(json.stdout).toContain(long);
  });
});
