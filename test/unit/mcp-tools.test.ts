// The MCP server's tools (cli-contract.md §13), each through its handler with a fake context (FakeContext: the
// product's own context, session and HTTP layers over a scripted service): inputs refused before any request,
// every structuredContent valid against its outputSchema (ajv) with the same JSON as text, errors as results,
// one session and one rate-limit budget for overlapping calls, progress, cancellation, and no secret anywhere.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCalls, invalidInput, redactDeep, type ToolResult } from '../../src/mcp/calls.js';
import type { ProgressParams } from '../../src/mcp/progress.js';
import { TOOLS } from '../../src/mcp/tools.js';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types.js';
import { FAKE_BASE_URL, FakeContext, type FakeContextInit } from '../helpers/fake-context.js';
import type { Reply } from '../helpers/fake-send.js';
import { findingOf, json, scanOf } from '../helpers/verb.js';

const f = findingOf;

const scan = (over: Record<string, unknown> = {}) => scanOf({ created_at: '2026-11-20T10:00:00Z', ...over });

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cssctl-mcp-'));
  temps.push(d);
  return d;
}

const validator = new Ajv({ strict: true, allErrors: true });
const outputSchemas = new Map(TOOLS.map((t) => [t.name, t.outputSchema]));

/** A tool's result: checked as every result must be — valid structuredContent, the same JSON as text. */
function structured(name: string, r: ToolResult): Record<string, unknown> {
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  const data = r.structuredContent!;
  const validate = validator.compile(outputSchemas.get(name)!);
  expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  expect(r.content).toHaveLength(1);
  expect(JSON.parse(r.content[0]!.text)).toStrictEqual(data);
  return data;
}

function errorText(r: ToolResult): string {
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  return r.content[0]!.text;
}

interface World {
  ctx: FakeContext;
  calls: ToolCalls;
  call(
    name: string,
    args?: Record<string, unknown>,
    extra?: Partial<Parameters<ToolCalls['call']>[2]>,
  ): Promise<ToolResult>;
  requests(): string[];
}

function world(
  replies: Reply[] | ((req: HttpRequest) => Promise<HttpResponse>),
  opts: { allowWrite?: boolean } & Omit<FakeContextInit, 'replies' | 'service'> = {},
): World {
  const { allowWrite = false, ...init } = opts;
  const ctx = new FakeContext({
    ...init,
    ...(typeof replies === 'function' ? { service: replies } : { replies }),
    env: { CSSCTL_RETRY_BASE_MS: '1', ...init.env },
  });
  const calls = new ToolCalls(ctx, { allowWrite, Ajv });
  return {
    ctx,
    calls,
    call: (name, args = {}, extra = {}) =>
      calls.call(name, args, { signal: new AbortController().signal, ...extra }),
    requests: () => ctx.requests(),
  };
}

describe('tools/list', () => {
  it('read-only tools only, unless --allow-write: then create_scan and ignore_finding too', () => {
    const names = (allowWrite: boolean) =>
      new ToolCalls(new FakeContext(), { allowWrite, Ajv }).list().map((t) => t.name);
    const readOnly = [
      'auth_status',
      'list_connections',
      'list_scans',
      'get_scan',
      'wait_scan',
      'list_findings',
      'get_finding',
      'summarize_findings',
      'diff_findings',
      'compliance_score',
    ];
    expect(names(false)).toStrictEqual(readOnly);
    expect(names(true)).toStrictEqual([...readOnly, 'create_scan', 'ignore_finding']);
  });

  it('every tool has a title, annotations, an input schema refusing unknown properties, and an output schema', () => {
    const tools = new ToolCalls(new FakeContext(), { allowWrite: true, Ajv }).list();
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\w/);
      expect(t.annotations.title).toBe(t.title);
      expect(t.annotations.openWorldHint).toBe(true);
      expect(t.annotations.readOnlyHint).toBe(!['create_scan', 'ignore_finding'].includes(t.name));
      if (!t.annotations.readOnlyHint) expect(t.annotations.destructiveHint).toBe(false);
      expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.outputSchema).toMatchObject({ type: 'object' });
      // Both compile under ajv's strict mode: no keyword ajv does not know, no type it cannot check.
      validator.compile(t.inputSchema);
      validator.compile(t.outputSchema);
    }
  });

  it('the finding tools say their fields are untrusted data', () => {
    const tools = new ToolCalls(new FakeContext(), { allowWrite: true, Ajv }).list();
    for (const name of ['list_findings', 'get_finding', 'diff_findings', 'summarize_findings'])
      expect(tools.find((t) => t.name === name)!.description, name).toMatch(/untrusted data/);
  });
});

