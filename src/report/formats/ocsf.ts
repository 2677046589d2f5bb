// `-o ocsf`: one OCSF Detection Finding (class 2004, category Findings 2) per finding, one event a line
// (ndjson), the shape security lakes and SIEMs ingest (cli-contract.md §14). The events follow OCSF 1.6.0 and
// are checked in the tests against that release's own definitions (test/fixtures/ocsf, test/helpers/ocsf.ts).
// docs/ocsf.md is the mapping as a table; keep the two in step.
//
// Memory: each event is written as its finding arrives (a page at a time); what is held is a short key per
// fingerprint, to number one that occurs more than once (Uids below).
import type { Formatter, FormatterContext, ReportAbout } from '../../core/format.js';
import type { Finding } from '../../api/findings-types.js';
import { VERSION } from '../../version.js';
import { diffOf, type DiffState } from '../diff.js';
import { ignoredOf, type IgnoredInfo } from '../ignore/stage.js';
import { checkIdOf, fingerprintWithRule, ruleIdOf } from '../fingerprint.js';
import { text } from '../text.js';
import { NonFindings } from './buckets.js';

/** The OCSF release the events follow, in every event's `metadata.version`. */
export const OCSF_VERSION = '1.6.0';
export const DETECTION_FINDING = { class_uid: 2004, class_name: 'Detection Finding' } as const;
export const FINDINGS_CATEGORY = { category_uid: 2, category_name: 'Findings' } as const;
/** What `metadata.product` calls the service that found the findings (service-api.md names it so). */
export const SERVICE_PRODUCT_NAME = 'Cloud Security Scanning Service';

/**
 * `severity_id` and its caption by the service's word, trimmed and in any case: cssctl's five, and OCSF's own
 * words for its scale.
 */
const SEVERITY_IDS: Readonly<Record<string, readonly [number, string]>> = {
  critical: [5, 'Critical'],
  high: [4, 'High'],
  medium: [3, 'Medium'],
  low: [2, 'Low'],
  info: [1, 'Informational'],
  informational: [1, 'Informational'],
  fatal: [6, 'Fatal'],
  unknown: [0, 'Unknown'],
};

/** The finding activities of OCSF's Findings category. */
export const ACTIVITY = {
  create: [1, 'Create'],
  update: [2, 'Update'],
  close: [3, 'Close'],
} as const satisfies Record<string, readonly [number, string]>;

/** The Finding's `status_id` values. */
export const STATUS = {
  new: [1, 'New'],
  inProgress: [2, 'In Progress'],
  suppressed: [3, 'Suppressed'],
  resolved: [4, 'Resolved'],
  archived: [5, 'Archived'],
  deleted: [6, 'Deleted'],
} as const satisfies Record<string, readonly [number, string]>;

/** The service's own status words that name an OCSF finding status (anything else is Other, 99). */
const SERVICE_STATUS: Record<string, readonly [number, string]> = {
  new: STATUS.new,
  open: STATUS.new,
  active: STATUS.new,
  in_progress: STATUS.inProgress,
  'in progress': STATUS.inProgress,
  suppressed: STATUS.suppressed,
  resolved: STATUS.resolved,
  fixed: STATUS.resolved,
  closed: STATUS.resolved,
  archived: STATUS.archived,
  deleted: STATUS.deleted,
};

/** In a comparison, each state's activity (cli-contract.md §14: new Create, updated Update, fixed Close). */
const STATE_ACTIVITY: Record<DiffState, readonly [number, string]> = {
  new: ACTIVITY.create,
  updated: ACTIVITY.update,
  // Seen again, nothing changed: an update that changes nothing, never a second Create.
  unchanged: ACTIVITY.update,
  fixed: ACTIVITY.close,
};

/**
 * Fields of the finding that have a place of their own in the event; every other field goes to `unmapped` as
 * the service gave it (cssctl's own `fingerprint`, added to a diff's findings, is `finding_info.uid`).
 */
const MAPPED = new Set(['id', 'title', 'severity', 'resource', 'created_at', 'description', 'remediation']);

export interface OcsfOptions {
  /** The time of the export: an event whose finding has no readable `created_at` (default: now). */
  now?: () => number;
}

/** What an event takes beyond its finding. */
export interface EventExtras {
  /** `finding_info.uid` (default: the fingerprint; the formatter numbers a repeated one, see Uids). */
  uid?: string;
  /**
   * In a comparison, when the fix was seen (the head scan's time, as the service gave it): a Close event's
   * `time`; the export's time when it is missing or cannot be read.
   */
  fixSeen?: unknown;
}

