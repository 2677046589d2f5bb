// What `--base`, `--head` and `--baseline` name (cli-contract.md §8): a scan id, `latest` (a base only) or a
// file; and how each becomes a set of findings.
import type { Finding, Scan } from '../../api/findings-types.js';
import { getScan, listScans } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import { isFailed, isFinal } from '../../api/scan-status.js';
import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http/client.js';
import { BaseIndex } from '../diff.js';
import { isFileRef, readFindingsFile } from './file.js';
import { scanFindings } from './findings.js';
import { readPages } from './pages.js';

export type Ref =
  | { kind: 'scan'; id: string }
  | { kind: 'latest' }
  | { kind: 'file'; path: string; items?: AsyncIterable<Finding> };

/**
 * Checks the files that refs name, every item of them (exit 2 naming the file and what is wrong), before any
 * request is sent and before anything is written: a bad line deep in a head file is never found half way
 * through a report. The read streams (memory stays flat); the file is read again when it is compared.
 */
export async function openFileRefs(...refs: Ref[]): Promise<void> {
  for (const ref of refs) {
    if (ref.kind !== 'file') continue;
    ref.items ??= readFindingsFile(ref.path);
    for await (const f of ref.items) void f;
  }
}

/** Parses a ref; a file ref's file is checked later, still before any request. */
export function parseRef(raw: string, flag: string): Ref {
  const value = raw.trim();
  if (value === '') throw new UsageError(`${flag} must not be empty`);
  if (value === 'latest') {
    if (flag === '--head')
      throw new UsageError('--head latest: latest names a base only; give a scan id or a file');
    return { kind: 'latest' };
  }
  if (isFileRef(value)) return { kind: 'file', path: value };
  if (/[\s?#]/.test(value) || value === '.' || value === '..')
    throw new UsageError(`invalid scan id "${raw}" for ${flag}`);
  return { kind: 'scan', id: value };
}

export function describeRef(ref: Ref): string {
  return ref.kind === 'scan' ? `scan ${ref.id}` : ref.kind === 'file' ? ref.path : 'the latest scan';
}

/**
 * A scan whose findings can be compared: it exists (else exit 5) and is final (else exit 2 with a hint to wait
 * for it first). A failed scan has no findings to compare (exit 2 too).
 */
export async function finalScan(client: ApiClient, id: string, flag: string): Promise<Scan> {
  const scan = await getScan(client, id);
  // As scans wait does (§2): an answer about another scan is never compared, gated on or read for findings.
  // The MCP server's wording (neutral) names neither the service's status nor its id, nor a flag: the argument.
  const arg = flag.replace(/^--/, '');
  if (scan.scan_id !== id)
    throw new CliError(`${flag}: the service answered about scan ${scan.scan_id} when asked for scan ${id}`, {
      neutral: `${arg}: the service answered about another scan when asked for scan ${id}; nothing was compared`,
    });
  if (!isFinal(scan.status))
    throw new UsageError(`${flag} scan ${id} is still ${scan.status}: it has no final findings yet`, {
      hint: `wait for it first: cssctl scans wait ${id}`,
      neutral: `${arg}: scan ${id} is not final yet, so it has no findings to compare (call wait_scan first; get_scan shows its status)`,
    });
  if (isFailed(scan.status))
    throw new UsageError(`${flag} scan ${id} ${scan.status}: it has no findings to compare`, {
      neutral: `${arg}: scan ${id} did not complete, so it has no findings to compare (get_scan shows its status)`,
    });
  return scan;
}

/**
 * `latest`: the newest completed scan of the head's connection created before it, found over every page of
 * `GET /scans?status=completed` whatever order the service lists them in. Undefined when there is none.
 */
export async function latestBefore(ctx: Context, client: ApiClient, head: Scan): Promise<Scan | undefined> {
  const headAt = Date.parse(String(head.created_at ?? ''));
  const pager = readPages<Scan>(
    ctx.io,
    (offset, limit) => listScans(client, { offset, limit, status: 'completed' }),
    { idOf: (s) => idOfObject(s, 'scan_id', 'id'), label: 'scans' },
  );
  let best: { scan: Scan; at: number } | undefined;
  for await (const s of pager) {
    if (s === null || typeof s !== 'object') continue;
    const id = String(s.scan_id ?? s.id ?? '');
    if (id === '' || id === head.scan_id) continue;
    if (s.connection_alias !== head.connection_alias) continue;
    if (typeof s.status === 'string' && s.status.toLowerCase() !== 'completed') continue;
    const at = Date.parse(String(s.created_at ?? ''));
    if (!Number.isFinite(at) || (Number.isFinite(headAt) && at >= headAt)) continue;
    if (best === undefined || at > best.at) best = { scan: { ...s, scan_id: id }, at };
  }
  return best?.scan;
}

/** The findings of a final scan, read whole. */
function findingsOfScan(ctx: Context, client: ApiClient, id: string, resume: string): AsyncIterable<Finding> {
  return scanFindings(ctx, client, id, [], resume);
}

export interface Base {
  index: BaseIndex;
  /** What the base was: `scan scn_1`, `./base.json`, or undefined when `latest` found no earlier scan. */
  label?: string;
}

/** Reads a base into memory (only what the comparison needs). */
export async function loadBase(
  ctx: Context,
  api: () => Promise<ApiClient>,
  ref: Ref,
  head: Scan | undefined,
  flag: string,
  resume: string,
  /** `--connection`, `--status`: only the findings this keeps are compared. */
  keep?: (f: Finding) => boolean,
): Promise<Base> {
  const index = new BaseIndex();
  let source: AsyncIterable<Finding>;
  let label: string;
  if (ref.kind === 'file') {
    source = ref.items ?? readFindingsFile(ref.path);
    label = ref.path;
  } else {
    const client = await api();
    let id: string;
    if (ref.kind === 'latest') {
      if (head === undefined) throw new UsageError(`${flag} latest needs a scan to compare with, not a file`);
      const found = await latestBefore(ctx, client, head);
      if (found === undefined) return { index };
      id = found.scan_id;
    } else {
      id = (await finalScan(client, ref.id, flag)).scan_id;
    }
    source = findingsOfScan(ctx, client, id, resume);
    label = `scan ${id}`;
  }
  for await (const f of source) if (f !== null && typeof f === 'object' && (keep?.(f) ?? true)) index.add(f);
  return { index, label };
}
