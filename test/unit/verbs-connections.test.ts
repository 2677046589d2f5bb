// connections list and connections create through their run functions, with a scripted service.
import { describe, expect, it } from 'vitest';
import { create } from '../../src/commands/connections/create.js';
import { list } from '../../src/commands/connections/list.js';
import { bodyOf, failureOf, json, verbWorld } from '../helpers/verb.js';

const conn = (alias: string, over: Record<string, unknown> = {}) => ({
  alias,
  provider: 'aws',
  status: 'active',
  id: `con_${alias}`,
  ...over,
});

describe('connections list', () => {
  it('one page as a table, with a hint on stderr when there are more', async () => {
    const w = verbWorld([
      json({ total: 5, connections: [conn('prod'), conn('stage')], limit: 2, offset: 0 }),
    ]);
    expect(await w.run(list, { limit: 2 })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /connections?limit=2']);
    const req = w.sent[0]!.req;
    expect(req.headers.authorization).toBe('Bearer test-token');
    expect(req.headers['x-tenant-slug']).toBe('acme');
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ALIAS  PROVIDER  STATUS  ID',
      'prod   aws       active  con_prod',
      'stage  aws       active  con_stage',
    ]);
    expect(w.stderr.text).toBe('Showing 1–2 of 5 — use --all or --offset 2\n');
  });

  it('--offset is sent; -o json is the array of items, with no hint', async () => {
    const w = verbWorld([json({ total: 5, connections: [conn('c')], limit: 2, offset: 4 })], {
      output: 'json',
    });
    expect(await w.run(list, { limit: 2, offset: 4 })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /connections?limit=2&offset=4']);
    expect(JSON.parse(w.stdout.text)).toStrictEqual([conn('c')]);
    expect(w.stderr.text).toBe('');
  });

  it('a bare array is read as the list (ndjson: one per line; csv: a header and a row each)', async () => {
    const nd = verbWorld([json([conn('a'), conn('b')])], { output: 'ndjson' });
    expect(await nd.run(list, {})).toBe(0);
    expect(nd.requests()).toStrictEqual(['GET /connections']);
    expect(nd.stdout.text).toBe(`${JSON.stringify(conn('a'))}\n${JSON.stringify(conn('b'))}\n`);
    const csv = verbWorld([json([conn('a', { provider: '=cmd()' })])], { output: 'csv' });
    expect(await csv.run(list, {})).toBe(0);
    const [header, row] = csv.stdout.text.trimEnd().split('\n');
    expect(header!.split(',').slice(0, 4)).toStrictEqual(['alias', 'provider', 'status', 'id']);
    expect(row).toBe("a,'=cmd(),active,con_a,");
  });

  it('--all follows every page until total, streaming; each item once', async () => {
    const w = verbWorld(
      [
        json({ total: 3, connections: [conn('a'), conn('b')], limit: 2, offset: 0 }),
        json({ total: 3, connections: [conn('c')], limit: 2, offset: 2 }),
      ],
      { output: 'json' },
    );
    expect(await w.run(list, { all: true, limit: 2 })).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /connections?limit=2', 'GET /connections?limit=2&offset=2']);
    expect((JSON.parse(w.stdout.text) as { alias: string }[]).map((c) => c.alias)).toStrictEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('--all drops an item already printed, with a warning (a page that moved under it)', async () => {
    const w = verbWorld(
      [
        json({ total: 3, connections: [conn('a'), conn('b')], limit: 2, offset: 0 }),
        json({ total: 3, connections: [conn('b'), conn('c')], limit: 2, offset: 2 }),
      ],
      { output: 'ndjson' },
    );
    expect(await w.run(list, { all: true, limit: 2 })).toBe(0);
    expect(
      w.stdout.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { alias: string }).alias),
    ).toStrictEqual(['a', 'b', 'c']);
    expect(w.stderr.text).toBe(
      'warning: dropped 1 item(s) already printed (the list changed while paging)\n',
    );
  });

  it('--all over bare arrays: page by page until a page comes back empty', async () => {
    const w = verbWorld([json([conn('a'), conn('b')]), json([conn('c')]), json([])], { output: 'ndjson' });
    expect(await w.run(list, { all: true })).toBe(0);
    expect(w.requests()).toStrictEqual([
      'GET /connections?limit=1000',
      'GET /connections?limit=1000&offset=2',
      'GET /connections?limit=1000&offset=3',
    ]);
    expect(w.stdout.text.trimEnd().split('\n')).toHaveLength(3);
  });

  it('--columns: those columns in that order; an unknown one is exit 2 after the first page, nothing written', async () => {
    const w = verbWorld([json([conn('a')])]);
    expect(await w.run(list, { columns: 'id,alias' })).toBe(0);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual(['ID     ALIAS', 'con_a  a']);
    // Any field the items carry is a column (cli-contract.md §14): names are checked against the first page.
    const bad = verbWorld([json([conn('a')])]);
    expect(await bad.run(list, { columns: 'alais' })).toBe(2);
    expect(bad.stderr.text).toMatch(/alais.*did you mean "?alias"?/);
    expect(bad.sent).toHaveLength(1);
    expect(bad.stdout.text).toBe('');
  });

  it('an answer that is neither a list nor a page: exit 1, never an empty list', async () => {
    const w = verbWorld([json({ message: 'hello' })], { output: 'json' });
    expect(await w.run(list, {})).toBe(1);
    expect(w.stdout.text).toBe('');
  });

  it.each([
    [401, 3, 'refused with 401'],
    [403, 4, 'refused with 403'],
    [404, 5, 'refused with 404'],
    [429, 8, 'rate limited'],
  ])('the service answers %i: exit %i, saying why', async (status, code, why) => {
    const w = verbWorld([json({ detail: `refused with ${status}`, code: 'nope' }, status)], {
      globals: { maxWait: '0' },
    });
    expect(await w.run(list, {})).toBe(code);
    expect(w.stderr.text).toContain(why);
    expect(w.stdout.text).toBe('');
  });

  it('500 is retried (3 tries in all, waiting 2 s then 4 s), then exit 1', async () => {
    const err = json({ detail: 'boom' }, 500);
    const w = verbWorld([err, err, err]);
    expect(await w.run(list, {})).toBe(1);
    expect(w.sent).toHaveLength(3);
    expect(w.sent[1]!.at - w.sent[0]!.at).toBeGreaterThanOrEqual(2000);
    expect(w.sent[2]!.at - w.sent[1]!.at).toBeGreaterThanOrEqual(4000);
  });
});

