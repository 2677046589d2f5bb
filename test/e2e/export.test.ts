// Exports under the service's rate limit and page cap (issue 8): no 429 at all, every item once and in
// order, and the largest page the service allows. Timings belong to scripts/bench.mjs, not here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, received } from './harness.js';

let w: World;

beforeAll(async () => {
  // 600 findings; 10 requests per 1 s window: 24 pages of 25 need three windows.
  w = await World.start({ findingsPerWorkspace: 600, rateLimit: 10, rateWindowSeconds: 1 });
  await w.login();
}, 30_000);

afterAll(async () => {
  await w?.close();
});

describe('an export under the rate limit', () => {
  it('600 findings at 25 per page: every item once, in order, and not one 429', async () => {
    const before = received(w.sandbox, '/findings').length;
    const res = await w.run(['api', '--paginate', '/findings?limit=25'], { timeoutMs: 30_000 });
    expect(res.code, res.stderr).toBe(0);
    const items = JSON.parse(res.stdout) as { id: string }[];
    expect(items).toHaveLength(600);
    expect(new Set(items.map((i) => i.id)).size).toBe(600);
    const pages = received(w.sandbox, '/findings').slice(before);
    expect(pages.map((r) => r.status)).toEqual(Array<number>(24).fill(200)); // no 429: the client waited
    expect(pages.map((r) => Number(r.query.offset))).toEqual(Array.from({ length: 24 }, (_, i) => i * 25));
    expect(res.stderr).toMatch(/rate limit reached; waiting/); // it did have to wait
  });
});

describe('page size', () => {
  it('api --paginate without a limit asks for the largest page; the service caps it at 100', async () => {
    // The window of the test above may still be spent: --max-wait covers the wait.
    const before = received(w.sandbox, '/findings').length;
    const res = await w.run(['api', '--paginate', '/findings'], { timeoutMs: 30_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(600);
    const limits = received(w.sandbox, '/findings')
      .slice(before)
      .map((r) => r.query.limit);
    expect(limits).toEqual(Array<string>(6).fill('1000')); // 600 in pages of the 100 the sandbox allows
  });
});
