import { onTestFinished } from 'vitest';
import type { HttpRequest, HttpResponse, Send } from '../../src/core/http/types.js';
import type { FakeClock } from './fake-clock.js';

export type Reply = Partial<HttpResponse> | Error | ((req: HttpRequest) => Partial<HttpResponse> | Error);

/**
 * A scripted transport: answers each request with the next reply, records what was sent and when.
 * Fails the test when more requests arrive than were scripted, and — like gh's httpmock Verify — when the
 * test ends with replies never asked for (a stub that was never used means the code did not do what the
 * test claims). Call it inside a test.
 */
export function scripted(clock: FakeClock, replies: Reply[]) {
  const sent: { req: HttpRequest; at: number }[] = [];
  const queue = [...replies];
  onTestFinished(({ task }) => {
    // A test that already failed keeps its own message.
    if (task.result?.state === 'fail' || queue.length === 0) return;
    throw new Error(
      `${queue.length} scripted ${queue.length === 1 ? 'reply was' : 'replies were'} never used (${sent.length} sent)`,
    );
  });
  const send: Send = async (req) => {
    sent.push({ req, at: clock.now() });
    let r = queue.shift();
    if (r === undefined) throw new Error(`unexpected request #${sent.length}: ${req.method} ${req.url}`);
    if (typeof r === 'function') r = r(req);
    if (r instanceof Error) throw r;
    return { status: r.status ?? 200, headers: r.headers ?? {}, body: r.body ?? '{}' };
  };
  return { send, sent, remaining: () => queue.length };
}

export function req(over: Partial<HttpRequest> = {}): HttpRequest {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/api/v1/connections',
    headers: { 'x-tenant-slug': 'acme' },
    ...over,
  };
}

export function rl(remaining: number, resetEpochSec: number, limit = 120): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetEpochSec),
  };
}
