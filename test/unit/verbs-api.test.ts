// `cssctl api` through its run function: the request it makes (method, path, query, body), what it prints,
// --paginate, and the input it refuses before any request.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { api, type ApiOptions } from '../../src/commands/api/api.js';
import { bodyOf, json, verbWorld } from '../helpers/verb.js';

const dir = mkdtempSync(join(tmpdir(), 'cssctl-api-verb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opts = (over: Partial<ApiOptions> = {}): ApiOptions => ({ field: [], ...over });

describe('api', () => {
  it('GET by default, under /api/v1, with the token and workspace; the answer printed as pretty JSON', async () => {
    const answer = { connections: [{ alias: 'prod' }], total: 1 };
    const w = verbWorld([json(answer)]);
    expect(await w.run(api, opts(), ['/connections'])).toBe(0);
    expect(w.sent[0]!.req.method).toBe('GET');
    expect(w.sent[0]!.req.url).toBe('http://127.0.0.1:1/api/v1/connections');
    expect(w.sent[0]!.req.headers).toMatchObject({
      authorization: 'Bearer test-token',
      'x-tenant-slug': 'acme',
      accept: 'application/json',
    });
    expect(w.sent[0]!.req.body).toBeUndefined();
    expect(w.stdout.text).toBe(`${JSON.stringify(answer, null, 2)}\n`);
    expect(w.stderr.text).toBe('');
  });

  it('a query in the path is kept, repeated keys too; /api/v1 given by the user is not doubled; -o ndjson is one line', async () => {
    const w = verbWorld([json({ a: 1, b: [2] })], { output: 'ndjson' });
    expect(await w.run(api, opts(), ['api/v1/findings?severity=high&severity=low&limit=5'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings?severity=high&severity=low&limit=5']);
    expect(w.stdout.text).toBe('{"a":1,"b":[2]}\n');
  });

  it('-f fields make a POST with a JSON body (key:=<json> keeps its type); -X PATCH says otherwise', async () => {
    const w = verbWorld([json({ id: 'w1' }, 201), json({ ok: true })]);
    expect(
      await w.run(api, opts({ field: ['url=https://h.example', 'n:=5', 'on:=true'] }), ['/webhooks']),
    ).toBe(0);
    expect(w.sent[0]!.req.method).toBe('POST');
    expect(w.sent[0]!.req.headers['content-type']).toBe('application/json');
    expect(w.sent[0]!.req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ url: 'https://h.example', n: 5, on: true });
    expect(await w.run(api, opts({ method: 'patch', field: ['a=b'] }), ['/webhooks/w1'])).toBe(0);
    expect(w.sent[1]!.req.method).toBe('PATCH');
    expect(bodyOf(w.sent[1]!)).toStrictEqual({ a: 'b' });
  });

  it('-X GET with -f: the fields go in the query', async () => {
    const w = verbWorld([json([])]);
    const field = ['severity=high', 'limit:=2', 'ids:=["a","b"]'];
    expect(await w.run(api, opts({ method: 'GET', field }), ['/findings'])).toBe(0);
    // A value that is not a string is sent as its JSON text.
    expect(new URL(w.sent[0]!.req.url).searchParams.getAll('ids')).toStrictEqual(['["a","b"]']);
    expect(w.requests()[0]).toMatch(/^GET \/findings\?severity=high&limit=2&ids=/);
    expect(w.sent[0]!.req.body).toBeUndefined();
  });

  it('--input <file> is the body (a byte-order mark dropped); --input - reads stdin; both POST', async () => {
    const file = join(dir, 'body.json');
    writeFileSync(file, '\uFEFF{"alias":"prod","provider":"aws"}');
    const w = verbWorld([json({ ok: 1 }, 201)]);
    expect(await w.run(api, opts({ input: file }), ['/connections'])).toBe(0);
    expect(w.sent[0]!.req.method).toBe('POST');
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ alias: 'prod', provider: 'aws' });
    const stdin = new PassThrough();
    stdin.end('[1,2]');
    const piped = verbWorld([json({ ok: 1 })], { stdin });
    expect(await piped.run(api, opts({ input: '-', method: 'PUT' }), ['/things/1'])).toBe(0);
    expect(piped.sent[0]!.req.method).toBe('PUT');
    expect(bodyOf(piped.sent[0]!)).toStrictEqual([1, 2]);
  });

  it('an empty answer (204) prints nothing', async () => {
    const w = verbWorld([{ status: 204, body: '' }]);
    expect(await w.run(api, opts({ method: 'DELETE' }), ['/webhooks/w1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['DELETE /webhooks/w1']);
    expect(w.stdout.text).toBe('');
  });

  it.each<[string, Partial<ApiOptions>, string, string]>([
    ['a full URL', {}, 'https://evil.example/api/v1/x', 'give a path such as /connections, not a full URL'],
    ['an empty path', {}, ' ', 'a path is required, e.g. /connections'],
    ['a .. segment', {}, '/findings/../../admin', 'the path must not contain ".." segments'],
    ['an encoded .. segment', {}, '/findings/%2e%2e/admin', 'the path must not contain ".." segments'],
    [
      'an unknown method',
      { method: 'TRACE' },
      '/x',
      'unsupported method "TRACE": use GET, POST, PUT, PATCH, DELETE, HEAD',
    ],
    [
      '--paginate with -X POST',
      { paginate: true, method: 'POST' },
      '/x',
      '--paginate reads with GET: it cannot be used with -X POST',
    ],
    ['--input with GET', { input: '-', method: 'GET' }, '/x', '--input cannot be used with GET'],
    ['-f and --input', { input: '-', field: ['a=b'] }, '/x', 'use either -f fields or --input, not both'],
    ['a bad -f', { field: ['novalue'] }, '/x', 'invalid -f "novalue": expected key=value or key:=<json>'],
  ])('%s: exit 2 before any request', async (_, o, path, message) => {
    const w = verbWorld([]);
    expect(await w.run(api, opts(o), [path])).toBe(2);
    expect(w.stderr.text).toBe(`error: ${message}\n`);
    expect(w.sent).toHaveLength(0);
  });

  it('--input that is not JSON: exit 2 naming it, before any request', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{oops');
    const w = verbWorld([]);
    expect(await w.run(api, opts({ input: file }), ['/x'])).toBe(2);
    expect(w.stderr.text).toBe(`error: --input ${file} is not valid JSON\n`);
    expect(w.sent).toHaveLength(0);
  });

  it.each([
    [404, 5],
    [409, 6],
    [422, 7],
  ])('the service answers %i: exit %i with its detail, nothing on stdout', async (status, code) => {
    const w = verbWorld([json({ detail: `no (${status})`, code: 'x' }, status)]);
    expect(await w.run(api, opts(), ['/scans/nope'])).toBe(code);
    expect(w.stderr.text).toContain(`no (${status})`);
    expect(w.stdout.text).toBe('');
  });

  it('an answer that is not JSON: exit 1 saying so', async () => {
    const w = verbWorld([{ status: 200, body: '<html>' }]);
    expect(await w.run(api, opts(), ['/x'])).toBe(1);
    expect(w.stderr.text).toBe('error: the service answered HTTP 200 with a body that is not JSON\n');
  });
});

describe('api --paginate', () => {
  it('every page read with GET, -f fields as the query; the items of all pages as one array', async () => {
    const w = verbWorld([
      json({ total: 3, findings: [{ id: 'a' }, { id: 'b' }], limit: 2, offset: 0 }),
      json({ total: 3, findings: [{ id: 'c' }], limit: 2, offset: 2 }),
    ]);
    expect(await w.run(api, opts({ paginate: true, field: ['severity=high'] }), ['/findings?limit=2'])).toBe(
      0,
    );
    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=2&severity=high&offset=0',
      'GET /findings?limit=2&severity=high&offset=2',
    ]);
    expect(JSON.parse(w.stdout.text)).toStrictEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('-o ndjson: one item per line; an item already printed is dropped with a warning', async () => {
    const w = verbWorld(
      [
        json({ total: 3, findings: [{ id: 'a' }, { id: 'b' }], limit: 2, offset: 0 }),
        json({ total: 3, findings: [{ id: 'b' }, { id: 'c' }], limit: 2, offset: 2 }),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(api, opts({ paginate: true }), ['/findings?limit=2'])).toBe(0);
    expect(w.stdout.text).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
    expect(w.stderr.text).toBe(
      'warning: dropped 1 item(s) already printed (the list changed while paging)\n',
    );
  });

  it('an answer that is one object, not a list, is printed as it is', async () => {
    const w = verbWorld([json({ scan_id: 'scn_1', status: 'completed' })]);
    expect(await w.run(api, opts({ paginate: true }), ['/scans/scn_1'])).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1?limit=1000&offset=0']);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({ scan_id: 'scn_1', status: 'completed' });
  });

  it('a total that changes between pages is a warning, and the walk goes on to the new total', async () => {
    const w = verbWorld(
      [
        json({ total: 3, findings: [{ id: 'a' }, { id: 'b' }], limit: 2, offset: 0 }),
        json({ total: 4, findings: [{ id: 'c' }, { id: 'd' }], limit: 2, offset: 2 }),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(api, opts({ paginate: true }), ['/findings?limit=2'])).toBe(0);
    expect(w.stderr.text).toBe(
      'warning: the total changed from 3 to 4 while paging; the list may be incomplete\n',
    );
    expect(w.stdout.text).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n{"id":"d"}\n');
  });
});