/** `metadata`: the same for every event of one report. */
export function ocsfMetadata(about: ReportAbout | undefined): Record<string, unknown> {
  const url = serviceUrl(about?.service);
  return {
    version: OCSF_VERSION,
    product: { name: SERVICE_PRODUCT_NAME, ...(url ? { url_string: url } : {}) },
    ...(about?.workspace ? { tenant_uid: about.workspace } : {}),
    log_provider: 'cssctl',
    loggers: [{ name: 'cssctl', version: VERSION, product: { name: 'cssctl', version: VERSION } }],
  };
}

/** The service's address without any user or password it may carry (never written into a report). */
function serviceUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;

/** A number as epoch seconds or milliseconds, by its size: below 10^11 (the year 5138 in seconds) it is seconds. */
const SECONDS_BELOW = 1e11;
/** The largest time a JavaScript date holds (±100,000,000 days). */
const MAX_TIME = 8.64e15;

/**
 * A time as the service may give it, in epoch milliseconds: ISO 8601 text (without an offset, UTC — never the
 * machine's zone), or a number of epoch seconds or milliseconds. A date that does not exist (February 30, hour
 * 25) is never rolled over into another: it cannot be read, as anything else that is not a time (undefined).
 */
export function epochMsOf(v: unknown): number | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    const ms = Math.floor(Math.abs(v) < SECONDS_BELOW ? v * 1000 : v);
    return Math.abs(ms) <= MAX_TIME ? ms : undefined;
  }
  if (typeof v !== 'string') return undefined;
  const m = ISO_TIME.exec(v.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leap(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  // A leap second (:60) is the last moment of its minute.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (m[9] !== undefined) {
    const [oh, om] = [Number(m[10]), Number(m[11] ?? 0)];
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, Math.min(second, 59), second === 60 ? 999 : ms);
  return d.getTime() - offset;
}

function leap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** A value given for a time, or none (absent, null, empty text): nothing to read and nothing to keep. */
function given(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
}

/**
 * The finding's severity on OCSF's scale: 5 critical … 1 info (or informational), 6 fatal; the word trimmed, in
 * any case; another word is Other (99) with the service's word, none Unknown (0).
 */
export function severityOf(f: Finding): { severity_id: number; severity: string } {
  const word = text(f.severity).trim();
  const known = SEVERITY_IDS[word.toLowerCase()];
  if (known) return { severity_id: known[0], severity: known[1] };
  return word === '' ? { severity_id: 0, severity: 'Unknown' } : { severity_id: 99, severity: word };
}

/** The service's status word as an OCSF finding status; none given is New (nobody has reviewed it yet). */
export function statusOf(f: Finding): { status_id: number; status: string } {
  const word = text(f.status).trim();
  if (word === '') return { status_id: STATUS.new[0], status: STATUS.new[1] };
  const known = SERVICE_STATUS[word.toLowerCase()];
  return known ? { status_id: known[0], status: known[1] } : { status_id: 99, status: word };
}

/** An event without its metadata: the finding's own part, and what metadata and unmapped add to it. */
interface EventParts {
  body: Record<string, unknown>;
  /** `metadata.original_time`: created_at as the service wrote it. */
  originalTime?: string;
  unmapped?: Record<string, unknown>;
  /** created_at was given but is not a time cssctl can read (kept in unmapped). */
  unreadableTime?: boolean;
}

