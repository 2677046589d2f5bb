// One readable line per verified delivery: time, event, workspace and a short summary of `data`.
import { EVENT_TYPES, type Delivery } from '../../api/webhooks.js';
import type { ForwardResult } from './receiver.js';
import { clean } from './common.js';

const MAX_SUMMARY = 160;

function text(v: unknown): string {
  if (v === undefined || v === null) return '?';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function generic(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(' ');
}

/** A short summary of `data`, shaped by the event type; unknown shapes list their scalar fields. */
export function summarize(event: string, data: unknown): string {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return text(data);
  const d = data as Record<string, unknown>;
  if (event.startsWith('scan.') && d.scan_id !== undefined) {
    const parts = [
      `scan ${text(d.scan_id)} of ${text(d.connection_alias)}${d.provider === undefined ? '' : ` (${text(d.provider)})`}: ${text(d.status)}`,
    ];
    if (d.total_findings !== undefined) parts.push(`${text(d.total_findings)} findings`);
    if (d.critical_count !== undefined) parts.push(`${text(d.critical_count)} critical`);
    if (d.risk_score !== undefined) parts.push(`risk ${text(d.risk_score)}`);
    return `${parts.join(', ')}${d.error ? ` — ${text(d.error)}` : ''}`;
  }
  if (event.startsWith('finding.') && d.id !== undefined) {
    return `${text(d.severity)} ${text(d.id)}: ${text(d.title)}${d.resource === undefined ? '' : ` — ${text(d.resource)}`}`;
  }
  if (event === 'compliance.score_dropped' && d.score !== undefined) {
    const was = d.previous_score === undefined ? '' : ` (was ${text(d.previous_score)})`;
    const after = d.scan_id === undefined ? '' : ` after scan ${text(d.scan_id)}`;
    return `score ${text(d.score)}${was}, below ${text(d.threshold)}${after}`;
  }
  return generic(d);
}

const EVENT_WIDTH = Math.max(...EVENT_TYPES.map((e) => e.length));

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function deliveryLine(
  delivery: Delivery,
  forwarded?: ForwardResult | { error: string },
  duplicate = false,
): string {
  // Padded to the longest event name of the spec, so the workspace and the summary start in one column
  // whatever the event (a name the spec does not have is left as it is).
  const event = clean(text(delivery.event)).padEnd(EVENT_WIDTH);
  const fields = [
    clean(text(delivery.timestamp)),
    event,
    clean(text(delivery.workspace)),
    clean(cut(summarize(String(delivery.event), delivery.data), MAX_SUMMARY)),
  ];
  let line = fields.join('  ');
  if (duplicate) line += '  [duplicate]';
  if (forwarded) {
    line += 'error' in forwarded ? `  -> 502 (${clean(forwarded.error)})` : `  -> ${forwarded.status}`;
  }
  return line;
}