describe('connections create', () => {
  it('POST /connections {alias, provider, ...--set}; a success line on stderr, the connection on stdout', async () => {
    const created = { alias: 'prod', provider: 'aws', id: 'con_1', region: 'eu-west-1', account: '012345' };
    const w = verbWorld([json(created, 201)]);
    const code = await w.run(create, {
      alias: ' prod ',
      provider: 'aws',
      set: ['region=eu-west-1', 'account=012345', 'tags:=["a",1]'],
    });
    expect(code, w.stderr.text).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /connections']);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({
      alias: 'prod',
      provider: 'aws',
      region: 'eu-west-1',
      account: '012345',
      tags: ['a', 1],
    });
    const headers = w.sent[0]!.req.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.authorization).toBe('Bearer test-token');
    expect(w.stderr.text).toBe('✓ Created connection prod (aws)\n');
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ALIAS     prod',
      'PROVIDER  aws',
      'ID        con_1',
      'REGION    eu-west-1',
      'ACCOUNT   012345',
    ]);
  });

  it('-o json: the service’s answer as it is; an empty answer: what was sent', async () => {
    const w = verbWorld([json({ alias: 'prod', provider: 'aws', id: 'con_1' }, 201)], { output: 'json' });
    expect(await w.run(create, { alias: 'prod', provider: 'aws', set: [] })).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({ alias: 'prod', provider: 'aws', id: 'con_1' });
    const empty = verbWorld([{ status: 201, body: '' }], { output: 'json' });
    expect(await empty.run(create, { alias: 'prod', provider: 'gcp', set: [] })).toBe(0);
    expect(JSON.parse(empty.stdout.text)).toStrictEqual({ alias: 'prod', provider: 'gcp' });
    expect(empty.stderr.text).toBe('✓ Created connection prod (gcp)\n');
  });

  it.each([[[1, 2]], ['created'], [null]])(
    'an answer that is not an object (%j): the connection as asked for is shown',
    async (answer) => {
      const w = verbWorld([json(answer, 201)], { output: 'json' });
      expect(await w.run(create, { alias: 'prod', provider: 'aws', set: ['region=eu'] })).toBe(0);
      expect(JSON.parse(w.stdout.text)).toStrictEqual({ alias: 'prod', provider: 'aws' });
      expect(w.stderr.text).toBe('✓ Created connection prod (aws)\n');
    },
  );

  it('the success line names the connection as the service created it', async () => {
    const w = verbWorld([json({ alias: 'prod-1', provider: 'aws' }, 201)], { output: 'json' });
    expect(await w.run(create, { alias: 'Prod 1', provider: 'AWS', set: [] })).toBe(0);
    expect(w.stderr.text).toBe('✓ Created connection prod-1 (aws)\n');
  });

  it.each([
    [{ alias: '  ', provider: 'aws', set: [] }, '--alias must not be empty'],
    [{ alias: 'a', provider: '', set: [] }, '--provider must not be empty'],
    [{ alias: 'a', provider: 'aws', set: ['alias=b'] }, 'use --alias, not --set alias=…'],
    [{ alias: 'a', provider: 'aws', set: ['provider=gcp'] }, 'use --provider, not --set provider=…'],
    [
      { alias: 'a', provider: 'aws', set: ['region'] },
      'invalid --set "region": expected key=value or key:=<json>',
    ],
    [{ alias: 'a', provider: 'aws', set: ['n:={'] }, 'invalid --set "n:={": the value after := must be JSON'],
    [{ alias: 'a', provider: 'aws', set: ['r=1', 'r=2'] }, '--set names "r" twice'],
  ])('%j: exit 2 before any request', async (opts, message) => {
    const w = verbWorld([]);
    expect(await w.run(create, opts)).toBe(2);
    expect(w.stderr.text).toBe(`error: ${message}\n`);
    expect(w.sent).toHaveLength(0);
  });

  it('a duplicate alias (409): exit 6 with the service’s detail, nothing on stdout', async () => {
    const w = verbWorld([json({ detail: 'connection alias "prod" already exists', code: 'conflict' }, 409)]);
    expect(await w.run(create, { alias: 'prod', provider: 'aws', set: [] })).toBe(6);
    expect(w.stderr.text).toContain('connection alias "prod" already exists');
    expect(w.stderr.text).not.toContain('✓');
    expect(w.stdout.text).toBe('');
    expect(w.sent).toHaveLength(1); // a 409 is never retried
  });

  it('rejected (422): exit 7 naming the field', async () => {
    const w = verbWorld([json({ detail: 'unknown provider', code: 'invalid', field: 'provider' }, 422)]);
    const err = await failureOf(w.ctx, create, { alias: 'prod', provider: 'ibm', set: [] });
    expect(err?.exit).toBe(7);
    expect(err?.message).toContain('unknown provider');
    expect(err?.message).toContain('provider');
  });
});