function eventParts(f: Finding, now: () => number, extras: EventExtras): EventParts {
  const info = diffOf(f);
  const fixed = info?.state === 'fixed';
  const ignored = fixed ? undefined : ignoredOf(f);
  const [activityId, activityName] = info ? STATE_ACTIVITY[info.state] : ACTIVITY.create;
  let status = statusOf(f);
  if (fixed) status = { status_id: STATUS.resolved[0], status: STATUS.resolved[1] };
  if (ignored) status = { status_id: STATUS.suppressed[0], status: STATUS.suppressed[1] };
  const severity = severityOf(f);
  const hasTime = given(f.created_at);
  const created = hasTime ? epochMsOf(f.created_at) : undefined;
  const unreadableTime = hasTime && created === undefined;
  // The check that found it, as SARIF's ruleId: the service's rule_id/check_id, else a slug of the title.
  const rule = ruleIdOf(f);
  const check = checkIdOf(f);
  const id = text(f.id);
  const title = text(f.title);
  const description = text(f.description);
  const remediation = text(f.remediation);
  const resource = text(f.resource);

  // Assigned in order (not spread): 200,000 events are written per export, and this is their cost.
  const body: Record<string, unknown> = {
    activity_id: activityId,
    activity_name: activityName,
    category_uid: FINDINGS_CATEGORY.category_uid,
    category_name: FINDINGS_CATEGORY.category_name,
    class_uid: DETECTION_FINDING.class_uid,
    class_name: DETECTION_FINDING.class_name,
    type_uid: DETECTION_FINDING.class_uid * 100 + activityId,
    type_name: `${DETECTION_FINDING.class_name}: ${activityName}`,
    severity_id: severity.severity_id,
    severity: severity.severity,
    status_id: status.status_id,
    status: status.status,
  };
  if (ignored) body.status_detail = ignored.reason;
  // A Close event happened when the fix was seen, not when the finding was first seen.
  body.time = fixed ? (epochMsOf(extras.fixSeen) ?? now()) : (created ?? now());
  if (title) body.message = title;
  body.is_alert = activityId !== ACTIVITY.close[0] && ignored === undefined;
  // The fingerprint: the same finding across scans, where the service's id changes with every scan.
  const findingInfo: Record<string, unknown> = {
    uid: extras.uid ?? info?.fingerprint ?? fingerprintWithRule(f, rule),
  };
  if (title) findingInfo.title = title;
  if (id) findingInfo.uid_alt = id;
  if (description) findingInfo.desc = description;
  if (created !== undefined) findingInfo.created_time = created;
  if (fixed && created !== undefined) findingInfo.first_seen_time = created;
  const analytic: Record<string, unknown> = { uid: rule };
  if (title) analytic.name = title;
  analytic.type_id = 1;
  analytic.type = 'Rule';
  findingInfo.analytic = analytic;
  body.finding_info = findingInfo;
  if (resource) body.resources = [{ uid: resource, name: resource, role_id: 1, role: 'Target' }];
  if (remediation) body.remediation = { desc: remediation };

  let unmapped: Record<string, unknown> | undefined;
  for (const k in f) {
    if (!Object.hasOwn(f, k)) continue;
    const v = f[k];
    if (v === undefined || (MAPPED.has(k) && !(k === 'created_at' && unreadableTime))) continue;
    // The check id is the analytic's uid; the other of rule_id/check_id, when both are given, stays here.
    if (check !== undefined && (k === 'rule_id' || k === 'check_id') && text(v).trim() === check) continue;
    if (k === 'fingerprint' && (info || ignored)) continue;
    // No prototype: a field the service names `__proto__` is a field like any other, never lost.
    (unmapped ??= Object.create(null) as Record<string, unknown>)[k] = v;
  }
  if (ignored) (unmapped ??= Object.create(null) as Record<string, unknown>).ignored = ignoredJson(ignored);
  const originalTime =
    created === undefined
      ? undefined
      : typeof f.created_at === 'string'
        ? f.created_at
        : String(f.created_at);
  return { body, originalTime, unmapped, unreadableTime };
}

/** One finding as one Detection Finding event (as an object; ocsf() writes the same event as a line). */
export function ocsfEvent(
  f: Finding,
  metadata: Record<string, unknown>,
  now: () => number = Date.now,
  extras: EventExtras = {},
): Record<string, unknown> {
  const { body, originalTime, unmapped } = eventParts(f, now, extras);
  return {
    ...body,
    metadata: { ...metadata, ...(originalTime !== undefined ? { original_time: originalTime } : {}) },
    ...(unmapped ? { unmapped } : {}),
  };
}

/**
 * The same event as one JSON line, with the metadata every event shares serialised once (`metadataJson`, an
 * object's JSON text) and spliced in.
 */
export function ocsfLine(
  f: Finding,
  metadataJson: string,
  now: () => number = Date.now,
  extras: EventExtras = {},
): string {
  return linesOf(eventParts(f, now, extras), metadataJson);
}

function linesOf({ body, originalTime, unmapped }: EventParts, metadataJson: string): string {
  const head = JSON.stringify(body);
  const meta =
    originalTime === undefined
      ? metadataJson
      : `${metadataJson.slice(0, -1)},"original_time":${JSON.stringify(originalTime)}}`;
  const tail = unmapped ? `,"unmapped":${JSON.stringify(unmapped)}` : '';
  return `${head.slice(0, -1)},"metadata":${meta}${tail}}\n`;
}

function ignoredJson(i: IgnoredInfo): Record<string, string> {
  return {
    reason: i.reason,
    expires: i.expires,
    source: i.source,
    ...(i.owner !== undefined ? { owner: i.owner } : {}),
  };
}

/**
 * `finding_info.uid` for each finding of one export: its fingerprint, and where the set holds a fingerprint more
 * than once, the later ones `#2`, `#3` … (cli-contract.md §14), so two findings never share a uid. Later means in
 * the order of their service ids among the findings of one page (a comparison's events come one at a time), and
 * in the order they are read across pages. What is held is the first 64 bits of each fingerprint seen, and a
 * count for those seen more than once.
 */
