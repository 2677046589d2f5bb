// What cssctl can check itself is checked before any request (issue 21, cli-contract.md §2): scan statuses,
// the method `api` uses, the output formats a command accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, received } from './harness.js';

let w: World;
beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000 });
  await w.login('acme');
});
afterAll(async () => {
  await w?.close();
});

describe('scans list --status', () => {
  it.each(['done', 'complete', 'bogus'])(
    '--status %s is exit 2 naming the four statuses, with no request',
    async (s) => {
      w.sandbox.clearRequests();
      const res = await w.run(['scans', 'list', '--status', s]);
      expect(res.code).toBe(2);
      expect(errorLine(res)).toBe(
        `error: invalid --status "${s}": use one of queued, running, completed, failed`,
      );
      expect(w.sandbox.requests).toHaveLength(0);
    },
  );

  it('a valid status, in any case, is sent in lower case', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['scans', 'list', '--status', 'Completed', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const [get] = received(w.sandbox, '/scans', 'GET');
    expect(get!.query.status).toBe('completed');
  });
});

describe('api: the method', () => {
  it('-f without -X is a POST with the fields as the body (as gh does)', async () => {
    w.sandbox.clearRequests();
    await w.run(['api', '/findings', '-f', 'severity=critical']);
    const reqs = received(w.sandbox, '/findings');
    expect(reqs.map((r) => r.method)).toEqual(['POST']);
    expect(JSON.parse(reqs[0]!.body)).toEqual({ severity: 'critical' });
  });

  it('--paginate reads with GET and sends -f fields as query parameters', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['api', '--paginate', '/findings', '-f', 'severity=critical']);
    expect(res.code, res.stderr).toBe(0);
    const items = JSON.parse(res.stdout) as { severity: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((f) => f.severity === 'critical')).toBe(true);
    const reqs = received(w.sandbox, '/findings');
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.every((r) => r.method === 'GET' && r.query.severity === 'critical')).toBe(true);
  });

  it.each([
    [['-X', 'POST'], /--paginate reads with GET: it cannot be used with -X POST/],
    [['--input', '-'], /--paginate reads with GET: it cannot send --input/],
  ])('--paginate %j is exit 2 before any request', async (extra, message) => {
    w.sandbox.clearRequests();
    const res = await w.run(['api', '--paginate', '/findings', ...extra], { input: '{}' });
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(message);
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

describe('-o with a format no command has', () => {
  it.each([
    [['connections', 'list'], 'table, wide, json, ndjson, csv'],
    [['scans', 'list'], 'table, wide, json, ndjson, csv'],
    [['findings', 'list'], 'table, wide, json, ndjson, csv, sarif, junit, github, html, ocsf'],
    [['api', '/connections'], 'json, ndjson'],
  ])('%j -o xml names only the formats that command accepts', async (args, formats) => {
    w.sandbox.clearRequests();
    const res = await w.run([...args, '-o', 'xml']);
    expect(res.code).toBe(2);
    expect(errorLine(res)).toBe(`error: invalid output format "xml": use one of ${formats}`);
    expect(w.sandbox.requests).toHaveLength(0);
  });
});
