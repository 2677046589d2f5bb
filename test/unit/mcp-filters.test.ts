// The MCP tools' `connection` and `status` (cli-contract.md §15): the same filter the CLI applies while it pages,
// through the tools' handlers on a fake context.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ToolCalls, type ToolResult } from '../../src/mcp/calls.js';
import { FakeContext } from '../helpers/fake-context.js';
import type { Reply } from '../helpers/fake-send.js';
import { findingOf, json, scanOf } from '../helpers/verb.js';

function world(replies: Reply[]) {
  const ctx = new FakeContext({ replies, env: { CSSCTL_RETRY_BASE_MS: '1', CSSCTL_IGNORE_FILE: '' } });
  const calls = new ToolCalls(ctx, { allowWrite: false, Ajv });
  return {
    call: (name: string, args: Record<string, unknown>) =>
      calls.call(name, args, { signal: new AbortController().signal }),
    requests: () => ctx.requests(),
  };
}

const data = (r: ToolResult) => {
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};

const f = (id: string, connection: string, status = 'open') =>
  findingOf(id, 'high', { connection_alias: connection, status });

describe('MCP tools: connection and status', () => {
  it('list_findings: one page of matches, next_offset after the last one shown, total null (not the matches)', async () => {
    const w = world([
      json({ total: 6, findings: [f('a', 'dev'), f('b', 'prod'), f('c', 'prod'), f('d', 'prod')], limit: 2 }),
    ]);
    const out = data(await w.call('list_findings', { connection: ['PROD'], limit: 2 }));
    expect((out.findings as { id: string }[]).map((x) => x.id)).toStrictEqual(['b', 'c']);
    expect(out).toMatchObject({ total: null, offset: 0, next_offset: 3 });
    expect(w.requests()).toStrictEqual(['GET /findings?limit=2']);
  });

  it('summarize_findings and list_scans take them too', async () => {
    const w = world([
      json({ total: 2, findings: [f('a', 'prod', 'open'), f('b', 'prod', 'resolved')], limit: 1000 }),
      json({
        total: 2,
        scans: [scanOf({ scan_id: 's1' }), scanOf({ scan_id: 's2', connection_alias: 'dev' })],
      }),
    ]);
    const sum = data(await w.call('summarize_findings', { status: ['resolved'] }));
    expect(sum.total).toBe(1);
    const scans = data(await w.call('list_scans', { connection: ['dev'] }));
    expect((scans.scans as { scan_id: string }[]).map((s) => s.scan_id)).toStrictEqual(['s2']);
  });

  it('an empty alias or status is refused before any request', async () => {
    const w = world([]);
    const r = await w.call('list_findings', { connection: [''] });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/connection\[0\]/);
    const r2 = await w.call('diff_findings', { base: 'scn_1', head: 'scn_2', status: ['  '] });
    expect(r2.isError).toBe(true);
    expect(w.requests()).toStrictEqual([]);
  });
});
