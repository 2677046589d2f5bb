// Checks on query strings and JSON bodies, shared by the routes.
import { ApiError, badParameter, validationError, type FieldError } from './errors.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface PageRules {
  defaultPageSize: number;
  maxPageSize: number;
}

const DIGITS = /^\d+$/;

/** limit: integer ≥ 1, clamped to the maximum; offset: integer ≥ 0. Anything else is a 400. */
export function parsePage(query: URLSearchParams, rules: PageRules): Page {
  let limit = rules.defaultPageSize;
  const limitText = query.get('limit');
  if (limitText !== null) {
    if (!DIGITS.test(limitText)) throw badParameter('limit', 'limit must be a positive integer');
    limit = Number(limitText);
    if (limit < 1) throw badParameter('limit', 'limit must be at least 1');
  }
  let offset = 0;
  const offsetText = query.get('offset');
  if (offsetText !== null) {
    if (!DIGITS.test(offsetText)) throw badParameter('offset', 'offset must be a non-negative integer');
    offset = Number(offsetText);
    if (!Number.isSafeInteger(offset)) throw badParameter('offset', 'offset is too large');
  }
  return { limit: Math.min(limit, rules.maxPageSize), offset };
}

/** `{total, <name>: [...], limit, offset}`: the list shape of the spec. */
export function paginate<T>(name: string, items: readonly T[], page: Page): Record<string, unknown> {
  return {
    total: items.length,
    [name]: items.slice(page.offset, page.offset + page.limit),
    limit: page.limit,
    offset: page.offset,
  };
}

/** A query value checked case-insensitively against allowed values; undefined when absent. */
export function parseChoice<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = raw.trim().toLowerCase();
  const match = allowed.find((a) => a === value);
  if (match === undefined) {
    throw badParameter(name, `${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return match;
}

export type JsonObject = Record<string, unknown>;

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '')
    throw new ApiError(400, 'invalid_json', 'request body is empty; a JSON object is expected');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_json', 'request body is not valid JSON');
  }
}

export function requireObject(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError([{ field: 'body', detail: 'request body must be a JSON object' }]);
  }
  return body as JsonObject;
}

/** Collects field errors so a 422 lists them all at once. */
export class FieldChecker {
  readonly errors: FieldError[] = [];

  constructor(private readonly body: JsonObject) {}

  /** A required, non-blank string; undefined (with an error noted) otherwise. */
  string(field: string): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return this.fail(field, `${field} is required`);
    if (typeof value !== 'string') return this.fail(field, `${field} must be a string`);
    if (value.trim() === '') return this.fail(field, `${field} must not be empty`);
    return value;
  }

  fail(field: string, detail: string): undefined {
    this.errors.push({ field, detail });
    return undefined;
  }

  /** Throws the 422 if any field failed. */
  done(): void {
    if (this.errors.length > 0) throw validationError(this.errors);
  }
}
