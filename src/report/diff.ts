// Comparing two sets of findings by fingerprint (cli-contract.md §8). The base is held — only what the
// comparison needs: per fingerprint its occurrences' severities and a small copy of each finding to show when
// it is fixed, and the rules and resources it had — and the head is streamed through, each finding getting its
// state as it passes. A head finding whose fingerprint is in the base only at other severities waits for the
// end of the head (a later one may match one of them exactly); what is left of the base at the end is `fixed`.
import type { Finding } from '../api/findings-types.js';
import { GIVEN_FINGERPRINT, fingerprintOf, ruleIdOf } from './fingerprint.js';
import { SeverityBuckets } from './formats/buckets.js';
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
  // OCSF's first_seen_time of a Close event (cli-contract.md §14: its time is when the fix was seen).
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
   * The state of one head finding when it can be told as it passes: `new` when the base has no occurrence of
   * its fingerprint left, `unchanged` when one of the same severity is left (taken). Undefined when the base
   * has occurrences of it only at other severities: a later head finding may match one of them exactly, so it
   * is decided at the end (`settle`) — matching never depends on the order the service lists findings in.
   */
  match(f: Finding, fingerprint = fingerprintOf(f)): DiffInfo | undefined {
    const had = this.occurrences.get(fingerprint);
    if (had === undefined) return { state: 'new', fingerprint, why: this.why(f) };
    const sev = label(f);
    if (Array.isArray(had)) {
      const i = had.findIndex((o) => label(o) === sev);
      if (i < 0) return undefined;
      had.splice(i, 1);
      if (had.length === 1) this.occurrences.set(fingerprint, had[0]!);
    } else {
      if (label(had) !== sev) return undefined;
      this.occurrences.delete(fingerprint);
    }
    return { state: 'unchanged', fingerprint };
  }

  /**
   * The head findings of one fingerprint that `match` left undecided, given by severity, once the whole head
   * has passed: equal severities were paired first, so these pair with the base occurrences left, most severe
   * with most severe (then by severity name, then as given); a head finding left over is `new` (its `why` is
   * the caller's to add), a base occurrence left over stays for `fixed`. Infos in the order given.
   */
  settle(fingerprint: string, severities: readonly string[]): DiffInfo[] {
    const had = this.occurrences.get(fingerprint);
    const left = had === undefined ? [] : Array.isArray(had) ? had : [had];
    const bySeverity = (a: string, b: string) =>
      rankOf({ severity: a }) - rankOf({ severity: b }) || (a < b ? -1 : a > b ? 1 : 0);
    const heads = severities.map((s, i) => ({ s, i })).sort((a, b) => bySeverity(a.s, b.s) || a.i - b.i);
    const bases = left
      .map((o, i) => ({ o, s: label(o), i }))
      .sort((a, b) => bySeverity(a.s, b.s) || a.i - b.i);
    const out: DiffInfo[] = new Array<DiffInfo>(severities.length);
    heads.forEach(({ s, i }, k) => {
      const b = bases[k];
      out[i] =
        b === undefined
          ? { state: 'new', fingerprint }
          : b.s === s
            ? { state: 'unchanged', fingerprint }
            : { state: 'updated', fingerprint, previous_severity: b.s };
    });
    const rest = bases
      .slice(heads.length)
      .sort((a, b) => a.i - b.i)
      .map((b) => b.o);
    if (rest.length === 0) this.occurrences.delete(fingerprint);
    else this.occurrences.set(fingerprint, rest.length === 1 ? rest[0]! : rest);
    return out;
  }

  /** Why a head finding is new: its rule or its resource had no finding in the base, or neither. */
  why(f: Finding): NewWhy {
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

/** What `compare` may need to hold; lowered by tests. */
export interface CompareOptions {
  /** Bytes of held head findings kept in memory before they go to a temporary file (default 4 MiB). */
  spillBytes?: number;
  tmpDir?: string;
  warn?: (message: string) => void;
}

/**
 * The head findings whose state waits for the end of the head (see BaseIndex.match). Only their fingerprints
 * and severities stay in memory; the findings themselves are kept as JSON text that spills to a private
 * temporary file past a few MiB (the report buckets' store), so memory stays flat even when every finding of
 * a scan was re-rated.
 */
class HeldFindings {
  private readonly fingerprints: string[] = [];
  private readonly severities: string[] = [];
  /** The few findings JSON text cannot carry (nested too deep for JSON.stringify), by position. */
  private readonly kept = new Map<number, Finding>();
  private readonly text: SeverityBuckets;

  constructor(options: CompareOptions) {
    this.text = new SeverityBuckets(options);
  }

  add(f: Finding, fingerprint: string): void {
    const i = this.fingerprints.length;
    this.fingerprints.push(fingerprint);
    this.severities.push(label(f));
    let line = '';
    try {
      line = JSON.stringify(f);
    } catch {
      this.kept.set(i, f);
    }
    this.text.add(0, `${line}\n`);
  }

  /** Decides every held finding against what the base has left, then gives them back in the order they came. */
  *settle(base: BaseIndex): Generator<DiffFinding> {
    const n = this.fingerprints.length;
    if (n === 0) return;
    const byFingerprint = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const fp = this.fingerprints[i]!;
      const list = byFingerprint.get(fp);
      if (list) list.push(i);
      else byFingerprint.set(fp, [i]);
    }
    const infos = new Array<DiffInfo>(n);
    for (const [fp, list] of byFingerprint) {
      const got = base.settle(
        fp,
        list.map((i) => this.severities[i]!),
      );
      list.forEach((i, k) => (infos[i] = got[k]!));
    }
    byFingerprint.clear();
    let i = 0;
    let carry = '';
    for (const chunk of this.text.read(0)) {
      const lines = (carry + chunk).split('\n');
      carry = lines.pop()!;
      for (const line of lines) yield this.revive(line, i, infos[i++]!, base);
    }
  }

  close(): void {
    this.text.close();
  }

  private revive(line: string, i: number, info: DiffInfo, base: BaseIndex): DiffFinding {
    let f = this.kept.get(i);
    if (f === undefined) {
      f = JSON.parse(line) as Finding;
      // A finding read from a SARIF log keeps the fingerprint it was given (the ignore file matches on it).
      (f as { [GIVEN_FINGERPRINT]?: string })[GIVEN_FINGERPRINT] = info.fingerprint;
    }
    if (info.state === 'new') info.why = base.why(f);
    return annotate(f, info);
  }
}

