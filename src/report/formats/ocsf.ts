// `-o ocsf`: one OCSF Detection Finding (class 2004, category Findings 2) per finding, one event a line
// (ndjson), the shape security lakes and SIEMs ingest (cli-contract.md §14). The events follow OCSF 1.6.0 and
// are checked in the tests against that release's own definitions (test/fixtures/ocsf, test/helpers/ocsf.ts).
// docs/ocsf.md is the mapping as a table; keep the two in step.
//
// Memory: each event is written as its finding arrives (a page at a time), nothing is held: flat in the count.
import type { Formatter, FormatterContext, ReportAbout } from '../../core/format.js';
import type { Finding } from '../../api/findings-types.js';
import { VERSION } from '../../version.js';
import { diffOf, type DiffState } from '../diff.js';
import { ignoredOf, type IgnoredInfo } from '../ignore/stage.js';
import { checkIdOf, fingerprintWithRule, ruleIdOf } from '../fingerprint.js';
import { OTHER, rankOf } from '../severity.js';
import { text } from '../text.js';
import { NonFindings } from './buckets.js';

/** The OCSF release the events follow, in every event's `metadata.version`. */
export const OCSF_VERSION = '1.6.0';
export const DETECTION_FINDING = { class_uid: 2004, class_name: 'Detection Finding' } as const;
export const FINDINGS_CATEGORY = { category_uid: 2, category_name: 'Findings' } as const;
/** What `metadata.product` calls the service that found the findings (service-api.md names it so). */
export const SERVICE_PRODUCT_NAME = 'Cloud Security Scanning Service';

/** `severity_id` and its caption, by cssctl's severity rank (0 critical … 4 info). */
const SEVERITY_IDS: readonly [number, string][] = [
  [5, 'Critical'],
  [4, 'High'],
  [3, 'Medium'],
  [2, 'Low'],
  [1, 'Informational'],
];

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
 * the service gave it (cssctl's own `fingerprint`, added to a diff's findings, is `finding_info.uid_alt`).
 */
const MAPPED = new Set(['id', 'title', 'severity', 'resource', 'created_at', 'description', 'remediation']);

export interface OcsfOptions {
  /** The time of an event whose finding has no readable `created_at` (default: now). */
  now?: () => number;
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

function epochMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

/** The finding's severity on OCSF's scale: 5 critical … 1 info; a word cssctl does not know is Other (99). */
export function severityOf(f: Finding): { severity_id: number; severity: string } {
  const r = rankOf(f);
  if (r < OTHER) {
    const [id, caption] = SEVERITY_IDS[r]!;
    return { severity_id: id, severity: caption };
  }
  const word = text(f.severity).trim();
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
}

function eventParts(f: Finding, now: () => number): EventParts {
  const info = diffOf(f);
  const ignored = info?.state === 'fixed' ? undefined : ignoredOf(f);
  const [activityId, activityName] = info ? STATE_ACTIVITY[info.state] : ACTIVITY.create;
  let status = statusOf(f);
  if (info?.state === 'fixed') status = { status_id: STATUS.resolved[0], status: STATUS.resolved[1] };
  if (ignored) status = { status_id: STATUS.suppressed[0], status: STATUS.suppressed[1] };
  const severity = severityOf(f);
  const created = epochMs(f.created_at);
  // The check that found it, as SARIF's ruleId: the service's rule_id/check_id, else a slug of the title.
  const rule = ruleIdOf(f);
  const check = checkIdOf(f);
  const fingerprint = info?.fingerprint ?? fingerprintWithRule(f, rule);
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
  body.time = created ?? now();
  if (title) body.message = title;
  body.is_alert = activityId !== ACTIVITY.close[0] && ignored === undefined;
  // An id is required: a finding without one is known by its fingerprint.
  const findingInfo: Record<string, unknown> = { uid: id || fingerprint };
  if (title) findingInfo.title = title;
  findingInfo.uid_alt = fingerprint;
  if (description) findingInfo.desc = description;
  if (created !== undefined) findingInfo.created_time = created;
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
    if (v === undefined || MAPPED.has(k)) continue;
    // The check id is the analytic's uid; the other of rule_id/check_id, when both are given, stays here.
    if (check !== undefined && (k === 'rule_id' || k === 'check_id') && text(v).trim() === check) continue;
    if (k === 'fingerprint' && (info || ignored)) continue;
    // No prototype: a field the service names `__proto__` is a field like any other, never lost.
    (unmapped ??= Object.create(null) as Record<string, unknown>)[k] = v;
  }
  if (ignored) (unmapped ??= Object.create(null) as Record<string, unknown>).ignored = ignoredJson(ignored);
  const originalTime = typeof f.created_at === 'string' && f.created_at !== '' ? f.created_at : undefined;
  return { body, originalTime, unmapped };
}

/** One finding as one Detection Finding event (as an object; ocsf() writes the same event as a line). */
export function ocsfEvent(
  f: Finding,
  metadata: Record<string, unknown>,
  now: () => number = Date.now,
): Record<string, unknown> {
  const { body, originalTime, unmapped } = eventParts(f, now);
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
export function ocsfLine(f: Finding, metadataJson: string, now: () => number = Date.now): string {
  const { body, originalTime, unmapped } = eventParts(f, now);
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
 * The formatter: a line per finding as it comes, ignored findings kept (as Suppressed, with their reason), items
 * that are not findings left out with a warning.
 */
export function ocsf(ctx: FormatterContext<Finding>, options: OcsfOptions = {}): Formatter<Finding> {
  const metadataJson = JSON.stringify(ocsfMetadata(ctx.about));
  const now = options.now ?? Date.now;
  const skipped = new NonFindings('ocsf');
  const line = (raw: Finding): string => {
    const f = skipped.accept(raw);
    return f ? ocsfLine(f, metadataJson, now) : '';
  };
  return {
    item: (item) => ctx.write(line(item)),
    items: (items) => {
      let out = '';
      for (const item of items) out += line(item);
      ctx.write(out);
    },
    end: () => skipped.warn(ctx),
  };
}
