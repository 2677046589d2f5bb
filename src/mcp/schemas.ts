// The JSON Schemas of the tools' inputs and outputs (cli-contract.md §13). An input schema refuses every
// property it does not name and every value outside the contract (a severity, a status, a limit over 200), so a
// call is refused before any request with a message naming the valid values; every result's structuredContent
// validates against its output schema (test/unit/mcp-tools.test.ts checks each with ajv).
//
// The input schemas keep their literal types (`as const`, and builders whose result type is the schema they
// build), so that a tool's input type is read from its schema (InputOf: json-schema-to-ts's FromSchema, types
// only): a handler that reads a property its schema does not name, or an optional one as if it were given, does
// not compile.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { SCAN_STATUSES, SEVERITIES } from '../api/findings-types.js';
import { DIFF_STATES } from '../report/diff.js';
import { SUMMARY_GROUPINGS } from '../report/summary-view.js';

export type Schema = Record<string, unknown>;

/** The schema of an input, or of one of its properties, with its literal type. */
export type InputSchema = Exclude<JSONSchema, boolean>;

/**
 * A tool's input as its schema describes it, once the schema's check has passed (ajv, which fills in the
 * defaults: a property with a default is always there).
 */
// (Behind a conditional type: for a schema not known yet — a generic one — it stays unresolved instead of
// expanding FromSchema's every case.)
export type InputOf<S extends InputSchema> = S extends InputSchema ? FromSchema<S> : never;

/** At most this many items in one result (cli-contract.md §13). */
export const MAX_PAGE = 200;
/** A page when the call does not say. */
export const DEFAULT_PAGE = 50;
/** The longest wait_scan may wait, in seconds. */
export const MAX_WAIT_S = 900;
export const DEFAULT_WAIT_S = 300;

type Properties = Readonly<Record<string, InputSchema>>;
type Names<P extends Properties> = readonly [keyof P & string, ...(keyof P & string)[]];

/** An object that takes the properties `P` and no other, each of which may be left out. */
export type ObjectOf<P extends Properties> = {
  readonly type: 'object';
  readonly properties: P;
  readonly additionalProperties: false;
};
/** An object that takes the properties `P` and no other, of which those named by `R` are required. */
export type ObjectWith<P extends Properties, R extends Names<P>> = {
  readonly type: 'object';
  readonly properties: P;
  readonly required: R;
  readonly additionalProperties: false;
};

/**
 * A tool's input: these properties and no other. Its type is the schema it builds — `required` only when it
 * names a property (one at least), each one of `properties` — so the input type can be read from it.
 */
export function objectOf<const P extends Properties>(properties: P): ObjectOf<P>;
export function objectOf<const P extends Properties, const R extends Names<P>>(
  properties: P,
  required: R,
): ObjectWith<P, R>;
export function objectOf(properties: Properties, required: readonly string[] = []): Schema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * An id the service gave (a scan's, a finding's): as the commands take it — no space, `/`, `?` or `#` — and no
 * control character (C0, DEL, C1), which no id has and which would reach a URL or a message.
 */
const NOT_ID = '\\s/?#\\0-\\x1f\\x7f-\\x9f';
// Not `.` or `..` (another path of the service's URL).
const ID = `^(?!\\.\\.?$)[^${NOT_ID}]{1,200}$`;

/** YYYY-MM-DD (a day the calendar has: 2026-02-30 is refused; 29 February is checked when the call runs), <n>d, never. */
export const EXPIRES =
  '^(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2\\d))|\\d{1,5}d|never)$';
/** A text property (a pattern, a description: neither changes its type). */
export type Text = { readonly type: 'string'; readonly pattern: string; readonly description?: string };
export const id = (description?: string): Text => ({
  type: 'string',
  pattern: ID,
  ...(description ? { description } : {}),
});

/** What a pattern error says the value must be, by property (the schema's own words would be a regex). */
export const PATTERN_MEANS: Record<string, string> = {
  scan_id: 'a scan id (no spaces, control characters, "/", "?" or "#", and not "." or "..")',
  finding_id: 'a finding id (no spaces, control characters, "/", "?" or "#", and not "." or "..")',
  base: 'a scan id or latest',
  head: 'a scan id',
  connection: 'a connection alias (no control characters)',
  expires: 'a day of the calendar (YYYY-MM-DD), <n>d (such as 30d) or never',
  reason: 'a reason that is not empty',
};

export const severity = { type: 'string', enum: [...SEVERITIES] } as const;
export const severities = (
  description?: string,
): {
  readonly type: 'array';
  readonly items: typeof severity;
  readonly minItems: 1;
  readonly description?: string;
} => ({
  type: 'array',
  items: severity,
  minItems: 1,
  ...(description ? { description } : {}),
});
/**
 * `connection` and `status` of the findings and scans tools: filters cssctl applies while it pages. Kept bare (the
 * default tools/list stays within 8 KiB): an empty value is refused by the filter itself, as in the CLI.
 */