/**
 * The fields cssctl itself adds to a finding it writes (a diff's state and why, the fingerprint, an ignore
 * entry): a file that an earlier `findings diff` or `--show-ignored` wrote carries them, and they would
 * otherwise stay on a finding they no longer describe (`previous_severity` on one that is now unchanged).
 */
const OWN_FIELDS = ['state', 'fingerprint', 'previous_severity', 'why', 'ignored'] as const;

export function withoutOwnFields(f: Finding): Finding {
  if (!OWN_FIELDS.some((k) => Object.hasOwn(f, k))) return f;
  const out: Record<string | symbol, unknown> = { ...f };
  for (const k of OWN_FIELDS) delete out[k];
  return out as unknown as Finding;
}

/**
 * Streams the head through the base: each head finding annotated with its state as it passes, except those
 * whose state depends on the rest of the head (their fingerprint is in the base at another severity), which
 * follow once the head has ended; then every base occurrence left over, as fixed. The states do not depend on
 * the order of either side.
 */
export async function* compare(
  base: BaseIndex,
  head: AsyncIterable<Finding>,
  options: CompareOptions = {},
): AsyncGenerator<DiffFinding> {
  const held = new HeldFindings(options);
  try {
    for await (const item of head) {
      if (item === null || typeof item !== 'object') continue;
      const f = withoutOwnFields(item);
      const fingerprint = fingerprintOf(f);
      const info = base.match(f, fingerprint);
      if (info) yield annotate(f, info);
      else held.add(f, fingerprint);
    }
    yield* held.settle(base);
    yield* base.fixed();
  } finally {
    held.close();
  }
}
