// Comparing two sets of findings by fingerprint (cli-contract.md §8). The base is held — only what the
// comparison needs: per fingerprint its occurrences' severities and a small copy of each finding to show when
// it is fixed, and the rules and resources it had — and the head is streamed through, each finding getting its
// state as it passes. What is left of the base at the end is `fixed`.
import type { Finding } from '../api/findings-types.js';
import { fingerprintOf, ruleIdOf } from './fingerprint.js';
import { rankOf, severityLabel } from './severity.js';
import { text } from './text.js';

export const DIFF_STATES = ['new', 'updated', 'unchanged', 'fixed'] as const;
export type DiffState = (typeof DIFF_STATES)[number];
export type NewWhy = 'new-rule' | 'new-resource' | 'ignore-expired' | 'other';

/** What the comparison says of one finding; also on the item as enumerable fields for json/ndjson/csv. */
export interface DiffInfo {
  state: DiffState;
  fingerprint: string;
  previous_severity?: string;
  why?: NewWhy;
}

/**
 * Formats read a finding's diff state through this key (never from a field named `state` the service might
 * send): it marks items that come from a comparison. JSON.stringify leaves symbol keys out.
 */
export const DIFF = Symbol('cssctl.diff');

export type DiffFinding = Finding & DiffInfo & { [DIFF]: DiffInfo };

export function diffOf(f: unknown): DiffInfo | undefined {
  return f !== null && typeof f === 'object' ? (f as { [DIFF]?: DiffInfo })[DIFF] : undefined;
}

/** The fields a fixed finding keeps from the base (its description and the rest are not held). */
const KEPT = [
  'id',
  'severity',
  'title',
  'resource',
  'connection_alias',
  'rule_id',
  'check_id',
  'scan_id',
  'status',
  // OCSF's `time` (cli-contract.md §14) of a Close event is the finding's created_at.
  'created_at',
] as const;

function minimal(f: Finding): Finding {
  const out: Record<string, unknown> = {};
  for (const k of KEPT) if (f[k] !== undefined) out[k] = f[k];
  return out as Finding;
}

function label(f: Finding): string {
  return severityLabel(f);
}

export function annotate(f: Finding, info: DiffInfo): DiffFinding {
  const out = { ...f, ...info } as DiffFinding;
  Object.defineProperty(out, DIFF, { value: info, enumerable: false });
  return out;
}

/** The base side of a comparison. */
export class BaseIndex {
  /** Per fingerprint, its occurrences not yet matched (one finding, or several). */
  private readonly occurrences = new Map<string, Finding | Finding[]>();
  private readonly rules = new Set<string>();
  private readonly resources = new Set<string>();
  size = 0;

  add(f: Finding): void {
    const fp = fingerprintOf(f);
    const kept = minimal(f);
    const had = this.occurrences.get(fp);
    if (had === undefined) this.occurrences.set(fp, kept);
    else if (Array.isArray(had)) had.push(kept);
    else this.occurrences.set(fp, [had, kept]);
    this.rules.add(ruleIdOf(f));
    const resource = text(f.resource);
    if (resource !== '') this.resources.add(resource);
    this.size++;
  }

  /**
   * The state of one head finding, taking the base occurrence it matches: one of the same severity when there
   * is one (the service lists repeated findings in no particular order), else the first left.
   */
  match(f: Finding): DiffInfo {
    const fingerprint = fingerprintOf(f);
    const had = this.occurrences.get(fingerprint);
    if (had === undefined) return { state: 'new', fingerprint, why: this.why(f) };
    const sev = label(f);
    let taken: Finding;
    if (Array.isArray(had)) {
      const i = Math.max(
        0,
        had.findIndex((o) => label(o) === sev),
      );
      taken = had.splice(i, 1)[0]!;
      if (had.length === 1) this.occurrences.set(fingerprint, had[0]!);
    } else {
      taken = had;
      this.occurrences.delete(fingerprint);
    }
    const previous = label(taken);
    return previous === sev
      ? { state: 'unchanged', fingerprint }
      : { state: 'updated', fingerprint, previous_severity: previous };
  }

  private why(f: Finding): NewWhy {
    if (!this.rules.has(ruleIdOf(f))) return 'new-rule';
    const resource = text(f.resource);
    if (resource !== '' && !this.resources.has(resource)) return 'new-resource';
    return 'other';
  }

  /** The base occurrences no head finding matched: fixed. */
  *fixed(): Generator<DiffFinding> {
    for (const [fingerprint, had] of this.occurrences)
      for (const f of Array.isArray(had) ? had : [had]) yield annotate(f, { state: 'fixed', fingerprint });
  }
}

/** The counts of a comparison, by state. */
export class DiffCounts {
  readonly n: Record<DiffState, number> = { new: 0, updated: 0, unchanged: 0, fixed: 0 };
  /** The same by severity rank (0 critical … 5 other), for the step summary's table. */
  readonly byRank: Record<DiffState, number>[] = Array.from({ length: 6 }, () => ({
    new: 0,
    updated: 0,
    unchanged: 0,
    fixed: 0,
  }));
  add(info: DiffInfo, f?: Pick<Finding, 'severity'>): void {
    this.n[info.state]++;
    if (f) this.byRank[rankOf(f)]![info.state]++;
  }
  /** `3 new, 1 updated, 5 fixed, 120 unchanged`. */
  toString(): string {
    const { n } = this;
    return `${n.new} new, ${n.updated} updated, ${n.fixed} fixed, ${n.unchanged} unchanged`;
  }
}

/**
 * Streams the head through the base: each head finding annotated with its state, then every base occurrence
 * left over as fixed.
 */
export async function* compare(base: BaseIndex, head: AsyncIterable<Finding>): AsyncGenerator<DiffFinding> {
  for await (const f of head) {
    if (f === null || typeof f !== 'object') continue;
    yield annotate(f, base.match(f));
  }
  yield* base.fixed();
}
