// The JSON Schemas of the tools' inputs and outputs (cli-contract.md §13). An input schema refuses every
// property it does not name and every value outside the contract (a severity, a status, a limit over 200), so a
// call is refused before any request with a message naming the valid values; every result's structuredContent
// validates against its output schema (test/unit/mcp-tools.test.ts checks each with ajv).
import { SCAN_STATUSES, SEVERITIES } from '../api/findings-types.js';
import { DIFF_STATES } from '../report/diff.js';
import { SUMMARY_GROUPINGS } from '../report/summary-view.js';

export type Schema = Record<string, unknown>;

/** At most this many items in one result (cli-contract.md §13). */
export const MAX_PAGE = 200;
/** A page when the call does not say. */
export const DEFAULT_PAGE = 50;
/** The longest wait_scan may wait, in seconds. */
export const MAX_WAIT_S = 900;
export const DEFAULT_WAIT_S = 300;

export const objectOf = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** An id the service gave (a scan's, a finding's): as the commands take it — no space, `/`, `?` or `#`. */
const ID = '^(?!\\.{1,2}$)[^\\s/?#]{1,200}$';
export const id = (description: string): Schema => ({ type: 'string', pattern: ID, description });

/** What a pattern error says the value must be, by property (the schema's own words would be a regex). */
export const PATTERN_MEANS: Record<string, string> = {
  scan_id: 'a scan id (no spaces, "/", "?" or "#")',
  finding_id: 'a finding id (no spaces, "/", "?" or "#")',
  base: 'a scan id or latest',
  head: 'a scan id',
  connection: 'a connection alias (no control characters)',
  expires: 'YYYY-MM-DD, <n>d (such as 30d) or never',
  reason: 'a reason that is not empty',
};

export const severity: Schema = { type: 'string', enum: [...SEVERITIES] };
export const severities = (description: string): Schema => ({
  type: 'array',
  items: severity,
  uniqueItems: true,
  minItems: 1,
  description,
});
/** `connection` and `status` of the findings and scans tools: filters cssctl applies while it pages. */
const texts = (description: string): Schema => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
  uniqueItems: true,
  minItems: 1,
  description,
});
export const connections = (what: string): Schema =>
  texts(`only the ${what} of these connections (aliases, any case; filtered by cssctl while it pages)`);
export const findingStatuses: Schema = texts(
  'only findings whose own status is one of these, such as open (any case; filtered by cssctl while it pages)',
);
export const limit: Schema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_PAGE,
  default: DEFAULT_PAGE,
  description: `items in this page (at most ${MAX_PAGE})`,
};
export const offset: Schema = {
  type: 'integer',
  minimum: 0,
  default: 0,
  description: 'start at this item (the next_offset of the page before)',
};
export const scanStatus: Schema = {
  type: 'string',
  enum: [...SCAN_STATUSES],
  description: 'only scans with this status',
};
export const grouping: Schema = {
  type: 'string',
  enum: [...SUMMARY_GROUPINGS],
  default: 'severity',
  description: 'what to count by; severity costs one request per severity, the others read every finding',
};
export const states: Schema = {
  type: 'array',
  items: { type: 'string', enum: [...DIFF_STATES] },
  uniqueItems: true,
  minItems: 1,
  description: 'only show findings in these states (the counts are of all)',
};
/** A base: a scan id, or latest (the newest completed scan of the head's connection before it). */
export const baseRef: Schema = {
  type: 'string',
  pattern:
    '^(?!.*\\.(?:[jJ][sS][oO][nN]|[nN][dD][jJ][sS][oO][nN]|[sS][aA][rR][iI][fF])$)(?!\\.{1,2}$)[^\\s/?#]{1,200}$',
  description: "a scan id, or latest: the newest completed scan of the head's connection before the head",
};
export const headRef: Schema = {
  type: 'string',
  pattern:
    '^(?!latest$)(?!.*\\.(?:[jJ][sS][oO][nN]|[nN][dD][jJ][sS][oO][nN]|[sS][aA][rR][iI][fF])$)(?!\\.{1,2}$)[^\\s/?#]{1,200}$',
  description: 'the scan id of a final scan (completed or failed) whose findings are compared with the base',
};

// ---- outputs ----------------------------------------------------------------------------------------------

