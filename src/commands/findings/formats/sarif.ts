// A minimal SARIF 2.1.0 log of findings, valid against the OASIS schema. Streams: results are written as they
// come; the rules (one per distinct check, a bounded set) follow them in the same run object.
import type { Finding } from '../../../api/findings-types.js';
import type { Formatter, FormatterContext, FormatterFactory } from '../../../core/format.js';
import { VERSION } from '../../../version.js';

const LEVEL: Record<string, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'finding'
  );
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

export const sarif: FormatterFactory<Finding> = (ctx: FormatterContext<Finding>): Formatter<Finding> => {
  const rules = new Map<string, string>();
  let n = 0;
  ctx.write(
    `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"results":[`,
  );
  return {
    item(f) {
      if (f === null || typeof f !== 'object') return;
      const title = str(f.title) ?? `finding ${String(f.id)}`;
      const ruleId = str(f.rule_id) ?? str(f.check_id) ?? slug(title);
      if (!rules.has(ruleId)) rules.set(ruleId, title);
      const severity = String(f.severity ?? '').toLowerCase();
      const result = {
        ruleId,
        level: LEVEL[severity] ?? 'note',
        message: {
          text: `${title} (${severity || 'unknown severity'})${str(f.resource) ? ` on ${f.resource}` : ''}`,
        },
        locations: str(f.resource)
          ? [{ logicalLocations: [{ fullyQualifiedName: f.resource, kind: 'resource' }] }]
          : undefined,
        partialFingerprints: { 'cssctl/finding': String(f.id) },
        properties: { severity, id: f.id, scan_id: f.scan_id, connection: f.connection_alias },
      };
      ctx.write(`${n++ === 0 ? '' : ','}${JSON.stringify(result)}`);
    },
    end() {
      const driver = {
        name: 'cssctl',
        version: VERSION,
        rules: [...rules].map(([id, title]) => ({ id, shortDescription: { text: title } })),
      };
      ctx.write(`],"tool":${JSON.stringify({ driver })}}]}\n`);
    },
  };
};
