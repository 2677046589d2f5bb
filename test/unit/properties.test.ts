import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPage } from '../../src/api/paginate.js';
import { CliError } from '../../src/core/errors.js';
import {
  MAX_RESET_AHEAD_MS,
  RateLimiter,
  intHeader,
  parseRetryAfter,
} from '../../src/core/http/ratelimit.js';
import type { HttpResponse } from '../../src/core/http/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { req } from '../helpers/fake-send.js';

/**
 * Property tests (issue 9): whatever a service (or a proxy, or a broken gateway) puts in these headers and
 * bodies, the parsers never throw and never make cssctl wait past its bounds.
 */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = Math.floor(NOW / 1000);

/** Header values as a service might send them: numbers near every boundary, dates, junk. */
const headerValue = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.integer({ min: nowSec - 100_000, max: nowSec + 200_000 }).map(String), // plausible Reset
  fc.constantFrom(
    String(nowSec + 86_400),
    String(nowSec + 86_401),
    String(NOW), // a Reset in milliseconds
    '100000000',
    '2600000',
    '99999999999999999999999',
    '1e400',
    '-1e400',
    'NaN',
    'Infinity',
    '0x10',
    '1.5',
    ' 7 ',
    '',
    '   ',
    'Fri, 31 Dec 9999 23:59:59 GMT',
    'Thu, 01 Jan 1970 00:00:00 GMT',
    new Date(NOW + 30_000).toUTCString(),
  ),
  fc.double().map(String),
  fc.string(),
);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

interface Answer {
  status: number;
  remaining?: string;
  reset?: string;
  limit?: string;
  retryAfter?: string;
}

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 201, 429, 500),
  remaining: maybe(headerValue),
  reset: maybe(headerValue),
  limit: maybe(headerValue),
  retryAfter: maybe(headerValue),
});

function toResponse(a: Answer): HttpResponse {
  const headers: Record<string, string> = {};
  if (a.remaining !== undefined) headers['x-ratelimit-remaining'] = a.remaining;
  if (a.reset !== undefined) headers['x-ratelimit-reset'] = a.reset;
  if (a.limit !== undefined) headers['x-ratelimit-limit'] = a.limit;
  if (a.retryAfter !== undefined) headers['retry-after'] = a.retryAfter;
  return { status: a.status, headers, body: '{}' };
}

describe('rate-limit header parsers', () => {
  it('intHeader: never throws; a whole finite number or undefined', () => {
    fc.assert(
      fc.property(maybe(headerValue), (v) => {
        const n = intHeader(v);
        expect(n === undefined || (Number.isInteger(n) && Number.isFinite(n))).toBe(true);
      }),
    );
  });

  it('parseRetryAfter: never throws; a finite epoch time or undefined', () => {
    fc.assert(
      fc.property(maybe(headerValue), (v) => {
        const t = parseRetryAfter(v, NOW);
        expect(t === undefined || Number.isFinite(t)).toBe(true);
      }),
    );
  });

  it('the rate-limit layer, fed any answers: no crash, no wait past a day, never past --max-wait in total', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(answer, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 10 * MAX_RESET_AHEAD_MS }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        async (answers, maxWaitMs, rand) => {
          const clock = new FakeClock(NOW);
          clock.rand = rand;
          const saved: number[] = [];
          const limiter = new RateLimiter({
            clock,
            maxWaitMs,
            // How far ahead of the moment it is saved (the clock moves on while the layer waits).
            shared: { load: () => ({}), save: (_k, at) => void saved.push(at - clock.now()) },
          });
          let i = 0;
          const send = limiter.layer(
            // The scripted answers, then plain 200s (so a run of 429s ends).
            async () => {
              const a = answers[i++];
              return a ? toResponse(a) : { status: 200, headers: {}, body: '{}' };
            },
          );
          for (let n = 0; n < 3; n++) {
            try {
              await send(req());
            } catch (err) {
              // Only cssctl's own one-line errors: an unusable header (exit 1) or --max-wait (exit 8).
              expect(err).toBeInstanceOf(CliError);
            }
          }
          for (const ms of clock.sleeps) {
            expect(Number.isFinite(ms)).toBe(true);
            expect(ms).toBeGreaterThanOrEqual(0);
            expect(ms).toBeLessThanOrEqual(MAX_RESET_AHEAD_MS + 1000);
          }
          expect(clock.totalSlept).toBeLessThanOrEqual(maxWaitMs);
          // Nothing remembered for the next process lies past the bound.
          for (const ahead of saved) expect(ahead).toBeLessThanOrEqual(MAX_RESET_AHEAD_MS);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('pagination bodies', () => {
  it('readPage: any JSON answer gives an array of items and finite numbers, or one clear CliError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            total: fc.jsonValue(),
            limit: fc.jsonValue(),
            offset: fc.jsonValue(),
            findings: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()),
          }),
        ),
        fc.constantFrom('findings', 'connections', 'scans', ''),
        (body, key) => {
          let page;
          try {
            page = readPage(body, key);
          } catch (err) {
            expect(err).toBeInstanceOf(CliError);
            return;
          }
          expect(Array.isArray(page.items)).toBe(true);
          for (const n of [page.total, page.limit, page.offset]) {
            expect(n === undefined || Number.isFinite(n)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
