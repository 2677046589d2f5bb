import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkSignature,
  describeVerdict,
  hmacHex,
  sign,
  verifySignature,
} from '../../src/core/webhook-signature.js';

// GitHub's documented example ("Validating webhook deliveries"), computed independently of this code.
// GitHub's header is X-Hub-Signature-256 and ours X-Service-Signature, but both values are
// `sha256=` + lowercase hex of HMAC-SHA256(secret, raw body) — the same form.
const GH_SECRET = "It's a Secret to Everybody";
const GH_PAYLOAD = 'Hello, World!';
const GH_HEX = '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
const GH_HEADER = `sha256=${GH_HEX}`;

describe('GitHub’s documented vector', () => {
  it('signs to the documented value', () => {
    expect(hmacHex(GH_SECRET, GH_PAYLOAD)).toBe(GH_HEX);
    expect(sign(GH_SECRET, GH_PAYLOAD)).toBe(GH_HEADER);
    expect(sign(Buffer.from(GH_SECRET), Buffer.from(GH_PAYLOAD))).toBe(GH_HEADER);
  });

  it('verifies the documented header, and nothing close to it', () => {
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, GH_HEADER)).toEqual({ valid: true });
    expect(verifySignature(GH_SECRET, Buffer.from(GH_PAYLOAD), GH_HEADER)).toBe(true);
    expect(checkSignature(GH_SECRET, `${GH_PAYLOAD} `, GH_HEADER)).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    expect(checkSignature(`${GH_SECRET}.`, GH_PAYLOAD, GH_HEADER)).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, GH_HEADER.toUpperCase())).toEqual({
      valid: false,
      reason: 'malformed',
    });
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, `sha256=${GH_HEX.toUpperCase()}`)).toEqual({
      valid: false,
      reason: 'malformed',
    });
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, GH_HEX)).toEqual({ valid: false, reason: 'malformed' });
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, `sha1=${GH_HEX}`).valid).toBe(false);
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, ` ${GH_HEADER}`).valid).toBe(false);
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, `${GH_HEADER}\n`).valid).toBe(false);
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, `${GH_HEADER}0`).valid).toBe(false);
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, GH_HEADER.slice(0, -1)).valid).toBe(false);
    expect(checkSignature(GH_SECRET, GH_PAYLOAD, [GH_HEADER]).valid).toBe(false);
  });
});

// The Standard Webhooks specification's published vector (https://github.com/standard-webhooks/standard-webhooks,
// libraries/javascript/src/webhook.test.ts, "sign function works"; MIT licence, (c) 2023 Svix). Its header
// scheme differs — `webhook-signature: v1,<base64>` over `<msg id>.<timestamp>.<payload>`, with the key the
// base64 after `whsec_` — but the core is the same HMAC-SHA256 ours uses, so our core must give its value.
const SW_KEY = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SW_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SW_TIMESTAMP = 1614265330;
const SW_PAYLOAD = '{"test": 2432232314}';
const SW_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

describe('the Standard Webhooks published vector', () => {
  const key = Buffer.from(SW_KEY.slice('whsec_'.length), 'base64');
  const signed = `${SW_ID}.${SW_TIMESTAMP}.${SW_PAYLOAD}`;
  const expectedHex = Buffer.from(SW_SIGNATURE.slice(3), 'base64').toString('hex');

  it('our HMAC core gives the published signature', () => {
    expect(`v1,${Buffer.from(hmacHex(key, signed), 'hex').toString('base64')}`).toBe(SW_SIGNATURE);
    expect(sign(key, Buffer.from(signed))).toBe(`sha256=${expectedHex}`);
  });

  it('and verifies it in our header form, over those bytes only', () => {
    expect(checkSignature(key, signed, `sha256=${expectedHex}`)).toEqual({ valid: true });
    expect(
      checkSignature(key, `${SW_ID}.${SW_TIMESTAMP + 1}.${SW_PAYLOAD}`, `sha256=${expectedHex}`),
    ).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    // The key is the decoded bytes, not the text of the secret.
    expect(checkSignature(SW_KEY, signed, `sha256=${expectedHex}`).valid).toBe(false);
  });
});