describe('inputs are checked before any request', () => {
  // No reply is scripted: a request would fail the test.
  it.each([
    [
      'list_findings',
      { severity: ['urgent'] },
      'severity[0]: "urgent" is not one of critical, high, medium, low, info',
    ],
    ['list_findings', { limit: 201 }, 'limit: 201 is more than 200, the most allowed'],
    ['list_findings', { limit: 0 }, 'limit: 0 is less than 1, the least allowed'],
    ['list_findings', { severity: ['high', 'high'] }, 'severity names a value twice'],
    [
      'list_findings',
      { page: 2 },
      'unknown property "page": list_findings takes severity, scan_id, connection, status, limit, offset, include_ignored',
    ],
    ['list_scans', { status: 'done' }, 'status: "done" is not one of queued, running, completed, failed'],
    ['list_connections', { limit: '10' }, 'limit: "10" is not a whole number'],
    ['get_scan', {}, 'missing property "scan_id"'],
    ['get_scan', { scan_id: 'a b' }, 'scan_id: "a b" is not a scan id (no spaces, "/", "?" or "#")'],
    ['get_finding', { finding_id: '../x' }, 'finding_id: "../x" is not a finding id'],
    ['wait_scan', { scan_id: 'scn_1', timeout_s: 901 }, 'timeout_s: 901 is more than 900, the most allowed'],
    [
      'wait_scan',
      { scan_id: 'scn_1', fail_on: 'severe' },
      'fail_on: "severe" is not one of critical, high, medium, low, info',
    ],
    ['summarize_findings', { by: 'team' }, 'by: "team" is not one of severity, connection, rule, status'],
    ['diff_findings', { base: 'scn_1', head: 'latest' }, 'head: "latest" is not a scan id'],
    [
      'diff_findings',
      { base: './base.json', head: 'scn_2' },
      'base: "./base.json" is not a scan id or latest',
    ],
    [
      'diff_findings',
      { base: 'scn_1', head: 'scn_2', state: ['gone'] },
      'state[0]: "gone" is not one of new, updated, unchanged, fixed',
    ],
    ['auth_status', { verbose: true }, 'unknown property "verbose": auth_status takes no arguments'],
  ])('%s %j: %s', async (name, args, message) => {
    const w = world([]);
    const text = errorText(await w.call(name, args));
    expect(text).toContain(`error: invalid arguments for ${name}: `);
    expect(text).toContain(message);
    expect(w.requests()).toStrictEqual([]);
  });

  it('a write tool without --allow-write is an error naming the flag, before any request', async () => {
    const w = world([]);
    for (const name of ['create_scan', 'ignore_finding'])
      expect(errorText(await w.call(name, { connection: 'prod' }))).toContain('--allow-write');
    expect(w.requests()).toStrictEqual([]);
  });

  it('a tool that does not exist is a protocol error naming the tools', async () => {
    await expect(world([]).call('delete_everything')).rejects.toThrow(
      /unknown tool "delete_everything": the tools are auth_status, /,
    );
  });

  it('every problem of a call in one line', () => {
    const tool = TOOLS.find((t) => t.name === 'list_findings')!;
    expect(
      invalidInput(tool, [
        {
          keyword: 'enum',
          instancePath: '/severity/0',
          schemaPath: '',
          params: { allowedValues: ['a', 'b'] },
          data: 'x',
        },
        { keyword: 'maximum', instancePath: '/limit', schemaPath: '', params: { limit: 200 }, data: 500 },
      ]),
    ).toBe(
      'invalid arguments for list_findings: severity[0]: "x" is not one of a, b; limit: 500 is more than 200, the most allowed',
    );
  });
});

