// What the webhook verbs share: the event list, the URL rule, where the signing secret comes from.
import { readUserFile } from '../../core/read-file.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../core/url.js';
import { EVENT_TYPES, isEventType, type EventType } from '../../api/webhooks.js';

/** `scan.completed,finding.critical` or `all`; case-insensitive, repeats dropped, anything else exit 2. */
export function parseEvents(raw: string): EventType[] {
  const parts = raw
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '');
  if (parts.length === 0)
    throw new UsageError(`--events is empty: give one or more of ${EVENT_TYPES.join(', ')}, or all`);
  if (parts.includes('all')) {
    if (parts.length > 1) throw new UsageError('--events all stands alone: it already means every event');
    return [...EVENT_TYPES];
  }
  const events: EventType[] = [];
  for (const p of parts) {
    if (!isEventType(p)) {
      throw new UsageError(`unknown event "${clean(p)}": expected ${EVENT_TYPES.join(', ')} or all`);
    }
    if (!events.includes(p)) events.push(p);
  }
  return events;
}

export function parseEvent(raw: string): EventType {
  const e = raw.trim().toLowerCase();
  if (!isEventType(e))
    throw new UsageError(`unknown event "${clean(raw)}": expected ${EVENT_TYPES.join(', ')}`);
  return e;
}

/**
 * A URL deliveries go to: `https://`, or `http://` for a loopback host only (it never leaves the machine).
 * `onPlainHttp` is told when plain http is used, so a command can warn.
 */
export function webhookUrl(raw: string, flag: string, onPlainHttp?: (url: URL) => void): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(
      `${flag} "${clean(raw)}" is not a URL: expected something like https://hooks.example.com/cssctl`,
    );
  }
  if (url.username || url.password) throw new UsageError(`${flag} must not contain credentials`);
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol !== 'http:')
    throw new UsageError(`${flag} must be an https:// URL (got ${clean(url.protocol)})`);
  if (!isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${flag}: plain http:// is allowed only for loopback hosts (localhost, 127.0.0.0/8, [::1]); use https:// for ${clean(url.hostname)}`,
    );
  }
  onPlainHttp?.(url);
  return url.toString();
}

/** A secret given in a file (a FIFO or <(…) too, Ctrl-C still heard): its text without one trailing line ending. */
export async function readSecretFile(path: string, signal?: AbortSignal): Promise<string> {
  const text = (await readUserFile(path, { what: '--secret-file', signal, maxBytes: 64 * 1024 })).toString(
    'utf8',
  );
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError(`--secret-file ${path} is empty`);
  return secret;
}

/**
 * The signing secret for verify, listen and trigger: `--secret-file` (a flag beats the environment), else
 * CSSCTL_WEBHOOK_SECRET. Registered for redaction, so it can never reach stderr.
 */
export async function signingSecret(ctx: Context, secretFile: string | undefined): Promise<string> {
  const secret =
    secretFile !== undefined ? await readSecretFile(secretFile, ctx.signal) : ctx.env.CSSCTL_WEBHOOK_SECRET;
  if (!secret) {
    throw new UsageError('no webhook secret: set CSSCTL_WEBHOOK_SECRET or pass --secret-file <path>', {
      hint: 'use the secret the webhook was created with',
    });
  }
  ctx.io.addSecret(secret);
  return secret;
}

/** Text from the network or the user, made safe for one terminal line (C0, C1, DEL, bidi controls). */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration such as `30s`, `5m`, `1h30m` or `500ms`: whole numbers, each with a unit (ms, s, m, h), largest
 * first, each unit once; more than 0 and at most 7 days. Anything else is exit 2.
 */
export function parseDuration(raw: string, flag: string): number {
  const t = raw.trim().toLowerCase();
  const bad = () =>
    new UsageError(`invalid ${flag} "${clean(raw)}": expected a duration such as 30s, 5m or 1h30m`);
  if (!/^(\d{1,9}(ms|s|m|h))+$/.test(t)) throw bad();
  let ms = 0;
  let last = Infinity;
  for (const [, n, unit] of t.matchAll(/(\d+)(ms|s|m|h)/g)) {
    const size = UNIT_MS[unit!]!;
    if (size >= last) throw bad();
    last = size;
    ms += Number(n) * size;
  }
  if (ms <= 0) throw new UsageError(`invalid ${flag} "${clean(raw)}": it must be longer than 0`);
  if (ms > 7 * 86_400_000) throw new UsageError(`invalid ${flag} "${clean(raw)}": at most 7 days (168h)`);
  return ms;
}
