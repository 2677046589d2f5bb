// How a tool consumes a verb's result (src/report/result.ts) — the MCP server's counterpart of the terminal's
// render(): a record's value, one page of a list's source, the outcome of finish(). Nothing is decided here that
// the verb decides (which items, which are accepted risks, where the next page starts: pageEnd, as the table's
// hint has it).
import { CliError } from '../core/errors.js';
import { pageEnd } from '../core/format.js';
import type { ListSource } from '../core/output/index.js';
import type { Outcome, Output, Result } from '../report/result.js';
import { MAX_PAGE } from './schemas.js';

export interface Paging {
  limit: number;
  offset: number;
}

function outputs(result: Result): Output[] {
  return result.output === undefined ? [] : [result.output].flat();
}

/** The value of the result's record (or JSON value, or summary): the object the command prints with -o json. */
export function valueOf(result: Result): Record<string, unknown> {
  for (const o of outputs(result))
    if (o.kind === 'record' || o.kind === 'value' || o.kind === 'summary')
      return o.value as Record<string, unknown>;
  throw new Error('the command returned no record');
}

/** What the run came to (the gate, a failure, data for front ends): finish(), called once. */
export async function outcomeOf(result: Result): Promise<Outcome> {
  return (await result.finish?.()) ?? {};
}

export interface PageRead<T> {
  items: T[];
  /** Of the whole list; null when the service does not say. */
  total: number | null;
  position: { limit: number; offset: number; next_offset: number | null };
  /** Items the page read but a stage left out (the ignore file's accepted risks). */
  leftOut?: number;
}

/**
 * One page of the result's list: its source is read (it is one page already: the verb asked the service for
 * `limit` items from `offset`), at most `limit` items kept, and where the next page starts taken from the
 * source. With `skip`, the source is the whole list (a comparison must read every finding): it is read to its
 * end and the page is cut from it here, holding no more than `limit` items at a time.
 */
export async function pageOf<T = Record<string, unknown>>(
  result: Result,
  paging: Paging,
  opts: { skip?: boolean } = {},
): Promise<PageRead<T>> {
  const out = outputs(result).find((o) => o.kind === 'list' || o.kind === 'findings');
  if (!out || (out.kind !== 'list' && out.kind !== 'findings'))
    throw new Error('the command returned no list');
  const source = out.source as ListSource<T>;
  const limit = Math.min(paging.limit, MAX_PAGE);
  const { offset } = paging;
  const items: T[] = [];
  let seen = 0;
  for await (const item of source) {
    // An item that is not an object (a null in the page): the answer cannot be read, as the service sent it.
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new CliError(
        `the service's answer could not be read: item ${seen + 1} of the page is not an object`,
      );
    if (opts.skip) {
      if (seen >= offset && items.length < limit) items.push(item);
    } else if (items.length < limit) items.push(item);
    seen++;
  }
  if (opts.skip) {
    const next = offset + items.length < seen && items.length > 0 ? offset + items.length : null;
    return { items, total: seen, position: { limit, offset, next_offset: next } };
  }
  const left = source.leftOut?.();
  const info = await source.page?.();
  // A service that sent more than it was asked for: the page is cut at `limit`, and goes on from there.
  const end = seen > limit ? { next: offset + limit } : pageEnd(info, seen, left, limit);
  return {
    items,
    // A filter of cssctl's (connection, status): the service's total is not the count of what matches.
    total: info?.filtered ? null : (info?.total ?? null),
    // Never a next page that starts where this one did (a page whose items the list left out, all of them):
    // an assistant would ask for it again and again.
    position: { limit, offset, next_offset: end.next !== undefined && end.next > offset ? end.next : null },
    ...(left ? { leftOut: left.count } : {}),
  };
}
