import { InvalidArgumentError } from 'commander';
import { SEVERITIES, severityRank, type Severity } from '../../api/findings-types.js';

const VALID = SEVERITIES.join(', ');

/** One severity, case-insensitive; anything else names the five valid values. */
export function parseSeverity(value: string): Severity {
  const s = value.trim().toLowerCase();
  if (!(SEVERITIES as readonly string[]).includes(s))
    throw new InvalidArgumentError(`unknown severity "${value.trim()}": use ${VALID}`);
  return s as Severity;
}

/** `--severity high,Medium --severity low`: each valid, each once, most severe first. */
export function collectSeverities(value: string, previous: Severity[] = []): Severity[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => p === ''))
    throw new InvalidArgumentError(`empty severity in "${value}": use ${VALID}`);
  const all = new Set([...previous, ...parts.map(parseSeverity)]);
  return [...all].sort((a, b) => severityRank(a) - severityRank(b));
}

/** Severities at or above a threshold, most severe first. */
export function atOrAbove(threshold: Severity): Severity[] {
  return SEVERITIES.slice(0, severityRank(threshold) + 1);
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
