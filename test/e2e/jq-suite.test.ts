// jq's own test suite through the real binary: `cssctl api /case/<n> --jq <program>` against a loopback
// service that answers each case's input, so object/array cases of tests/jq.test go through argv parsing, the
// compile check, the request, the output layer and the jq stage of a real process. Every case goes through that
// same stage in test/unit/jq-suite.test.ts; here a fixed sample (every SAMPLE-th case, and the cases known to
// differ) shows the path through a process holds for programs of every kind, in a few seconds instead of ~50
// (issue 35). CSSCTL_JQ_SUITE=all runs every case.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness.js';
import { matches, objectOrArray } from '../helpers/jq-suite.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const n = Number(/^\/api\/v1\/case\/(\d+)/.exec(req.url ?? '')?.[1]);
    const c = objectOrArray[n];
    res.writeHead(c ? 200 : 404, { 'content-type': 'application/json' });
    res.end(c ? c.input : '{"detail":"no such case"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

/** What a service can send: JSON (jq also reads `nan` and `Infinity`, which are not JSON). */
function sendable(input: string): boolean {
  try {
    JSON.parse(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * The cases that differ through the binary, and why: their input holds 13911860366432393, an integer beyond
 * 2^53 that cssctl's JSON reading of the answer rounds (in every format) before jq sees it; jq 1.8 keeps the
 * literal. Through the stage with the text as written (test/unit/jq-suite.test.ts) they pass.
 */
const KNOWN = ['jq.test:2196', 'jq.test:2200'];

/** Every SAMPLE-th case (a fixed choice: the same cases in every run), unless CSSCTL_JQ_SUITE=all. */
const SAMPLE = process.env.CSSCTL_JQ_SUITE === 'all' ? 1 : 6;
const chosen = objectOrArray
  .map((c, i) => ({ c, i }))
  .filter(({ c, i }) => i % SAMPLE === 0 || KNOWN.includes(`jq.test:${c.line}`));

describe("jq's own test suite through the binary", () => {
  it('object/array cases of tests/jq.test via cssctl api --jq (a fixed sample)', async () => {
    const env = {
      PATH: process.env.PATH,
      CSSCTL_TOKEN: 'test-token',
      CSSCTL_BASE_URL: url,
      CSSCTL_WORKSPACE: 'acme',
      HOME: '/nonexistent',
      CSSCTL_CONFIG_DIR: '/nonexistent/cssctl',
    };
    const failed: string[] = [];
    const skipped: string[] = [];
    let next = 0;
    let passed = 0;
    // Three processes at a time.
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let k = next++; k < chosen.length; k = next++) {
          const { c, i } = chosen[k]!;
          if (!sendable(c.input)) {
            skipped.push(`jq.test:${c.line}: input ${c.input.slice(0, 60)}`);
            continue;
          }
          const res = await runCli(['api', `/case/${i}`, '--jq', c.program], env, { timeoutMs: 30_000 });
          // As jq's harness: the outputs count; a case that ends in a run-time error on purpose exits 1.
          if (matches(res.stdout, c.expected) && (res.code === 0 || res.code === 1)) passed++;
          else failed.push(`jq.test:${c.line}`);
        }
      }),
    );
    const tried = chosen.length - skipped.length;
    console.log(
      `jq.test through the binary: ${passed} of ${tried} object/array cases pass (${chosen.length} of ${objectOrArray.length} chosen)` +
        ` (${skipped.length} inputs no service could send as JSON, left out:\n${skipped.join('\n')})`,
    );
    if (failed.length > 0) console.log(failed.join('\n'));
    // Measured over every case: 265 of 267 (3 inputs with nan/Infinity left out; the 2 KNOWN differ).
    expect(chosen.length).toBeGreaterThanOrEqual(Math.ceil(objectOrArray.length / SAMPLE));
    if (SAMPLE === 1) expect(skipped).toHaveLength(3);
    expect(failed.sort()).toEqual(KNOWN);
    expect(passed).toBe(tried - KNOWN.length);
  }, 600_000);
});