describe('read-only tools', () => {
  it('auth_status: the session from CSSCTL_TOKEN, no request, never the token', async () => {
    const w = world([], { env: { CSSCTL_TOKEN: 'tok-canary-1234' } });
    const r = await w.call('auth_status');
    const data = structured('auth_status', r);
    expect(data).toMatchObject({
      profile: 'default',
      workspace: 'acme',
      token_source: 'env',
      base_url: FAKE_BASE_URL,
    });
    expect(JSON.stringify(r)).not.toContain('tok-canary-1234');
    expect(w.requests()).toStrictEqual([]);
  });

  it('auth_status when not logged in: the line the CLI prints, with what to do', async () => {
    const w = world([], { env: { CSSCTL_TOKEN: '' } });
    expect(errorText(await w.call('auth_status'))).toBe(
      'error: not logged in (profile default) (run cssctl login)',
    );
  });

  it('list_connections: one page, its total and where the next starts (null on the last page)', async () => {
    const c = (alias: string) => ({ alias, provider: 'aws' });
    const w = world([
      json({ total: 3, connections: [c('a'), c('b')], limit: 2, offset: 0 }),
      json({ total: 3, connections: [c('c')], limit: 2, offset: 2 }),
    ]);
    const first = structured('list_connections', await w.call('list_connections', { limit: 2 }));
    expect(first).toStrictEqual({
      total: 3,
      connections: [c('a'), c('b')],
      limit: 2,
      offset: 0,
      next_offset: 2,
    });
    const last = structured('list_connections', await w.call('list_connections', { limit: 2, offset: 2 }));
    expect(last).toMatchObject({ connections: [c('c')], next_offset: null });
    expect(w.requests()).toStrictEqual(['GET /connections?limit=2', 'GET /connections?limit=2&offset=2']);
  });

  it('a page without a total (a bare array): the next page is offered while pages come full', async () => {
    const c = (alias: string) => ({ alias, provider: 'aws' });
    const w = world([json([c('a'), c('b')]), json([c('c')])]);
    expect(structured('list_connections', await w.call('list_connections', { limit: 2 }))).toMatchObject({
      total: null,
      next_offset: 2,
    });
    expect(
      structured('list_connections', await w.call('list_connections', { limit: 2, offset: 2 })),
    ).toMatchObject({ total: null, next_offset: null });
  });

  it('a service that sends more than the page asked for: at most `limit` items, and the next page from there', async () => {
    const many = Array.from({ length: 300 }, (_, i) => f(`f${i}`, 'low'));
    const w = world([json({ total: 300, findings: many })]);
    const data = structured('list_findings', await w.call('list_findings', { limit: 200 }));
    expect((data.findings as unknown[]).length).toBe(200);
    expect(data.next_offset).toBe(200);
  });

  it('list_scans with a status; the default page is 50', async () => {
    const w = world([json({ total: 1, scans: [scan()], limit: 50, offset: 0 })]);
    const data = structured('list_scans', await w.call('list_scans', { status: 'completed' }));
    expect(data).toMatchObject({ total: 1, limit: 50, offset: 0, next_offset: null });
    expect(w.requests()).toStrictEqual(['GET /scans?limit=50&status=completed']);
  });

  it("compliance_score: the service's object as it is (cssctl compliance -o json); a 404 says there is none", async () => {
    const score = { score: 72.5, threshold: 70, computed_at: '2026-11-26T10:00:00Z', trend: 'down' };
    const w = world([json(score), json({ detail: 'not found' }, 404)]);
    expect(structured('compliance_score', await w.call('compliance_score'))).toStrictEqual(score);
    expect(w.requests()).toStrictEqual(['GET /compliance']);
    expect(errorText(await w.call('compliance_score'))).toMatch(
      /^error: this service does not publish a compliance score/,
    );
  });

  it('get_scan, and a 404 as the CLI says it', async () => {
    const w = world([json(scan()), json({ detail: 'scan "scn_9" not found', code: 'not_found' }, 404)]);
    expect(structured('get_scan', await w.call('get_scan', { scan_id: 'scn_1' }))).toMatchObject({
      scan_id: 'scn_1',
      status: 'completed',
    });
    expect(errorText(await w.call('get_scan', { scan_id: 'scn_9' }))).toBe(
      'error: scan "scn_9" not found (HTTP 404, code not_found)',
    );
  });

  it('wait_scan: polls until final, with progress; the gate counts as the CLI counts', async () => {
    const w = world([
      json(scan({ status: 'running' })),
      json(scan({ status: 'completed' })),
      json({ total: 4, findings: [f('h1', 'high')], limit: 1 }),
    ]);
    const progress: ProgressParams[] = [];
    const r = await w.call(
      'wait_scan',
      { scan_id: 'scn_1', fail_on: 'high' },
      { progress: (p) => progress.push(p) },
    );
    const data = structured('wait_scan', r);
    expect(data).toMatchObject({
      scan_id: 'scn_1',
      status: 'completed',
      gate: { fail_on: 'high', failed: true, counts: { critical: 2, high: 4 } },
    });
    expect(w.requests()).toStrictEqual([
      'GET /scans/scn_1',
      'GET /scans/scn_1',
      'GET /findings?limit=1&severity=high&scan_id=scn_1',
    ]);
    expect(progress.map((p) => p.message)).toStrictEqual([
      'Scan scn_1: unknown (0.0s)',
      'Scan scn_1: running (0.0s)',
      'Scan scn_1: completed (1.0s)',
    ]);
    expect(progress.map((p) => p.progress)).toStrictEqual([1, 2, 3]);
  });

  it('wait_scan without fail_on: the counts the scan gives, and gate.failed false; a failed scan is an answer too', async () => {
    const w = world([json(scan({ status: 'failed', error: 'credentials expired' }))]);
    const data = structured('wait_scan', await w.call('wait_scan', { scan_id: 'scn_1' }));
    expect(data).toMatchObject({
      status: 'failed',
      error: 'credentials expired',
      gate: { fail_on: null, failed: false },
    });
  });

  it('wait_scan past timeout_s: an error saying the scan goes on', async () => {
    const w = world([json(scan({ status: 'running' })), json(scan({ status: 'running' }))]);
    expect(errorText(await w.call('wait_scan', { scan_id: 'scn_1', timeout_s: 2 }))).toBe(
      'error: scan scn_1 is still running after 2s; the scan goes on (call wait_scan again to keep waiting, or run cssctl scans wait scn_1)',
    );
  });

  it('list_findings: fingerprints; the ignore file leaves accepted risks out, counts them, and next_offset counts them as read', async () => {
    const dir = tempDir();
    const file = join(dir, '.cssctl-ignore.yaml');
    writeFileSync(
      file,
      'version: 1\nignore:\n  - rule: Title b\n    reason: accepted (SEC-1)\n    expires: never\n',
    );
    const page = {
      total: 5,
      findings: [f('a', 'high'), f('b', 'high', { rule_id: 'Title b' }), f('c', 'low')],
      limit: 3,
      offset: 0,
    };
    const w = world([json(page), json(page)], { env: { CSSCTL_IGNORE_FILE: file } });
    const data = structured('list_findings', await w.call('list_findings', { limit: 3 }));
    expect((data.findings as { id: string }[]).map((x) => x.id)).toStrictEqual(['a', 'c']);
    expect(data).toMatchObject({ total: 5, ignored: 1, next_offset: 3 });
    for (const x of data.findings as { fingerprint: string }[])
      expect(x.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const kept = structured(
      'list_findings',
      await w.call('list_findings', { limit: 3, include_ignored: true }),
    );
    const b = (kept.findings as { id: string; ignored?: { reason: string } }[]).find((x) => x.id === 'b')!;
    expect(b.ignored).toMatchObject({ reason: 'accepted (SEC-1)', expires: 'never' });
    expect(kept).toMatchObject({ ignored: 1, next_offset: 3 });
  });

  it('list_findings over several severities: most severe first, one query each, the merged total', async () => {
    const w = world([
      json({ total: 1, findings: [f('c1', 'critical')], limit: 2 }),
      json({ total: 5, findings: [f('h1', 'high')], limit: 1 }),
    ]);
    const data = structured(
      'list_findings',
      await w.call('list_findings', { severity: ['high', 'critical'], limit: 2 }),
    );
    expect((data.findings as { id: string }[]).map((x) => x.id)).toStrictEqual(['c1', 'h1']);
    expect(data).toMatchObject({ total: 6, next_offset: 2 });
    expect(w.requests()).toStrictEqual([
      'GET /findings?limit=2&severity=critical',
      'GET /findings?limit=1&severity=high',
    ]);
  });

  it('get_finding: the finding with its fingerprint', async () => {
    const w = world([json(f('fnd_1', 'high'))]);
    const data = structured('get_finding', await w.call('get_finding', { finding_id: 'fnd_1' }));
    expect(data).toMatchObject({ id: 'fnd_1', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('summarize_findings by severity: one request per severity, the object findings summary -o json prints', async () => {
    const totals = [1, 2, 3, 4, 5];
    const w = world(totals.map((t) => json({ total: t, findings: [], limit: 1 })));
    const data = structured('summarize_findings', await w.call('summarize_findings'));
    expect(data).toMatchObject({ by: 'severity', total: 15 });
    expect(w.requests()).toHaveLength(5);
  });

  it('summarize_findings by rule reads every page, with progress, and returns at most 200 groups', async () => {
    const all = Array.from({ length: 1500 }, (_, i) => f(`f${i}`, 'low', { rule_id: `rule-${i % 250}` }));
    const w = world([
      json({ total: 1500, findings: all.slice(0, 1000), limit: 1000, offset: 0 }),
      json({ total: 1500, findings: all.slice(1000), limit: 1000, offset: 1000 }),
    ]);
    const progress: ProgressParams[] = [];
    const data = structured(
      'summarize_findings',
      await w.call('summarize_findings', { by: 'rule' }, { progress: (p) => progress.push(p) }),
    );
    expect(data).toMatchObject({ by: 'rule', total: 1500, groups_total: 250 });
    expect((data.groups as unknown[]).length).toBe(200);
    expect(progress.at(-1)).toMatchObject({ progress: 1500, total: 1500 });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
  });

  it('diff_findings: the counts of every state, one page of the compared findings with their state', async () => {
    const g = (id: string, severity: string, resource: string) =>
      f(id, severity, { resource, title: 'Public bucket' });
    const base = [g('a1', 'high', 'x'), g('a2', 'low', 'y')];
    const head = [g('b1', 'high', 'x'), g('b3', 'high', 'new')];
    const replies = () => [
      json(scan({ scan_id: 'scn_2' })),
      json(scan({ scan_id: 'scn_1' })),
      json({ total: 2, findings: base, limit: 1000, offset: 0 }),
      json({ total: 2, findings: head, limit: 1000, offset: 0 }),
    ];
    const w = world([...replies(), ...replies()]);
    const data = structured(
      'diff_findings',
      await w.call('diff_findings', { base: 'scn_1', head: 'scn_2', limit: 1, offset: 1 }),
    );
    expect(data).toMatchObject({
      counts: { new: 1, updated: 0, unchanged: 1, fixed: 1 },
      base: 'scan scn_1',
      total: 3,
      limit: 1,
      offset: 1,
      next_offset: 2,
      findings: [{ id: 'b3', state: 'new', why: 'new-resource' }],
    });
    // state narrows the page, never the counts
    const narrowed = structured(
      'diff_findings',
      await w.call('diff_findings', { base: 'scn_1', head: 'scn_2', state: ['fixed'] }),
    );
    expect(narrowed).toMatchObject({
      counts: { new: 1, fixed: 1 },
      total: 1,
      next_offset: null,
      findings: [{ id: 'a2', state: 'fixed' }],
    });
  });
});

describe('diff_findings against latest with no earlier scan', () => {
  it('says so: base null, every finding new', async () => {
    const w = world([
      json(scan({ scan_id: 'scn_2' })),
      json({ total: 1, scans: [scan({ scan_id: 'scn_2' })], limit: 1000, offset: 0 }),
      json({ total: 2, findings: [f('b1', 'high'), f('b2', 'low')], limit: 1000, offset: 0 }),
    ]);
    const data = structured(
      'diff_findings',
      await w.call('diff_findings', { base: 'latest', head: 'scn_2' }),
    );
    expect(data).toMatchObject({
      base: null,
      counts: { new: 2, updated: 0, unchanged: 0, fixed: 0 },
      total: 2,
    });
  });
});

describe('write tools (--allow-write)', () => {
  it('create_scan: the new scan', async () => {
    const w = world([json(scan({ scan_id: 'scn_new', status: 'queued' }), 201)], { allowWrite: true });
    expect(structured('create_scan', await w.call('create_scan', { connection: 'prod' }))).toMatchObject({
      scan_id: 'scn_new',
      status: 'queued',
    });
    expect(w.requests()).toStrictEqual(['POST /scans']);
    expect(JSON.parse(String(w.ctx.sent[0]!.req.body))).toStrictEqual({ connection_alias: 'prod' });
  });

  it('create_scan: a 409 is a result with the CLI line, and the server goes on', async () => {
    const w = world(
      [json({ detail: 'a scan of prod is already running', code: 'conflict' }, 409), json(scan())],
      { allowWrite: true },
    );
    expect(errorText(await w.call('create_scan', { connection: 'prod' }))).toBe(
      'error: a scan of prod is already running (HTTP 409, code conflict)',
    );
    structured('get_scan', await w.call('get_scan', { scan_id: 'scn_1' }));
  });

  it('ignore_finding appends to the ignore file as findings ignore does, once', async () => {
    const dir = tempDir();
    const file = join(dir, '.cssctl-ignore.yaml');
    writeFileSync(file, '# ours\nversion: 1\nignore: []\n');
    const w = world([json(f('fnd_1', 'high')), json(f('fnd_1', 'high'))], {
      allowWrite: true,
      env: { CSSCTL_IGNORE_FILE: file },
    });
    const first = structured(
      'ignore_finding',
      await w.call('ignore_finding', {
        finding_id: 'fnd_1',
        reason: 'public by design',
        expires: '2099-01-01',
      }),
    );
    expect(first).toMatchObject({ expires: '2099-01-01', already_ignored: false });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# ours\n')).toBe(true);
    expect(text).toContain(`fingerprint: ${(first.added as string[])[0]}`);
    expect(text).toContain('reason: public by design');
    const again = structured(
      'ignore_finding',
      await w.call('ignore_finding', { finding_id: 'fnd_1', reason: 'again' }),
    );
    expect(again).toMatchObject({ added: [], already_ignored: true });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('errors are results; the server goes on', () => {
  it.each([
    [
      403,
      { detail: 'not a member of workspace acme' },
      'error: not a member of workspace acme (HTTP 403) (check the workspace (-w) and your role in it)',
    ],
    [
      401,
      { detail: 'token expired' },
      'error: CSSCTL_TOKEN was refused: token expired (set a valid CSSCTL_TOKEN, or unset it and run cssctl login)',
    ],
    [500, { detail: 'boom' }, 'error: boom (HTTP 500)'],
  ])('HTTP %i', async (status, body, line) => {
    const w = world(Array.from({ length: 3 }, () => json(body, status)).slice(0, status === 500 ? 3 : 1));
    expect(errorText(await w.call('list_scans'))).toBe(line);
  });

  it('rate limited past --max-wait: the line says what to do', async () => {
    const reset = Math.floor(Date.UTC(2026, 10, 22, 12, 0, 0) / 1000) + 400;
    const w = world([
      {
        status: 429,
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
          'x-ratelimit-limit': '120',
        },
        body: '{}',
      },
    ]);
    expect(errorText(await w.call('list_scans'))).toMatch(
      /^error: rate limited: the service asks to wait 40\ds, past --max-wait 300s \(raise --max-wait or try again later\)$/,
    );
  });

  it('the service unreachable after its retries', async () => {
    const { NetworkError } = await import('../../src/core/errors.js');
    const w = world(
      Array.from({ length: 3 }, () => new NetworkError('connection reset by 127.0.0.1:1', 'reset')),
    );
    expect(errorText(await w.call('list_scans'))).toBe('error: connection reset by 127.0.0.1:1');
  });
});

describe('overlapping calls', () => {
  it('share one session: an expired token is refreshed once for two calls', async () => {
    const dir = tempDir();
    const past = Date.UTC(2026, 10, 22, 11, 0, 0);
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({
        version: 1,
        profiles: {
          default: {
            access_token: 'old-access',
            refresh_token: 'old-refresh',
            expires_at: past,
            base_url: FAKE_BASE_URL,
          },
        },
      }),
      { mode: 0o600 },
    );
    let refreshes = 0;
    const service = async (req: HttpRequest): Promise<HttpResponse> => {
      if (req.url.endsWith('/auth/refresh')) {
        refreshes++;
        await new Promise((r) => setTimeout(r, 20));
        return {
          status: 200,
          headers: {},
          body: JSON.stringify({
            access_token: 'new-access',
            refresh_token: 'new-refresh',
            expires_in: 3600,
          }),
        };
      }
      expect(req.headers.authorization).toBe('Bearer new-access');
      return { status: 200, headers: {}, body: JSON.stringify({ total: 0, scans: [] }) };
    };
    const w = world(service, { env: { CSSCTL_TOKEN: '', CSSCTL_CONFIG_DIR: dir } });
    const [a, b] = await Promise.all([w.call('list_scans'), w.call('list_connections')]);
    structured('list_scans', a);
    expect(b.isError).toBeFalsy();
    expect(refreshes).toBe(1);
    // One session: the second call joined the refresh under way, rather than queueing on the profile's lock as
    // another cssctl process would.
    expect(w.ctx.stderr.text).not.toContain('waiting for another cssctl process');
  });

  it('share one rate-limit budget: a window one call spent makes the next call wait for it', async () => {
    const reset = Math.floor(Date.UTC(2026, 10, 22, 12, 0, 0) / 1000) + 30;
    const w = world([
      {
        status: 200,
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
          'x-ratelimit-limit': '120',
        },
        body: JSON.stringify({ total: 0, scans: [] }),
      },
      json({ total: 0, connections: [] }),
    ]);
    structured('list_scans', await w.call('list_scans'));
    expect(w.ctx.clock.sleeps).toStrictEqual([]);
    structured('list_connections', await w.call('list_connections'));
    // The second call waited for the window the first one saw spent, instead of meeting a 429.
    expect(w.ctx.clock.totalSlept).toBeGreaterThanOrEqual(30_000);
    expect(w.ctx.sent[1]!.at - w.ctx.sent[0]!.at).toBeGreaterThanOrEqual(30_000);
  });

  it('share one rate-limit budget: overlapping calls never take the same last request of a window', async () => {
    const reset = Math.floor(Date.UTC(2026, 10, 22, 12, 0, 0) / 1000) + 30;
    const left = (n: number, body: object) => ({
      status: 200,
      headers: {
        'x-ratelimit-remaining': String(n),
        'x-ratelimit-reset': String(reset),
        'x-ratelimit-limit': '120',
      },
      body: JSON.stringify(body),
    });
    const w = world([
      left(1, { total: 0, scans: [] }),
      left(0, { total: 0, connections: [] }),
      left(119, { total: 0, connections: [] }),
    ]);
    structured('list_scans', await w.call('list_scans'));
    const [b, c] = await Promise.all([w.call('list_connections'), w.call('list_connections')]);
    expect(b.isError || c.isError).toBeFalsy();
    // One request was left in the window: one call took it, the other waited for the window to turn over.
    const at = w.ctx.sent.map((s) => s.at - w.ctx.sent[0]!.at);
    expect(at[1]).toBe(0);
    expect(at[2]).toBeGreaterThanOrEqual(30_000);
  });

  it('each call has its own --max-wait: waits of earlier calls do not count against a later one', async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
    const spent = (s: number) => ({
      status: 200,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(now + s),
        'x-ratelimit-limit': '120',
      },
      body: JSON.stringify({ total: 0, scans: [] }),
    });
    const w = world([spent(200), spent(400), spent(600), json({ total: 0, scans: [] })], {
      globals: { maxWait: '250' },
    });
    // Each call waits ~200 s for the window the one before saw spent: within its own 250 s, never 400 s in all.
    for (let i = 0; i < 4; i++) structured('list_scans', await w.call('list_scans'));
  });
});

describe('cancellation', () => {
  it('a cancelled call sends nothing more and gives no result', async () => {
    const controller = new AbortController();
    let polls = 0;
    const w = world(async () => {
      polls++;
      if (polls === 2) controller.abort();
      return { status: 200, headers: {}, body: JSON.stringify(scan({ status: 'running' })) };
    });
    await expect(w.call('wait_scan', { scan_id: 'scn_1' }, { signal: controller.signal })).rejects.toThrow(
      /interrupted/,
    );
    expect(polls).toBe(2);
  });
});

describe('secrets', () => {
  const CANARIES = {
    CSSCTL_TOKEN: 'canary-access-token-5f1d',
    CSSCTL_PASSWORD: 'canary-password-9a7c',
    CSSCTL_WEBHOOK_SECRET: 'canary-webhook-secret-3b2e',
  };
  const every = Object.values(CANARIES);
  /** A hostile service: every answer carries the request's token and the other secrets, in data and in errors. */
  const echo =
    (status: number) =>
    async (req: HttpRequest): Promise<HttpResponse> => {
      const said = `${req.headers.authorization ?? ''} ${every.join(' ')}`;
      const item = {
        id: 'fnd_1',
        scan_id: 'scn_1',
        status: 'completed',
        severity: 'high',
        title: said,
        resource: said,
        connection_alias: said,
        [said]: said,
        alias: said,
        provider: said,
      };
      const body =
        status >= 400
          ? { detail: said, code: said, field: said }
          : req.url.includes('/findings/') || /\/scans\/[^/?]+$/.test(new URL(req.url).pathname)
            ? item
            : { total: 1, findings: [item], scans: [item], connections: [item] };
      return { status, headers: { 'x-request-id': said }, body: JSON.stringify(body) };
    };
  const ARGS: Record<string, Record<string, unknown>> = {
    auth_status: {},
    list_connections: {},
    list_scans: {},
    get_scan: { scan_id: 'scn_1' },
    wait_scan: { scan_id: 'scn_1', timeout_s: 1, fail_on: 'high' },
    list_findings: { severity: ['high'] },
    get_finding: { finding_id: 'fnd_1' },
    summarize_findings: { by: 'rule' },
    diff_findings: { base: 'scn_1', head: 'scn_1' },
    create_scan: { connection: 'prod' },
  };

  it.each([200, 400, 403, 404, 409, 500])(
    'no token, password or webhook secret in any result or line (HTTP %i)',
    async (status) => {
      for (const [name, args] of Object.entries(ARGS)) {
        const w = world(echo(status), { allowWrite: true, env: { ...CANARIES }, globals: { verbose: true } });
        const r = await w.call(name, args);
        const seen = JSON.stringify(r) + w.ctx.stderr.text + w.ctx.stdout.text;
        for (const c of every) expect(seen, `${name}: ${seen.slice(0, 300)}`).not.toContain(c);
        if (status >= 400 && name !== 'auth_status') expect(r.isError, name).toBe(true);
      }
    },
  );
});

describe('redactDeep', () => {
  it('masks secrets in every string and key, leaving the rest', () => {
    const r = (t: string) => t.split('s3cr3t').join('[REDACTED]');
    expect(redactDeep({ a: ['x s3cr3t', 1, null, { s3cr3t: true }] }, r)).toStrictEqual({
      a: ['x [REDACTED]', 1, null, { '[REDACTED]': true }],
    });
  });
});
