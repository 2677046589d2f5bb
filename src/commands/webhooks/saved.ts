// Saved deliveries (cli-contract.md §11): what `webhooks listen --save <dir>` writes and `webhooks replay`
// reads. One JSON file per delivery, so it can be read, diffed, edited and replayed; the format is in
// docs/webhooks.md.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { clean } from './common.js';

/** Marks a file as a saved delivery, and its format's version. */
export const SAVED_FORMAT = 'cssctl-webhook-delivery/1';

/** A saved file larger than this is not one cssctl wrote (a delivery is at most 1 MiB, base64 is 4/3). */
const MAX_SAVED_BYTES = 4 * 1024 * 1024;

export interface SavedDelivery {
  format: typeof SAVED_FORMAT;
  /** ISO 8601, UTC, with milliseconds: when the receiver had read the whole body. */
  received_at: string;
  /** The payload's `event`, when it is a string (also in the file name). */
  event?: string;
  /** Request headers as received, names lower-cased; a repeated header is an array. */
  headers: Record<string, string | string[]>;
  /** `utf8`: `body` is the text, whose UTF-8 bytes are the raw body; `base64`: `body` is the raw bytes in base64. */
  body_encoding: 'utf8' | 'base64';
  body: string;
  /** Lowercase hex SHA-256 of the raw body, to notice a body edited by hand. */
  body_sha256: string;
}

/** A saved delivery read back: its file, and the raw body decoded. */
export interface LoadedDelivery {
  file: string;
  saved: SavedDelivery;
  raw: Buffer;
  receivedAt: number;
}

export function sha256Hex(raw: Uint8Array): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** The body as text when its UTF-8 decoding gives back exactly its bytes (BOM included); else undefined. */
export function utf8Exact(raw: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return undefined;
  }
  return Buffer.from(text, 'utf8').equals(raw) ? text : undefined;
}

/** An event name fit for a file name: letters, digits, `.`, `_`, `-`; anything else is `_`. */
function fileEvent(event: string | undefined): string {
  if (!event) return 'unknown';
  return (
    event
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 64) || 'unknown'
  );
}

/** `20261125T084100.123Z`: UTC, sortable, and free of `:` (which some file systems refuse). */
export function fileTime(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '');
}

/** `<UTC time>-<event>-<first 8 hex of the body's SHA-256>.json`. */
export function savedFileName(at: Date, event: string | undefined, raw: Buffer): string {
  return `${fileTime(at)}-${fileEvent(event)}-${sha256Hex(raw).slice(0, 8)}.json`;
}

export function toSaved(
  at: Date,
  event: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
): SavedDelivery {
  const text = utf8Exact(raw);
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) kept[name] = value;
  return {
    format: SAVED_FORMAT,
    received_at: at.toISOString(),
    ...(event === undefined ? {} : { event }),
    headers: kept,
    body_encoding: text === undefined ? 'base64' : 'utf8',
    body: text ?? raw.toString('base64'),
    body_sha256: sha256Hex(raw),
  };
}

/**
 * Writes one delivery into `dir` atomically (a temporary file in `dir`, then a rename), mode 0600; returns
 * the path. Throws a one-line CliError when it cannot (full disk, folder gone); nothing is left behind.
 */
export function saveDelivery(
  dir: string,
  at: Date,
  event: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
): string {
  const path = join(dir, savedFileName(at, event, raw));
  writeFileAtomic(path, `${JSON.stringify(toSaved(at, event, headers, raw), null, 2)}\n`, 0o600);
  return path;
}

function notSaved(file: string, why: string): UsageError {
  return new UsageError(`${clean(file)} is not a saved delivery: ${why}`, {
    hint: 'replay takes the files written by cssctl webhooks listen --save',
  });
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

/** Reads and checks one saved delivery; anything else is exit 2 naming the file. */
export function loadSaved(file: string): LoadedDelivery {
  let text: string;
  try {
    const st = statSync(file);
    // A FIFO or device would block the read (and with it Ctrl-C): a saved delivery is always a regular file.
    if (!st.isFile()) throw notSaved(file, 'not a regular file');
    if (st.size > MAX_SAVED_BYTES) throw notSaved(file, 'larger than any delivery');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${clean(file)}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notSaved(file, 'not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw notSaved(file, 'not a JSON object');
  const s = value as Record<string, unknown>;
  if (s.format !== SAVED_FORMAT) throw notSaved(file, `no "format": "${SAVED_FORMAT}"`);
  if (
    typeof s.received_at !== 'string' ||
    !ISO_UTC.test(s.received_at) ||
    Number.isNaN(Date.parse(s.received_at))
  )
    throw notSaved(file, '"received_at" is not an ISO 8601 UTC time');
  if (!s.headers || typeof s.headers !== 'object' || Array.isArray(s.headers))
    throw notSaved(file, '"headers" is not an object');
  for (const [name, v] of Object.entries(s.headers as object)) {
    // What a request may carry: a token for a name, no line breaks or NUL in a value.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw notSaved(file, `"${clean(name)}" is not a header name`);
    const values: unknown[] = Array.isArray(v) ? v : [v];
    if (!values.every((x) => typeof x === 'string' && !/[\r\n\0]/.test(x)))
      throw notSaved(file, `the header "${clean(name)}" is not a single-line string`);
  }
  if (typeof s.body !== 'string') throw notSaved(file, '"body" is not a string');
  let raw: Buffer;
  if (s.body_encoding === 'utf8') raw = Buffer.from(s.body, 'utf8');
  else if (s.body_encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s.body) || s.body.length % 4 !== 0)
      throw notSaved(file, '"body" is not base64');
    raw = Buffer.from(s.body, 'base64');
  } else throw notSaved(file, '"body_encoding" is neither "utf8" nor "base64"');
  if (s.event !== undefined && typeof s.event !== 'string') throw notSaved(file, '"event" is not a string');
  if (
    s.body_sha256 !== undefined &&
    (typeof s.body_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(s.body_sha256))
  )
    throw notSaved(file, '"body_sha256" is not a SHA-256 in lowercase hex');
  return { file, saved: s as unknown as SavedDelivery, raw, receivedAt: Date.parse(s.received_at) };
}

/** A checked saved delivery, without its body (replay reads each again when it sends it). */
export interface SavedEntry {
  file: string;
  receivedAt: number;
}

/**
 * The saved deliveries named by `paths` (files, or folders whose `*.json` files are taken), every one
 * checked before any is used, oldest first (by the time received, then by file name). Bodies are not kept,
 * so a folder of many deliveries is never all in memory at once.
 */
export function loadAllSaved(paths: string[]): SavedEntry[] {
  const files: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      throw new UsageError(`cannot read ${clean(p)}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (!isDir) {
      files.push(p);
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(p);
    } catch (err) {
      throw new UsageError(`cannot read ${clean(p)}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    const inside = names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort()
      .map((name) => join(p, name));
    if (inside.length === 0) throw new UsageError(`${clean(p)} holds no saved deliveries (*.json)`);
    files.push(...inside);
  }
  const unique = [...new Set(files)];
  const loaded = unique.map((file) => ({ file, receivedAt: loadSaved(file).receivedAt }));
  return loaded.sort(
    (a, b) => a.receivedAt - b.receivedAt || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
}
