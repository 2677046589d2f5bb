import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { World, errorLine, received } from './harness.js';

/** Issue 9: one bad rate-limit header, waits past Node's timer maximum, the --max-wait message. */
describe('rate-limit headers that cannot be right', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start();
  });
  afterAll(() => w.close());
  beforeEach(async () => {
    rmSync(join(w.configDir, 'ratelimit-state.json'), { force: true });
    w.sandbox.reset();
    await w.login();
    w.sandbox.clearRequests();
  });

  it('a Retry-After of 2600000 s with a huge --max-wait is one request and one clear line, not a spin', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 2_600_000, count: 50 });
    const res = await w.run(['connections', 'list', '--max-wait', '99999999']);
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(/HTTP 429 with an unusable .*more than a day.*not waiting/);
    expect(res.stderr).not.toMatch(/TimeoutOverflowWarning/);
    expect(received(w.sandbox, '/connections')).toHaveLength(1);
    // Nothing was remembered: the next command is not blocked.
    w.sandbox.reset();
    await w.login();
    const next = await w.run(['connections', 'list', '--json']);
    expect(next.code, next.stderr).toBe(0);
  });

  it('a window 10^8 s ahead left in ratelimit-state.json (by an older cssctl) does not block commands', async () => {
    const far = Date.now() + 1e11;
    writeFileSync(
      join(w.configDir, 'ratelimit-state.json'),
      JSON.stringify({ [`${w.url} acme all`]: far, [`${w.url} acme scans-create`]: far }),
    );
    const res = await w.run(['connections', 'list', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.ms).toBeLessThan(15_000);
  });

  it('a remembered window within the bound is waited on, and --max-wait says it came from an earlier process', async () => {
    writeFileSync(
      join(w.configDir, 'ratelimit-state.json'),
      JSON.stringify({ [`${w.url} acme all`]: Date.now() + 3_600_000 }),
    );
    const res = await w.run(['connections', 'list', '--max-wait', '5']);
    expect(res.code).toBe(8);
    expect(errorLine(res)).toMatch(/earlier cssctl process .*ratelimit-state\.json.*past --max-wait 5s/);
    expect(received(w.sandbox, '/connections')).toHaveLength(0);
  });

  it('--max-wait names the running total when the total is what passes it', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 1, count: 6 });
    // Each wait is 1–3 s (Reset rounded up, plus jitter): never past 3.5 s alone, past it in total by the fourth.
    const res = await w.run(['connections', 'list', '--max-wait', '3.5', '--quiet']);
    expect(res.code).toBe(8);
    expect(errorLine(res)).toMatch(
      /asks to wait \ds, which would bring this command's waiting to \ds in all, past --max-wait 3.5s/,
    );
  });
});

describe('answer size', () => {
  let w: World;
  let big: Server;
  let written = 0;
  beforeAll(async () => {
    w = await World.start();
    // 80 MiB of a JSON string, streamed without Content-Length.
    big = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      res.write('"');
      const pump = () => {
        while (written < 80 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"');
      };
      pump();
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    big.closeAllConnections();
    await new Promise((r) => big.close(r));
    await w.close();
  });

  it('an answer past 64 MiB is one clear line and exit 1, never a V8 string error or the whole body in memory', async () => {
    const res = await w.run(
      ['api', '/big', '--base-url', `http://127.0.0.1:${(big.address() as AddressInfo).port}`, '-w', 'acme'],
      { env: { CSSCTL_TOKEN: 'tok' } },
    );
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(
      /^error: the answer from 127\.0\.0\.1:\d+ is larger than 64 MiB; refusing to read it/,
    );
    expect(res.stdout).toBe('');
  });
});

describe('smaller', () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start();
    await w.login();
  });
  afterAll(() => w.close());

  it('an --input file with a UTF-8 byte-order mark is read as the JSON it holds', async () => {
    const file = join(w.dir, 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify({ alias: 'bom-conn', provider: 'aws' })}\n`);
    const res = await w.run(['api', '/connections', '--input', file]);
    expect(res.code, res.stderr).toBe(0);
    const posted = received(w.sandbox, '/connections', 'POST');
    expect(JSON.parse(posted[posted.length - 1]!.body)).toEqual({ alias: 'bom-conn', provider: 'aws' });
    const fromStdin = await w.run(['api', '/connections', '--input', '-'], {
      input: `\uFEFF${JSON.stringify({ alias: 'bom-stdin', provider: 'aws' })}`,
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
  });

  it('--verbose stack traces name the real functions and source files, not minified ones', async () => {
    const res = await w.run(['connections', 'list', '--verbose', '--base-url', 'http://127.0.0.1:1'], {
      env: { CSSCTL_TOKEN: 'tok' },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^\s+at toNetworkError \(.*src\/core\/http\/transport\.ts:\d+:\d+\)$/m);
    expect(res.stderr).toMatch(/^NetworkError: cannot connect/m);
  });

  it('https to a port that speaks plain HTTP says so in one line', async () => {
    const res = await w.run(['connections', 'list', '--base-url', w.url.replace('http:', 'https:')], {
      env: { CSSCTL_TOKEN: 'tok' },
    });
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(/^error: 127\.0\.0\.1:\d+ speaks plain HTTP, not HTTPS \(check the port/);
  });
});
