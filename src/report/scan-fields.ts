import type { Scan } from '../api/findings-types.js';
import { isFailed } from '../api/scan-status.js';
import type { Column } from '../core/format.js';
import type { FieldLine } from '../core/output/index.js';

function failed(s: Scan): boolean {
  return typeof s.status === 'string' && isFailed(s.status);
}

/**
 * How a table shows a scan's counts and risk: a failed scan has none (`—`, never `0`, which reads as a clean
 * scan), and the risk score always with one decimal (`3.0`, `3.7`). csv and json keep the service's values.
 */
export function countShown(s: Scan, n: unknown): unknown {
  return failed(s) ? '—' : n;
}
export function riskShown(s: Scan): unknown {
  if (failed(s)) return '—';
  return typeof s.risk_score === 'number' && Number.isFinite(s.risk_score)
    ? s.risk_score.toFixed(1)
    : s.risk_score;
}

/** A scan as a one-record table shows it (scans get, scans wait): the same counts and risk as the list. */
export function scanShown(s: Scan): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s, risk_score: riskShown(s) };
  if (failed(s))
    for (const k of [
      'total_findings',
      'critical_count',
      'high_count',
      'medium_count',
      'low_count',
      'info_count',
    ])
      out[k] = '—';
  return out;
}

export function styleStatus(text: string, status: unknown, color: import('chalk').ChalkInstance): string {
  switch (String(status).toLowerCase()) {
    case 'completed':
      return color.green(text);
    case 'failed':
      return color.red(text);
    case 'running':
      return color.yellow(text);
    default:
      return color.dim(text);
  }
}

/**
 * The scan id (what `scans wait` and `scans get` take) and the date are never cut; on a narrow terminal the
 * risk score and then the critical count are left out (`-o wide` or `--columns` show them).
 */
export const scanColumns: Column<Scan>[] = [
  {
    header: 'SCAN',
    field: 'scan_id',
    value: (s) => s.scan_id,
    style: (t, _s, color) => color.bold(t),
    keep: true,
  },
  { header: 'CONNECTION', field: 'connection_alias', value: (s) => s.connection_alias, min: 10 },
  {
    header: 'STATUS',
    field: 'status',
    value: (s) => s.status,
    style: (t, s, color) => styleStatus(t, s.status, color),
    keep: true,
  },
  {
    header: 'FINDINGS',
    field: 'total_findings',
    value: (s) => s.total_findings,
    tableValue: (s) => countShown(s, s.total_findings),
    optional: true,
    keep: true,
  },
  {
    header: 'CRITICAL',
    field: 'critical_count',
    value: (s) => s.critical_count,
    tableValue: (s) => countShown(s, s.critical_count),
    optional: true,
    keep: true,
    drop: 1,
  },
  {
    header: 'RISK',
    field: 'risk_score',
    value: (s) => s.risk_score,
    tableValue: riskShown,
    optional: true,
    keep: true,
    drop: 2,
  },
  {
    header: 'CREATED',
    field: 'created_at',
    value: (s) => s.created_at,
    optional: true,
    keep: true,
    time: true,
  },
];

/** The key/value lines of one scan in a table. */
export const scanFields: FieldLine[] = [
  ['SCAN', 'scan_id'],
  ['CONNECTION', 'connection_alias'],
  ['PROVIDER', 'provider'],
  ['STATUS', 'status'],
  ['FINDINGS', 'total_findings'],
  ['CRITICAL', 'critical_count'],
  ['HIGH', 'high_count'],
  ['MEDIUM', 'medium_count'],
  ['LOW', 'low_count'],
  ['INFO', 'info_count'],
  ['RISK SCORE', 'risk_score'],
  ['ERROR', 'error'],
  ['CREATED', 'created_at'],
  ['STARTED', 'started_at'],
  ['COMPLETED', 'completed_at'],
];