describe('checkSignature', () => {
  it('works over the exact bytes: a body that is not valid UTF-8 is not decoded first', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const header = `sha256=${createHmac('sha256', 'k').update(raw).digest('hex')}`;
    expect(verifySignature('k', raw, header)).toBe(true);
    // Decoding would turn the two bytes into U+FFFD twice: other bytes, another digest.
    expect(verifySignature('k', raw.toString('utf8'), header)).toBe(false);
  });

  it('names why a signature fails, never the expected value', () => {
    expect(checkSignature('k', 'b', undefined)).toEqual({ valid: false, reason: 'missing' });
    expect(checkSignature('k', 'b', '')).toEqual({ valid: false, reason: 'missing' });
    expect(checkSignature('', 'b', sign('x', 'b'))).toEqual({ valid: false, reason: 'no-secret' });
    const bad = checkSignature('k', 'b', sign('other', 'b'));
    expect(describeVerdict(bad)).toBe('the signature does not match the payload and secret');
    expect(describeVerdict(bad)).not.toContain(hmacHex('k', 'b'));
  });

  it('refuses to sign with an empty secret', () => {
    expect(() => sign('', 'body')).toThrow(/empty/);
  });
});

describe('properties', () => {
  const secretArb = fc.string({ minLength: 1, maxLength: 64 });
  const bodyArb = fc.uint8Array({ maxLength: 2048 });

  it('whatever it signs, it verifies, and node:crypto agrees', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, (secret, body) => {
        const header = sign(secret, body);
        expect(header).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
        expect(verifySignature(secret, body, header)).toBe(true);
      }),
    );
  });

  it('any change to one byte of the body is rejected', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb.filter((b) => b.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (secret, body, at, flip) => {
          const header = sign(secret, body);
          const tampered = Buffer.from(body);
          const i = at % tampered.length;
          tampered[i] = (tampered[i] ?? 0) ^ flip;
          expect(checkSignature(secret, tampered, header)).toEqual({ valid: false, reason: 'mismatch' });
        },
      ),
    );
  });

  it('any change to the header is rejected', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (secret, body, at, ch) => {
          const header = sign(secret, body);
          const i = at % header.length;
          fc.pre(header[i] !== ch);
          const tampered = header.slice(0, i) + ch + header.slice(i + 1);
          expect(verifySignature(secret, body, tampered)).toBe(false);
        },
      ),
    );
  });

  it('bytes added or removed anywhere in the body are rejected', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        fc.boolean(),
        (secret, body, extra, front) => {
          const header = sign(secret, body);
          const longer = front ? Buffer.concat([extra, body]) : Buffer.concat([body, extra]);
          expect(verifySignature(secret, longer, header)).toBe(false);
          if (body.length > 0) expect(verifySignature(secret, body.subarray(1), header)).toBe(false);
        },
      ),
    );
  });

  it('a signature made with another secret is rejected', () => {
    fc.assert(
      fc.property(secretArb, secretArb, bodyArb, (a, b, body) => {
        fc.pre(a !== b);
        expect(verifySignature(a, body, sign(b, body))).toBe(false);
      }),
    );
  });

  it('malformed headers of any kind never throw and never pass', () => {
    const header = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string().map((s) => `sha256=${s}`),
      fc.stringMatching(/^sha256=[0-9a-fA-F]{0,70}$/),
      fc.stringMatching(/^sha256=[0-9A-F]{64}$/),
      fc.stringMatching(/^(sha1|sha512|SHA256)=[0-9a-f]{64}$/),
      fc.stringMatching(/^\s+sha256=[0-9a-f]{64}\s*$/),
      fc.anything({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(secretArb, bodyArb, header, (secret, body, h) => {
        let verdict;
        expect(() => (verdict = checkSignature(secret, body, h))).not.toThrow();
        // A random 64-hex-digit value matching the HMAC is beyond chance; anything else must fail.
        expect(verdict).toMatchObject({ valid: false });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws whatever secret and header it is given', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.uint8Array()),
        fc.oneof(fc.string(), fc.uint8Array()),
        fc.anything(),
        (secret, body, h) => {
          expect(() => checkSignature(secret, body, h)).not.toThrow();
          expect(verifySignature(secret, body, h)).toBe(false);
        },
      ),
    );
  });
});
