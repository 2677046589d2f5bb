// Shapes of findings and scans as cssctl reads them. The spec shows only some fields (service-api.md §2);
// everything else is optional and read defensively.

/** Scan statuses the service and the sandbox use (service-api.md shows only "completed"). */
export const SCAN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for critical … 4 for info, any case; unknown severities (and none) rank last, as 5. */
export function severityRank(s: unknown): number {
  const i = SEVERITIES.indexOf(String(s ?? '').toLowerCase() as Severity);
  return i < 0 ? SEVERITIES.length : i;
}

export interface Finding {
  id: string;
  severity: Severity | string;
  title?: string;
  resource?: string;
  connection_alias?: string;
  scan_id?: string;
  status?: string;
  created_at?: string;
  /** A check identifier, when the service gives one. */
  rule_id?: string;
  check_id?: string;
  description?: string;
  remediation?: string;
  [key: string]: unknown;
}

export interface Scan {
  scan_id: string;
  connection_alias?: string;
  provider?: string;
  /** queued, running, completed, failed (the sandbox's; the spec shows only "completed"). */
  status: string;
  created_at?: string;
  started_at?: string | null;
  completed_at?: string | null;
  total_findings?: number;
  critical_count?: number;
  high_count?: number;
  medium_count?: number;
  low_count?: number;
  info_count?: number;
  risk_score?: number;
  error?: string | null;
  [key: string]: unknown;
}
