// The compliance score as cssctl reports it (cli-contract.md §14): whether it is below the service's threshold,
// the --fail-under gate, the lines of the table and the GitHub step summary's section.
import { COMPUTED_AT_FIELDS, type Compliance } from '../api/compliance.js';
import { cell } from './step-summary.js';
import { isTimeKey, keyLabel, type FieldLine } from '../core/output/index.js';

export interface ComplianceGate {
  /** --fail-under. */
  failUnder: number;
  /** The score is below it (exit 10). */
  failed: boolean;
}

/** Whether the score is below the service's threshold; undefined when the service gives none. */
export function belowThreshold(c: Compliance): boolean | undefined {
  return typeof c.threshold === 'number' ? c.score < c.threshold : undefined;
}

/** The --fail-under gate: failed when the score is below the limit (a score equal to it passes). */
export function complianceGate(c: Compliance, failUnder: number | undefined): ComplianceGate | undefined {
  return failUnder === undefined ? undefined : { failUnder, failed: c.score < failUnder };
}

/** The field that says when the score was computed, if the service gives one. */
export function computedAtField(c: Compliance): string | undefined {
  return COMPUTED_AT_FIELDS.find((f) => c[f] !== undefined && c[f] !== null);
}

/** The line that explains exit 10 (and, on success, what was checked). */
export function gateLine(c: Compliance, gate: ComplianceGate): string {
  return gate.failed
    ? `compliance score ${c.score} is below --fail-under ${gate.failUnder}`
    : `compliance score ${c.score} is at or above --fail-under ${gate.failUnder}`;
}

/**
 * The table, one field a line: the score, the threshold, whether the score is below it, when it was computed,
 * the gate, then every other field the service gives. Returns the object to show and its [label, key] lines.
 */
export function complianceRows(
  c: Compliance,
  gate: ComplianceGate | undefined,
): { record: Record<string, unknown>; fields: FieldLine[] } {
  const below = belowThreshold(c);
  const at = computedAtField(c);
  // [label, value, time]: a time is shown as every table shows one (local YYYY-MM-DD HH:MM).
  const rows: [string, unknown, boolean?][] = [
    ['SCORE', c.score],
    ['THRESHOLD', c.threshold],
    ['BELOW THRESHOLD', below === undefined ? undefined : below ? 'yes' : 'no'],
    ['COMPUTED', at ? c[at] : undefined, true],
    [
      'FAIL UNDER',
      gate
        ? `${gate.failUnder}: ${gate.failed ? 'failed, the score is below it (exit 10)' : 'passed'}`
        : undefined,
    ],
  ];
  const shown = new Set(['score', 'threshold', ...(at ? [at] : [])]);
  const labels = new Set(rows.map(([l]) => l));
  for (const [k, v] of Object.entries(c)) {
    if (shown.has(k)) continue;
    const label = keyLabel(k);
    // A service field whose label is one of the lines above says it is the service's.
    rows.push([labels.has(label) ? `${label} (SERVICE)` : label, v, isTimeKey(k) || k === 'timestamp']);
    labels.add(label);
  }
  // Only the lines that have a value: the labels are padded to the widest of those.
  const present = rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
  return {
    record: Object.fromEntries(present.map(([l, v]) => [l, v])),
    fields: present.map(([l, , time]): FieldLine => [l, l, time ?? false]),
  };
}

/** The Markdown section appended to $GITHUB_STEP_SUMMARY (starting with a blank line, as the scans' does). */
export function renderComplianceSummary(
  c: Compliance,
  gate: ComplianceGate | undefined,
  workspace: string | undefined,
): string {
  const below = belowThreshold(c);
  const at = computedAtField(c);
  const verdict = !gate
    ? 'none (no `--fail-under`)'
    : gate.failed
      ? `❌ \`--fail-under ${gate.failUnder}\` failed: ${cell(c.score)} is below ${gate.failUnder} (exit 10)`
      : `✅ \`--fail-under ${gate.failUnder}\` passed: ${cell(c.score)} is at or above ${gate.failUnder}`;
  const lines = [
    '',
    '### cssctl compliance score',
    '',
    '| | |',
    '|---|---|',
    `| Workspace | ${cell(workspace)} |`,
    `| Score | ${cell(c.score)} |`,
    `| Threshold | ${typeof c.threshold === 'number' ? `${cell(c.threshold)}${below ? ' — the score is below it' : ''}` : '—'} |`,
    ...(at ? [`| Computed | ${cell(c[at])} |`] : []),
    `| Gate | ${verdict} |`,
  ];
  return `${lines.join('\n')}\n`;
}
