// The MCP tools' input schemas, as a client reads them from tools/list, refuse what the contract refuses before
// any verb runs: an id that is `.` or `..` (it would name another path of the service's URL) and an empty list of
// severities (issue 35: both survived every unit test, because the verbs check again). Each schema is checked on
// its own with ajv, as the server validates a call's arguments.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SEVERITIES } from '../../src/api/findings-types.js';
import { TOOLS } from '../../src/mcp/tools.js';

type Schema = Record<string, unknown>;

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true });

/** Every input property of every tool: [tool, property, its schema]. */
const properties: [string, string, Schema][] = TOOLS.flatMap((t) =>
  Object.entries((t.inputSchema.properties ?? {}) as Record<string, Schema>).map(
    ([name, schema]) => [t.name, name, schema] as [string, string, Schema],
  ),
);

/** The properties that take an id the service gave (a scan's, a finding's), or a base/head scan. */
const ids = properties.filter(([, name]) => /_id$|^(base|head)$/.test(name));

/** The properties that take a list of severities. */
const severityLists = properties.filter(([, , s]) => {
  const items = s.items as Schema | undefined;
  return s.type === 'array' && Array.isArray(items?.enum) && items.enum.includes(SEVERITIES[0]);
});

describe('ids in the tools’ input schemas', () => {
  it('are found where the tools take them (get_scan, get_finding, wait_scan, list_findings, diff_findings)', () => {
    const tools = new Set(ids.map(([tool]) => tool));
    for (const t of ['get_scan', 'get_finding', 'wait_scan', 'list_findings', 'diff_findings'])
      expect(tools, t).toContain(t);
  });

  it.each(ids)('%s %s refuses "." and ".."', (_tool, _name, schema) => {
    const validate = ajv.compile(schema);
    expect(validate('.')).toBe(false);
    expect(validate('..')).toBe(false);
  });

  it.each(ids)('%s %s takes an id with dots in it ("scn_1", "a.b", "...")', (_tool, name, schema) => {
    const validate = ajv.compile(schema);
    expect(validate('scn_1'), JSON.stringify(validate.errors)).toBe(true);
    // base/head refuse a name ending in .json/.sarif (a file given by mistake); a dot elsewhere is an id.
    expect(validate('a.b'), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(validate('...'), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });
});

describe('severity lists in the tools’ input schemas', () => {
  it('are found where the tools take them (list_findings, summarize_findings, diff_findings)', () => {
    const tools = new Set(severityLists.map(([tool]) => tool));
    for (const t of ['list_findings', 'summarize_findings', 'diff_findings']) expect(tools, t).toContain(t);
  });

  it.each(severityLists)('%s %s refuses an empty list', (_tool, _name, schema) => {
    expect(ajv.compile(schema)([])).toBe(false);
  });

  it.each(severityLists)('%s %s takes one severity, and all of them', (_tool, _name, schema) => {
    const validate = ajv.compile(schema);
    expect(validate(['critical'])).toBe(true);
    expect(validate([...SEVERITIES])).toBe(true);
  });

  it('a whole call with an empty severity list is refused by the tool’s schema (list_findings)', () => {
    const tool = TOOLS.find((t) => t.name === 'list_findings')!;
    const validate = ajv.compile(tool.inputSchema);
    expect(validate({ severity: ['high'] })).toBe(true);
    expect(validate({ severity: [] })).toBe(false);
  });
});