export class Uids {
  private readonly seen = new FingerprintSet();
  private readonly repeats = new Map<string, number>();

  /** The uid of the next finding with this fingerprint. */
  next(fingerprint: string): string {
    if (this.seen.add(fingerprint)) return fingerprint;
    const n = (this.repeats.get(fingerprint) ?? 1) + 1;
    this.repeats.set(fingerprint, n);
    return `${fingerprint}#${n}`;
  }
}

/**
 * The fingerprints seen, as the first 64 bits of each (an open-addressing table of two Uint32Arrays: 16 bytes a
 * fingerprint at most, where a Set of the strings would hold ~100); a fingerprint that is not hex text (one read
 * from a SARIF log another tool wrote) is kept whole.
 */
class FingerprintSet {
  private hi = new Uint32Array(1024);
  private lo = new Uint32Array(1024);
  private used = new Uint8Array(1024);
  private size = 0;
  private readonly other = new Set<string>();

  /** Adds it; false when it was there already. */
  add(fp: string): boolean {
    if (!/^[0-9a-f]{16}/.test(fp)) {
      if (this.other.has(fp)) return false;
      this.other.add(fp);
      return true;
    }
    const hi = parseInt(fp.slice(0, 8), 16) >>> 0;
    const lo = parseInt(fp.slice(8, 16), 16) >>> 0;
    const mask = this.used.length - 1;
    let i = lo & mask;
    while (this.used[i]) {
      if (this.hi[i] === hi && this.lo[i] === lo) return false;
      i = (i + 1) & mask;
    }
    this.used[i] = 1;
    this.hi[i] = hi;
    this.lo[i] = lo;
    if (++this.size * 2 > this.used.length) this.grow();
    return true;
  }

  private grow(): void {
    const [hi, lo, used] = [this.hi, this.lo, this.used];
    const n = used.length * 2;
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.used = new Uint8Array(n);
    const mask = n - 1;
    for (let j = 0; j < used.length; j++) {
      if (!used[j]) continue;
      let i = lo[j]! & mask;
      while (this.used[i]) i = (i + 1) & mask;
      this.used[i] = 1;
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
    }
  }
}

/** Service ids in order: numbers by value, other text by its code units. */
function byId(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The formatter: a line per finding as it comes, ignored findings kept (as Suppressed, with their reason), items
 * that are not findings left out with a warning, and one warning for times it could not read.
 */
export function ocsf(ctx: FormatterContext<Finding>, options: OcsfOptions = {}): Formatter<Finding> {
  const metadataJson = JSON.stringify(ocsfMetadata(ctx.about));
  const now = options.now ?? Date.now;
  const fixSeen = ctx.about?.fixSeen;
  const skipped = new NonFindings('ocsf');
  const uids = new Uids();
  let unreadable = 0;
  const line = (f: Finding, uid: string): string => {
    const parts = eventParts(f, now, { uid, fixSeen });
    if (parts.unreadableTime) unreadable++;
    return linesOf(parts, metadataJson);
  };
  const fingerprintOfEvent = (f: Finding) => diffOf(f)?.fingerprint ?? fingerprintWithRule(f, undefined);
  return {
    item: (item) => {
      const f = skipped.accept(item);
      if (f) ctx.write(line(f, uids.next(fingerprintOfEvent(f))));
    },
    items: (items) => {
      const findings: Finding[] = [];
      for (const item of items) {
        const f = skipped.accept(item);
        if (f) findings.push(f);
      }
      const fps = findings.map(fingerprintOfEvent);
      // Within the page, a repeated fingerprint is numbered in the order of the service ids.
      const order = findings.map((_, i) => i);
      const firstAt = new Map<string, number>();
      let repeated = false;
      for (const [i, fp] of fps.entries()) {
        if (firstAt.has(fp)) repeated = true;
        else firstAt.set(fp, i);
      }
      if (repeated)
        order.sort(
          (a, b) =>
            firstAt.get(fps[a]!)! - firstAt.get(fps[b]!)! ||
            byId(text(findings[a]!.id), text(findings[b]!.id)) ||
            a - b,
        );
      const uid = new Array<string>(findings.length);
      for (const i of order) uid[i] = uids.next(fps[i]!);
      let out = '';
      for (const [i, f] of findings.entries()) out += line(f, uid[i]!);
      ctx.write(out);
    },
    end: () => {
      skipped.warn(ctx);
      if (unreadable > 0)
        ctx.io.warn(
          `ocsf: ${unreadable} finding${unreadable === 1 ? ' has a created_at' : 's have a created_at'} that is not a time cssctl can read: kept in unmapped.created_at, the event's time is the export's`,
        );
    },
  };
}
