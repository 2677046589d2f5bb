// Severities as reports and the gate read them: the five of cli-contract.md §2, then one bucket for anything
// else the service may send. The --fail-on rule itself lives in gate.ts.
import { SEVERITIES, severityRank, type Finding, type Severity } from '../api/findings-types.js';
import { text } from './text.js';

/** The five severities, then one bucket for anything else the service may send. */
export const OTHER = SEVERITIES.length;

/** 0 for critical … 4 for info, 5 (OTHER) for a severity cssctl does not know: the one ranking, severityRank's. */
export function rankOf(f: Pick<Finding, 'severity'>): number {
  return severityRank(f.severity);
}

/** The finding's severity as shown in reports: one of the five, else the service's own word (or "unknown"). */
export function severityLabel(f: Pick<Finding, 'severity'>): string {
  const r = rankOf(f);
  if (r < OTHER) return SEVERITIES[r] as Severity;
  const s = text(f.severity);
  return s === '' ? 'unknown' : s;
}

/** A threshold given as text (a saved option, a formatter context): one of the five, else undefined. */
export function asSeverity(raw: unknown): Severity | undefined {
  const s = typeof raw === 'string' ? raw.toLowerCase() : '';
  return (SEVERITIES as readonly string[]).includes(s) ? (s as Severity) : undefined;
}

/** critical and high red, medium yellow, low blue, info dim (cli-contract.md §3). */
export function styleSeverity(text: string, severity: unknown, color: import('chalk').ChalkInstance): string {
  switch (String(severity).toLowerCase()) {
    case 'critical':
      return color.red.bold(text);
    case 'high':
      return color.red(text);
    case 'medium':
      return color.yellow(text);
    case 'low':
      return color.blue(text);
    case 'info':
      return color.dim(text);
    default:
      return text;
  }
}
