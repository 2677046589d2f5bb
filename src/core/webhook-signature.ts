// Webhook signatures (cli-contract.md §7, service-api.md §6): `X-Service-Signature: sha256=<hex>`, the
// lowercase hex of HMAC-SHA256(secret, raw body). One module for `verify`, `listen`, `trigger` and the sandbox.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header name, lower-cased as Node hands headers over. */
export const SIGNATURE_HEADER = 'x-service-signature';

const PREFIX = 'sha256=';
const FORM = /^sha256=[0-9a-f]{64}$/;

export type Bytes = string | Uint8Array;

/** Lowercase hex of HMAC-SHA256(secret, body); a string is taken as its UTF-8 bytes. */
export function hmacHex(secret: Bytes, body: Bytes): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The header value for `body`. An empty secret is refused: anyone could forge what it signs. */
export function sign(secret: Bytes, body: Bytes): string {
  if (secret.length === 0) throw new Error('a webhook secret must not be empty');
  return `${PREFIX}${hmacHex(secret, body)}`;
}

export type Verdict =
  { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'mismatch' | 'no-secret' };

/** Why a signature was refused, in words fit for an error line (never the expected value). */
export function describeVerdict(v: Verdict): string {
  if (v.valid) return 'valid';
  switch (v.reason) {
    case 'missing':
      return 'no signature given';
    case 'malformed':
      return 'the signature is not of the form sha256=<64 lowercase hex digits>';
    case 'mismatch':
      return 'the signature does not match the payload and secret';
    case 'no-secret':
      return 'no secret to check the signature with';
  }
}

/**
 * Checks a header value against the exact raw bytes of a body. Never throws, whatever `header` holds (a
 * repeated header arrives as an array, a missing one as undefined). The form is checked first — it
 * reveals nothing about the secret — then the digests are compared in constant time.
 */
export function checkSignature(secret: Bytes, body: Bytes, header: unknown): Verdict {
  try {
    if (header === undefined || header === null || header === '') return { valid: false, reason: 'missing' };
    if (typeof header !== 'string' || header.length !== 71 || !FORM.test(header))
      return { valid: false, reason: 'malformed' };
    if (secret.length === 0) return { valid: false, reason: 'no-secret' };
    const expected = Buffer.from(hmacHex(secret, body), 'hex');
    const given = Buffer.from(header.slice(PREFIX.length), 'hex');
    // Both are 32 bytes here (the form was checked), which timingSafeEqual requires.
    return timingSafeEqual(expected, given) ? { valid: true } : { valid: false, reason: 'mismatch' };
  } catch {
    return { valid: false, reason: 'malformed' };
  }
}

export function verifySignature(secret: Bytes, body: Bytes, header: unknown): boolean {
  return checkSignature(secret, body, header).valid;
}
