// A tool's input type is read from its inputSchema (src/mcp/schemas.ts: InputOf), never declared beside it: a
// handler that reads a property its schema does not name, or an optional one as if it were given, does not
// compile. These checks run in `npm run typecheck` (tsc reads test/): each `@ts-expect-error` below fails the
// typecheck if the line under it compiles, which it would if the input type were wider (any, or an index
// signature) than its schema.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Ajv } from 'ajv';
import type { Severity } from '../../src/api/findings-types.js';
import * as S from '../../src/mcp/schemas.js';
import { TOOLS, tool } from '../../src/mcp/tools.js';

const schema = S.objectOf(
  {
    scan_id: S.id(),
    severity: S.severities(),
    status: S.scanStatus,
    limit: S.limit,
    include_ignored: { type: 'boolean' },
  },
  ['scan_id'],
);

describe('MCP tool input types', () => {
  it('are read from the schema: required, defaulted (filled in by the check) and optional properties', () => {
    expectTypeOf<S.InputOf<typeof schema>>().toEqualTypeOf<{
      scan_id: string;
      severity?: Severity[];
      status?: 'queued' | 'running' | 'completed' | 'failed';
      limit: number;
      include_ignored?: boolean;
    }>();
    expectTypeOf<S.InputOf<ReturnType<typeof S.objectOf<Record<never, never>>>>>().toEqualTypeOf<
      Record<never, never>
    >();
  });

  it('a handler reads only what its schema declares', () => {
    const t = tool({
      name: 't',
      title: 'T',
      description: 'd',
      inputSchema: schema,
      outputSchema: {},
      argv: (a) => {
        // @ts-expect-error: `scan` is not a property of the schema (scan_id is)
        void a.scan;
        // @ts-expect-error: severity is optional (no default): it may be left out
        void a.severity.length;
        return ['scans', 'get', a.scan_id, String(a.limit)];
      },
      run: async (_ctx, a) => ({ status: a.status ?? null }),
    });
    expect(t.name).toBe('t');
  });

  it('a required name that is not a property of the schema does not compile', () => {
    // @ts-expect-error: `scan` names no property
    const s = S.objectOf({ scan_id: S.id() }, ['scan']);
    expect(s.required).toStrictEqual(['scan']);
  });

  it('a handler gets the input only once the check of its own schema passed, with its defaults', async () => {
    const t = tool({
      name: 't',
      title: 'T',
      description: 'd',
      inputSchema: schema,
      outputSchema: {},
      argv: (a) => [a.scan_id, String(a.limit)],
      run: async () => ({}),
    });
    const check = new Ajv({ useDefaults: true, strict: true }).compile(t.inputSchema);
    expect(t.accept({ scan_id: 'scn_1' }, check)?.argv).toStrictEqual(['scn_1', '50']);
    expect(t.accept({ scan_id: 'scn_1', scan: 'x' }, check)).toBeUndefined();
    expect(t.accept({}, check)).toBeUndefined();
  });

  it('every tool of the server is made by tool() (its handlers reached through accept)', () => {
    for (const t of TOOLS) expect(typeof t.accept).toBe('function');
  });
});