const int: Schema = { type: 'integer', minimum: 0 };
const intOrNull: Schema = { type: ['integer', 'null'], minimum: 0 };
const stringOrNull: Schema = { type: ['string', 'null'] };
/** What the service sent: any object (its fields are data, and untrusted). */
const serviceObject: Schema = { type: 'object' };
const fingerprint: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const scanRecord = (more: Record<string, Schema> = {}, required: string[] = []): Schema => ({
  type: 'object',
  properties: { scan_id: { type: 'string' }, status: { type: 'string' }, ...more },
  required: ['scan_id', 'status', ...required],
});
const ignoredInfo: Schema = {
  type: 'object',
  properties: {
    reason: { type: 'string' },
    expires: { type: 'string' },
    source: { type: 'string' },
    owner: { type: 'string' },
  },
  required: ['reason', 'expires', 'source'],
};
export const finding: Schema = {
  type: 'object',
  properties: { fingerprint, ignored: ignoredInfo },
  required: ['fingerprint'],
};
const severityCounts: Schema = {
  type: 'object',
  properties: Object.fromEntries(SEVERITIES.map((s) => [s, int])),
  additionalProperties: false,
};

/** `{total, <items>, limit, offset, next_offset}`: one page of a list (total null when the service does not say). */
export const page = (items: string, item: Schema, more: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  properties: {
    total: intOrNull,
    [items]: { type: 'array', items: item, maxItems: MAX_PAGE },
    limit: int,
    offset: int,
    next_offset: intOrNull,
    ...more,
  },
  required: ['total', items, 'limit', 'offset', 'next_offset', ...Object.keys(more)],
  additionalProperties: false,
});

/**
 * `cssctl compliance -o json`: the service's object as it is — at least `score` (0–100), and `threshold` and the
 * time it was computed where the service gives them; any other field it sends is kept.
 */
export const compliance: Schema = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 100 },
    threshold: { type: 'number', minimum: 0, maximum: 100 },
  },
  required: ['score'],
};

export const authStatus: Schema = {
  type: 'object',
  properties: {
    profile: { type: 'string' },
    base_url: stringOrNull,
    workspace: stringOrNull,
    email: stringOrNull,
    token_source: { type: 'string', enum: ['keychain', 'file', 'env'] },
    expires_at: stringOrNull,
    expired: { type: ['boolean', 'null'] },
    refreshable: { type: 'boolean' },
  },
  required: [
    'profile',
    'base_url',
    'workspace',
    'email',
    'token_source',
    'expires_at',
    'expired',
    'refreshable',
  ],
  additionalProperties: false,
};

export const connectionsPage = page('connections', serviceObject);
export const scansPage = page('scans', scanRecord());
export const findingsPage = page('findings', finding, { ignored: int });

export const waitResult = scanRecord(
  {
    gate: {
      type: 'object',
      properties: {
        fail_on: { type: ['string', 'null'], enum: [...SEVERITIES, null] },
        failed: { type: 'boolean' },
        counts: severityCounts,
      },
      required: ['fail_on', 'failed', 'counts'],
      additionalProperties: false,
    },
  },
  ['gate'],
);

export const summaryResult: Schema = {
  type: 'object',
  properties: {
    by: { type: 'string', enum: [...SUMMARY_GROUPINGS] },
    total: int,
    groups: {
      type: 'array',
      maxItems: MAX_PAGE,
      items: {
        type: 'object',
        properties: {
          key: { type: 'string' },
          count: int,
          by_severity: { type: 'object', additionalProperties: int },
        },
        required: ['key', 'count', 'by_severity'],
        additionalProperties: false,
      },
    },
    ignored: int,
    groups_total: int,
  },
  required: ['by', 'total', 'groups'],
  additionalProperties: false,
};

export const diffResult = page(
  'findings',
  {
    type: 'object',
    properties: {
      state: { type: 'string', enum: [...DIFF_STATES] },
      fingerprint,
      previous_severity: { type: 'string' },
      why: { type: 'string', enum: ['new-rule', 'new-resource', 'ignore-expired', 'other'] },
      ignored: ignoredInfo,
    },
    required: ['state', 'fingerprint'],
  },
  {
    counts: {
      type: 'object',
      properties: Object.fromEntries(DIFF_STATES.map((s) => [s, int])),
      required: [...DIFF_STATES],
      additionalProperties: false,
    },
    base: stringOrNull,
  },
);

export const ignoreResult: Schema = {
  type: 'object',
  properties: {
    file: { type: 'string' },
    expires: { type: 'string' },
    added: { type: 'array', items: fingerprint },
    already_ignored: { type: 'boolean' },
  },
  required: ['file', 'expires', 'added', 'already_ignored'],
  additionalProperties: false,
};

export { fingerprint as fingerprintSchema, serviceObject };
