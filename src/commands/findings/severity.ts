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

const STATES = ['new', 'updated', 'unchanged', 'fixed'] as const;

/** `--state new,updated --state fixed`: each one of the four states of a comparison, each once. */
export function collectStates(value: string, previous: string[] = []): (typeof STATES)[number][] {
  const parts = value.split(',').map((p) => p.trim().toLowerCase());
  for (const p of parts)
    if (!(STATES as readonly string[]).includes(p))
      throw new InvalidArgumentError(`unknown state "${p}": use ${STATES.join(', ')}`);
  return [...new Set([...previous, ...parts])] as (typeof STATES)[number][];
}