const texts = { type: 'array', items: { type: 'string' } } as const;
export const connections = () => texts;
export const findingStatuses = texts;
export const limit = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_PAGE,
  default: DEFAULT_PAGE,
} as const;
export const offset = {
  type: 'integer',
  minimum: 0,
  default: 0,
} as const;
export const scanStatus = {
  type: 'string',
  enum: [...SCAN_STATUSES],
} as const;
export const grouping = {
  type: 'string',
  enum: [...SUMMARY_GROUPINGS],
  default: 'severity',
} as const;
export const states = {
  type: 'array',
  items: { type: 'string', enum: [...DIFF_STATES] },
  minItems: 1,
} as const;
/** A base: a scan id, or latest (the newest completed scan of the head's connection before it). */
export const baseRef = {
  type: 'string',
  pattern: `^(?!.*\\.(?:([nN][dD])?[jJ][sS][oO][nN]|[sS][aA][rR][iI][fF])$)(?!\\.\\.?$)[^${NOT_ID}]{1,200}$`,
} as const;
export const headRef = {
  type: 'string',
  pattern: `^(?!latest$)(?!.*\\.(?:([nN][dD])?[jJ][sS][oO][nN]|[sS][aA][rR][iI][fF])$)(?!\\.\\.?$)[^${NOT_ID}]{1,200}$`,
} as const;

// ---- outputs ----------------------------------------------------------------------------------------------

// Kept short: every byte of tools/list is in an assistant's context (the default list stays within 8 KiB).
const int: Schema = { type: 'integer', minimum: 0 };
const intOrNull: Schema = { type: ['integer', 'null'] };
const stringOrNull: Schema = { type: ['string', 'null'] };
const str: Schema = { type: 'string' };
/** What the service sent: any object (its fields are data, and untrusted). */
const serviceObject: Schema = { type: 'object' };
const fingerprint: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const scanRecord = (more: Record<string, Schema> = {}, required: string[] = []): Schema => ({
  type: 'object',
  properties: { scan_id: str, status: str, ...more },
  required: ['scan_id', 'status', ...required],
});
/** A scan in a list: a scan_id and a status, as text (list_scans reads each as get_scan does). */
const scanItem: Schema = { type: 'object', required: ['scan_id', 'status'] };
export const finding: Schema = {
  type: 'object',
  properties: { fingerprint },
  required: ['fingerprint'],
};
/** A finding in a page: with its fingerprint (kept short: the page's items are findings as get_finding gives). */
const findingItem: Schema = { type: 'object', required: ['fingerprint'] };
const severityCounts: Schema = { type: 'object', additionalProperties: int };

/** `{total, <items>, limit, offset, next_offset}`: one page of a list (total null when the service does not say). */
export const page = (items: string, item: Schema, more: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  properties: {
    total: intOrNull,
    [items]: { type: 'array', items: item },
    next_offset: intOrNull,
    ...more,
  },
  required: ['total', items, 'limit', 'offset', 'next_offset', ...Object.keys(more)],
});

/**
 * `cssctl compliance -o json`: the service's object as it is — at least `score` (0–100), and `threshold` and the
 * time it was computed where the service gives them; any other field it sends is kept.
 */
export const compliance: Schema = {
  type: 'object',
  properties: {
    score: { type: 'number' },
    // null: the service set none (an optional number), as the CLI reads it (0–100 is checked by the verb).
    threshold: { type: ['number', 'null'] },
  },
  required: ['score'],
};

export const authStatus: Schema = {
  type: 'object',
  properties: { profile: str, token_source: { enum: ['keychain', 'file', 'env'] } },
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
};

export const connectionsPage = page('connections', serviceObject);
export const scansPage = page('scans', scanItem);
export const findingsPage = page('findings', findingItem, { ignored: int });

export const waitResult = scanRecord(
  {
    gate: {
      type: 'object',
      properties: {
        failed: { type: 'boolean' },
        counts: severityCounts,
      },
      required: ['fail_on', 'failed', 'counts'],
    },
  },
  ['gate'],
);

export const summaryResult: Schema = {
  type: 'object',
  properties: {
    by: str,
    total: int,
    groups: {
      type: 'array',
      maxItems: MAX_PAGE,
      items: {
        type: 'object',
        properties: { key: str, count: int },
        required: ['key', 'count', 'by_severity'],
      },
    },
  },
  required: ['by', 'total', 'groups'],
};

export const diffResult = page(
  'findings',
  {
    type: 'object',
    properties: {
      state: { enum: [...DIFF_STATES] },
    },
    required: ['state', 'fingerprint'],
  },
  {
    counts: {
      type: 'object',
      properties: Object.fromEntries(DIFF_STATES.map((s) => [s, int])),
      required: [...DIFF_STATES],
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
