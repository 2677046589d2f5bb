import { describe, expect, it } from 'vitest';
import { assertSafeForToken } from '../../src/core/http/client.js';
import { UsageError } from '../../src/core/errors.js';
import { isLoopbackHost, normalizeBaseUrl } from '../../src/core/url.js';

describe('loopback hosts (plain http allowed, never proxied)', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '0000:0000:0000:0000:0000:0000:0000:0001',
    '[0::1]',
    '::0:1',
  ])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });

  it.each([
    'fe80::1',
    '[fe80::1]',
    '2001:db8::1',
    '1::1',
    '::1:1',
    '::2',
    '::',
    '::ffff:1',
    'fe80::1%lo',
    '::11',
    '1:0:0:0:0:0:0:1',
    '128.0.0.1',
    '10.0.0.1',
    '0.0.0.0',
    'localhost.example.com',
    'foo.localhost',
    '127.0.0.1.nip.io',
    '',
  ])('%s is not loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });

  it('a bearer token goes over plain http to [::1] but not to an address that merely ends in ::1', () => {
    expect(() => assertSafeForToken('http://[::1]:8080/api/v1/x')).not.toThrow();
    expect(() => assertSafeForToken('http://[fe80::1]:8080/api/v1/x')).toThrow(UsageError);
    expect(() => assertSafeForToken('http://[2001:db8::1]/api/v1/x')).toThrow(UsageError);
  });

  it('the refusal of plain http names every loopback form allowed, [::1] included', () => {
    let err: unknown;
    try {
      normalizeBaseUrl('http://[fe80::1]:8080');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/localhost/);
    expect((err as Error).message).toMatch(/127\.0\.0\.0\/8/);
    expect((err as Error).message).toContain('[::1]');
    expect(normalizeBaseUrl('http://[::1]:8080')).toBe('http://[::1]:8080');
  });
});
