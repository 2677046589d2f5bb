// The --fail-on gate (cli-contract.md §2, §8): the one rule that says which findings count for it (countsForGate),
// the one function from counts to a verdict (decideGate), and the line that explains exit 10 (gateLine). The
// exit code, the step summary, html's verdict and junit's failures all read what these decide; none applies the
// rule again.
import { SEVERITIES, type Finding, type Scan, type Severity } from '../api/findings-types.js';
import { diffOf, type DiffInfo } from './diff.js';
import { ignoredOf } from './ignore/stage.js';
import { OTHER, rankOf } from './severity.js';

/** The rule: a finding meets `--fail-on <threshold>` when its severity is the threshold or more severe. */
export function meetsGate(f: Pick<Finding, 'severity'>, threshold: Severity): boolean {
  const r = rankOf(f);
  return r < OTHER && r <= rankOf({ severity: threshold });
}

/**
 * In a comparison (cli-contract.md §8) only a new finding at or above the threshold meets it, or an updated one
 * that rose to it from below; an unchanged or fixed one never does.
 */
function diffMeetsGate(f: Finding, info: DiffInfo, threshold: Severity): boolean {
  if (info.state === 'new') return meetsGate(f, threshold);
  if (info.state !== 'updated') return false;
  return meetsGate(f, threshold) && !meetsGate({ severity: info.previous_severity ?? '' }, threshold);
}

/**
 * Whether one finding of a report counts for the gate: never an accepted risk (the ignore file), in a comparison
 * only a new or raised one, and one at or above the threshold. Without a threshold, every finding a report
 * would fail does (junit: "every finding, when no --fail-on is given").
 */
export function countsForGate(f: Finding, threshold: Severity | undefined): boolean {
  if (ignoredOf(f) !== undefined) return false;
  const info = diffOf(f);
  if (threshold === undefined) return info === undefined || info.state === 'new' || info.state === 'updated';
  return info ? diffMeetsGate(f, info, threshold) : meetsGate(f, threshold);
}

/** The severities that meet a threshold, most severe first. */
export function gateSeverities(threshold: Severity): Severity[] {
  return SEVERITIES.filter((severity) => meetsGate({ severity }, threshold));
}

/** A count the service gave that can be true (a whole number, 0 or more); anything else is not trusted. */
export function trustedCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export type SeverityCounts = Partial<Record<Severity, number>>;

export interface Gate {
  threshold: Severity;
  met: boolean;
  /** Every severity at or above the threshold, counted. */
  counts: SeverityCounts;
}

/** Counts the findings of one severity (exactly, or throws: a gate that cannot count is an error). */
export type CountFindings = (severity: Severity) => Promise<number>;

/**
 * The gate from counts, without reading the findings (the case where no ignore file and no baseline apply):
 * `critical_count` for critical when the scan record's is a count that can be true, otherwise the
 * service's count of each severity (`GET /findings?scan_id&severity&limit=1`, reading `total`). Every severity
 * at or above the threshold is counted, so the line that explains exit 10 gives them all.
 */
export async function gateFromCounts(scan: Scan, threshold: Severity, count: CountFindings): Promise<Gate> {
  const counts: SeverityCounts = {};
  for (const severity of gateSeverities(threshold)) {
    const given = severity === 'critical' ? trustedCount(scan.critical_count) : undefined;
    counts[severity] = given ?? (await count(severity));
  }
  return decideGate(threshold, counts);
}

/** The verdict, from the counts at or above the threshold: met when any of them is more than 0. */
export function decideGate(threshold: Severity, counts: SeverityCounts): Gate {
  const met = gateSeverities(threshold).some((s) => (counts[s] ?? 0) > 0);
  return { threshold, met, counts };
}

/**
 * The gate counted over a stream of findings (after the ignore file and the baseline have had their say):
 * `add` every finding that counts, `gate()` at the end.
 */
export class GateTally {
  readonly counts: Required<SeverityCounts> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  other = 0;

  add(f: Pick<Finding, 'severity'>): void {
    const r = rankOf(f);
    if (r < OTHER) this.counts[SEVERITIES[r]!]++;
    else this.other++;
  }

  gate(threshold: Severity): Gate {
    const counts: SeverityCounts = {};
    for (const s of gateSeverities(threshold)) counts[s] = this.counts[s];
    return decideGate(threshold, counts);
  }
}

/** A gate as a report's verdict (ReportAbout.verdict). */
export function verdictOf(
  gate: Gate | undefined,
): { met: boolean; count: number; threshold: Severity } | undefined {
  return gate && { met: gate.met, count: gateTotal(gate), threshold: gate.threshold };
}

/** The total of the counts at or above the threshold. */
export function gateTotal(gate: Gate): number {
  return gateSeverities(gate.threshold).reduce((a, s) => a + (gate.counts[s] ?? 0), 0);
}

/** `scan scn_1 has 6 findings at or above high: 2 critical, 4 high (--fail-on high)`. */
export function gateLine(subject: string, gate: Gate, what = 'findings'): string {
  const n = gateTotal(gate);
  const parts = gateSeverities(gate.threshold)
    .filter((s) => (gate.counts[s] ?? 0) > 0)
    .map((s) => `${gate.counts[s]!.toLocaleString('en-US')} ${s}`);
  const noun = n === 1 ? what.replace(/s$/, '') : what;
  return `${subject} has ${n.toLocaleString('en-US')} ${noun} at or above ${gate.threshold}: ${parts.join(', ')} (--fail-on ${gate.threshold})`;
}

/**
 * What a scan's counts are by severity, as far as they can be trusted: the gate's own counts first (so the
 * summary line, the step summary and the exit-10 line say the same), then the scan record's `<severity>_count`
 * where it is a count that can be true. An impossible one (negative, fractional, not a number) is left out.
 */
export function knownCounts(scan: Scan, counted: SeverityCounts = {}): SeverityCounts {
  const out: SeverityCounts = {};
  for (const s of SEVERITIES) {
    const n = counted[s] ?? trustedCount(scan[`${s}_count`]);
    if (n !== undefined) out[s] = n;
  }
  return out;
}
