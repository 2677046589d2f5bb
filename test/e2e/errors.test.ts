import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSpawn, World, errorLine, lines, received, type CliResult } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start();
  await w.login('acme');
});
afterAll(() => w.close());

function noStack(res: CliResult): void {
  expect(res.stderr).not.toMatch(/^\s+at /m);
}

interface JsonError {
  error: {
    status: number | null;
    code: string | null;
    detail: string;
    field: string | null;
    request_id: string | null;
  };
}

/** stderr is exactly one JSON object {"error": {...}}. */
function jsonError(res: CliResult): JsonError['error'] {
  const all = lines(res.stderr);
  expect(all, res.stderr).toHaveLength(1);
  const parsed = JSON.parse(all[0]!) as JsonError;
  expect(Object.keys(parsed)).toEqual(['error']);
  for (const key of ['status', 'code', 'detail', 'field', 'request_id'])
    expect(parsed.error).toHaveProperty(key);
  return parsed.error;
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('each error class has its exit code', () => {
  it('400 from the service is exit 7, naming the field', async () => {
    const res = await w.run(['api', '/findings?limit=abc']);
    expect(res.code).toBe(7);
    const line = errorLine(res);
    expect(line).toContain('limit must be a positive integer');
    expect(line).toContain('HTTP 400');
    expect(line).toContain('invalid_parameter');
    expect(line).toMatch(/field limit/);
  });

  it('a 401 a refresh cannot cure is exit 3: "session expired, run cssctl login"', async () => {
    // A session whose access token has expired at the service and whose refresh token is revoked.
    const env = { CSSCTL_PROFILE: 'short' };
    w.sandbox.setTokenTtl(1);
    try {
      await w.login('acme', 'owner', [], { env });
    } finally {
      w.sandbox.setTokenTtl(3600);
    }
    // The client would refresh on its own before the request; pretend the token has an hour left so the
    // service's 401 is what tells it otherwise.
    const credFile = join(w.configDir, 'credentials.json');
    const creds = JSON.parse(readFileSync(credFile, 'utf8')) as {
      profiles: Record<string, { expires_at: number }>;
    };
    creds.profiles.short!.expires_at = Date.now() + 3600_000;
    writeFileSync(credFile, JSON.stringify(creds), { mode: 0o600 });
    await sleep(1_200);
    w.sandbox.revokeAllRefreshTokens();

    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list'], { env });
    expect(res.code).toBe(3);
    const line = errorLine(res);
    expect(line).toContain('session expired, run cssctl login');
    // One 401 on the request, one refused refresh, and no replay.
    const listed = received(w.sandbox, '/connections');
    expect(listed.map((r) => r.status)).toEqual([401]);
    expect(received(w.sandbox, '/auth/refresh').map((r) => r.status)).toEqual([401]);

    // An access token the client knows has expired: refresh first, refused, exit 3 too.
    creds.profiles.short!.expires_at = Date.now() - 1000;
    writeFileSync(credFile, JSON.stringify(creds), { mode: 0o600 });
    w.sandbox.clearRequests();
    const again = await w.run(['connections', 'list'], { env });
    expect(again.code).toBe(3);
    expect(errorLine(again)).toContain('session expired, run cssctl login');
    expect(received(w.sandbox, '/connections')).toHaveLength(0);
  });

  it('403 is exit 4', async () => {
    const res = await w.run(['connections', 'list', '-w', 'globex']);
    expect(res.code).toBe(4);
    const line = errorLine(res);
    expect(line).toContain('not a member of workspace "globex"');
    expect(line).toContain('HTTP 403');
  });

  it('404 is exit 5', async () => {
    const res = await w.run(['api', '/scans/scn_does_not_exist']);
    expect(res.code).toBe(5);
    const line = errorLine(res);
    expect(line).toContain('scan "scn_does_not_exist" not found');
    expect(line).toContain('HTTP 404');
  });

  it('409 is exit 6', async () => {
    const res = await w.run(['connections', 'create', '--alias', 'prod', '--provider', 'aws']);
    expect(res.code).toBe(6);
    expect(errorLine(res)).toContain('HTTP 409');
  });

  it('422 is exit 7 with every field error listed', async () => {
    const res = await w.run(['connections', 'create', '--alias', 'bad alias!', '--provider', 'nimbus']);
    expect(res.code).toBe(7);
    const line = errorLine(res);
    expect(line).toContain('HTTP 422');
    expect(line).toContain('validation_error');
    expect(line).toMatch(/alias: alias must be/);
    expect(line).toMatch(/provider: provider must be one of aws, gcp, azure/);
  });

  it('a persistent 500 is exit 1 after exactly 3 attempts', async () => {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults({ kind: 'status', status: 500, count: 5, path: '/connections', method: 'GET' });
    try {
      const res = await w.run(['connections', 'list']);
      expect(res.code).toBe(1);
      const reqs = received(w.sandbox, '/connections', 'GET');
      expect(reqs).toHaveLength(3);
      expect(reqs.every((r) => r.status === 500)).toBe(true);
      const errs = lines(res.stderr).filter((l) => l.startsWith('error: '));
      expect(errs).toHaveLength(1);
      expect(errs[0]).toContain('HTTP 500');
      noStack(res);
    } finally {
      // Drop the two faults left over (reset keeps access tokens valid).
      w.sandbox.reset();
    }
  });

  it('connection refused is exit 1 with a clear message', async () => {
    const port = await closedPort();
    // CSSCTL_TOKEN: the profile's own tokens are never sent to another base URL (they would be exit 3).
    const res = await w.run(['connections', 'list', '--base-url', `http://127.0.0.1:${port}`], {
      env: { CSSCTL_TOKEN: 'x.y.z' },
    });
    expect(res.code).toBe(1);
    const line = errorLine(res);
    expect(line).toContain(`127.0.0.1:${port}`);
    expect(line).toMatch(/connection refused/);
    expect(res.ms).toBeLessThan(10_000);
  });

  it.each([
    [['frobnicate']],
    [['connections', 'frobnicate']],
    [['connections', 'list', '--frobnicate']],
    [['--frobnicate', 'connections', 'list']],
    [['connections', 'list', '--timeout', 'abc']],
    [['connections', 'list', '--timeout', '0']],
    [['connections', 'list', '--max-wait', '-1']],
    [['connections', 'list', '--max-wait', 'soon']],
  ])('%j is exit 2 with no request', async (args) => {
    w.sandbox.clearRequests();
    const res = await w.run(args);
    expect(res.code).toBe(2);
    errorLine(res);
    expect(res.stdout).toBe('');
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

describe('error format', () => {
  it('text: one line with detail, HTTP status, code, field and the request id', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'create', '--alias', 'prod', '--provider', 'aws']);
    expect(res.code).toBe(6);
    const [post] = received(w.sandbox, '/connections', 'POST');
    const line = errorLine(res);
    expect(line).toMatch(/^error: connection alias "prod" already exists/);
    expect(line).toContain('HTTP 409');
    expect(line).toContain('conflict');
    expect(line).toMatch(/field alias/);
    expect(line).toContain(post!.id);
  });

  it.each([[['-o', 'json']], [['--json']], [['-o', 'ndjson']], [['--output=json']]])(
    'with %j stderr is one JSON error object carrying the request id',
    async (flags) => {
      w.sandbox.clearRequests();
      const res = await w.run(['connections', 'create', '--alias', 'prod', '--provider', 'aws', ...flags]);
      expect(res.code).toBe(6);
      expect(res.stdout).toBe('');
      const [post] = received(w.sandbox, '/connections', 'POST');
      const err = jsonError(res);
      expect(err).toMatchObject({
        status: 409,
        code: 'conflict',
        field: 'alias',
        request_id: post!.id,
      });
      expect(err.detail).toContain('connection alias "prod" already exists');
    },
  );

  it('a JSON error that states an exit code states the real one', async () => {
    for (const args of [
      ['frobnicate', '--json'],
      ['-o', 'json', 'connections', 'list', '--frobnicate'],
      ['--json', 'connections', 'list', '--limit', '0'],
      ['--json', 'api', '/scans/scn_nope'],
    ]) {
      const res = await w.run(args);
      expect(res.code).not.toBe(0);
      const err = jsonError(res) as { exit_code?: number };
      if ('exit_code' in err) expect(err.exit_code, args.join(' ')).toBe(res.code);
    }
  });

  it('control characters from input or from the service never reach the terminal', async () => {
    for (const args of [
      ['connections', 'list', '-w', 'ev\ril\u001b[31m'],
      ['api', '/scans/\u001b[2Jgone\rerror: fake'],
    ]) {
      const res = await w.run(args);
      expect(res.code).not.toBe(0);
      errorLine(res);
      // eslint-disable-next-line no-control-regex
      expect(res.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    }
  });

  it('JSON errors also for usage errors and for flags given before the command', async () => {
    const usage = await w.run(['--json', 'connections', 'list', '--limit', '0']);
    expect(usage.code).toBe(2);
    const err = jsonError(usage);
    expect(err.status).toBeNull();
    expect(err.detail).toMatch(/limit/);

    const notFound = await w.run(['-o', 'json', 'api', '/scans/scn_nope']);
    expect(notFound.code).toBe(5);
    expect(jsonError(notFound)).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('no stack trace without --verbose; --verbose logs the exchange', async () => {
    const port = await closedPort();
    const args = ['connections', 'list', '--base-url', `http://127.0.0.1:${port}`];
    const env = { CSSCTL_TOKEN: 'x.y.z' }; // a stored token is never sent to another base URL
    const quiet = await w.run(args, { env });
    expect(quiet.code).toBe(1);
    noStack(quiet);
    const verbose = await w.run([...args, '--verbose'], { env });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(
      new RegExp(`^\\* GET http://127\\.0\\.0\\.1:${port}/api/v1/connections.* failed`, 'm'),
    );
    expect(verbose.stderr).toMatch(/^error: .*connection refused/m);
  });
});

describe('bad input never hangs and never prints a stack trace', () => {
  it.each([
    [['connections', 'list', '--limit', '-5']],
    [['connections', 'list', '--limit', '0']],
    [['connections', 'list', '--limit', '2.5']],
    [['connections', 'list', '--offset', 'x']],
    [['connections', 'list', '--offset', '-1']],
    [['connections', 'list', '-o', 'xml']],
    [['connections', 'list', '--output', '']],
    [['connections', 'list', '--profile', 'bad name']],
    [['connections', 'list', '--profile', '../../etc']],
    [['connections', 'list', '-w', 'a\r\nX-Evil: 1']],
    [['connections', 'list', '-w', '']],
    [['connections', 'list', '--base-url', 'not-a-url']],
    [['connections', 'list', '--base-url', 'ftp://x']],
    [['connections', 'list', '--base-url', 'http://scanner.example.com']],
    [['api', 'https://evil.example.com/connections']],
    [['api', '/connections', '-X', 'BREW']],
  ])('%j is exit 2, one error line, no request', async (args) => {
    w.sandbox.clearRequests();
    const res = await w.run(args, { timeoutMs: 10_000 });
    expect(res.code).toBe(2);
    errorLine(res);
    expect(res.stdout).toBe('');
    expect(res.ms).toBeLessThan(5_000);
    expect(w.sandbox.requests).toHaveLength(0);
    expect(res.stderr).not.toContain('X-Evil: 1\n');
  });

  it('a config.json with invalid JSON is a clear error, and the file is left as it was', async () => {
    const dir = join(w.dir, 'broken-config');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    const garbage = '{"profiles": {"default": {"base_url": ';
    writeFileSync(file, garbage);
    const env = {
      CSSCTL_CONFIG_DIR: dir,
      CSSCTL_TOKEN: 'x.y.z',
      CSSCTL_WORKSPACE: 'acme',
    };
    w.sandbox.clearRequests();
    for (const args of [
      ['connections', 'list'],
      ['config', 'set', 'workspace', 'acme'],
      ['config', 'unset', 'workspace'],
    ]) {
      const res = await w.run(args, { env, timeoutMs: 10_000 });
      expect(res.code, args.join(' ')).not.toBe(0);
      expect([1, 2]).toContain(res.code);
      const line = errorLine(res);
      expect(line).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe(garbage);
    }
    // config list is the same one error (issue 21); config path and logout still work.
    const list = await w.run(['config', 'list'], { env });
    expect(list.code).toBe(1);
    expect(errorLine(list)).toContain(file);
    expect((await w.run(['config', 'path'], { env })).code).toBe(0);
    expect((await w.run(['logout'], { env })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(garbage);
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('a credentials.json with invalid JSON is a clear error, no request; logout (the advice) removes it', async () => {
    const dir = join(w.dir, 'broken-creds');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: w.url, workspace: 'acme' } } }),
    );
    const credFile = join(dir, 'credentials.json');
    writeFileSync(credFile, 'not json at all', { mode: 0o600 });
    const env = { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' };
    w.sandbox.clearRequests();
    for (const args of [
      ['connections', 'list'],
      ['auth', 'status'],
    ]) {
      const res = await w.run(args, { env, timeoutMs: 10_000 });
      expect([1, 3]).toContain(res.code);
      const line = errorLine(res);
      expect(line).toContain(credFile);
      expect(line).toMatch(/run cssctl logout/);
    }
    expect(readFileSync(credFile, 'utf8')).toBe('not json at all');
    expect(w.sandbox.requests).toHaveLength(0);
    const out = await w.run(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(credFile)).toBe(false);
    expect((await w.run(['auth', 'status'], { env })).code).toBe(3);
  });
});

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
  /** ms from SIGINT to exit. */
  afterSignalMs: number;
}

/**
 * Spawns cssctl with the harness's environment, waits until the sandbox has received `requests` requests or more
 * under `prefix` (so cssctl is running and its handler installed), waits ~300 ms more, sends SIGINT.
 */
async function interrupt(
  args: string[],
  opts: { prefix: string; requests: number; env?: Record<string, string> },
): Promise<Interrupted> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...w.env, ...opts.env })) if (v !== undefined) env[k] = v;
  const child = spawn(...cliSpawn(args), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 8_000;
    while (received(w.sandbox, opts.prefix).length < opts.requests && Date.now() < deadline) await sleep(20);
    // At least these; a paginated --all may also have asked for a page ahead of the one that hangs.
    expect(received(w.sandbox, opts.prefix).length, stderr).toBeGreaterThanOrEqual(opts.requests);
    await sleep(300);
    const sentAt = Date.now();
    child.kill('SIGINT');
    const code = await Promise.race([exited, sleep(4_000).then(() => 'timeout' as const)]);
    expect(code, 'cssctl did not exit within 4 s of SIGINT').not.toBe('timeout');
    return { code: code as number | null, stdout, stderr, afterSignalMs: Date.now() - sentAt };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe('Ctrl-C', () => {
  it('SIGINT during a slow request exits 130 at once with "error: interrupted"', async () => {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults({ kind: 'slow', ms: 5_000, path: '/connections' });
    const res = await interrupt(['connections', 'list'], { prefix: '/connections', requests: 1 });
    expect(res.code).toBe(130);
    expect(res.afterSignalMs).toBeLessThan(2_000);
    expect(res.stdout).toBe('');
    expect(lines(res.stderr)).toEqual(['error: interrupted']);
  });

  it('SIGINT during --all says which --offset resumes, after the items already printed', async () => {
    w.sandbox.clearRequests();
    // Two quick pages, then a third that hangs.
    w.sandbox.injectFaults(
      { kind: 'slow', ms: 1, count: 2, path: '/connections' },
      { kind: 'slow', ms: 5_000, path: '/connections' },
    );
    const res = await interrupt(['connections', 'list', '--all', '--limit', '1', '-o', 'ndjson'], {
      prefix: '/connections',
      requests: 3,
    });
    expect(res.code).toBe(130);
    expect(res.afterSignalMs).toBeLessThan(2_000);
    expect(lines(res.stdout).map((l) => (JSON.parse(l) as { alias: string }).alias)).toEqual([
      'prod',
      'staging',
    ]);
    // -o ndjson: the error is a JSON object too.
    const errs = lines(res.stderr);
    expect(errs).toHaveLength(1);
    const err = (JSON.parse(errs[0]!) as JsonError).error;
    expect(err.detail).toMatch(/^interrupted/);
    expect(err.detail).toBe(
      'interrupted; resume with: cssctl connections list --all --limit 1 -o ndjson --offset 2',
    );

    // The same in text form.
    w.sandbox.clearRequests();
    w.sandbox.injectFaults(
      { kind: 'slow', ms: 1, count: 2, path: '/connections' },
      { kind: 'slow', ms: 5_000, path: '/connections' },
    );
    const text = await interrupt(['connections', 'list', '--all', '--limit', '1'], {
      prefix: '/connections',
      requests: 3,
    });
    expect(text.code).toBe(130);
    expect(lines(text.stderr)).toEqual([
      'error: interrupted; resume with: cssctl connections list --all --limit 1 --offset 2',
    ]);
  });

  it('SIGINT during the back-off before a retry exits 130 at once', async () => {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults({ kind: 'status', status: 503, count: 1, path: '/connections' });
    // The real back-off: 2 s before the second attempt.
    const res = await interrupt(['connections', 'list'], {
      prefix: '/connections',
      requests: 1,
      env: { CSSCTL_RETRY_BASE_MS: '1000' },
    });
    expect(res.code).toBe(130);
    expect(res.afterSignalMs).toBeLessThan(1_000);
    expect(lines(res.stderr).filter((l) => l.startsWith('error: '))).toEqual(['error: interrupted']);
    expect(received(w.sandbox, '/connections')).toHaveLength(1);
  });
});
