import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli.js';
import {
  ApiError,
  AuthError,
  CliError,
  ExitError,
  InterruptedError,
  NetworkError,
  RateLimitError,
  UsageError,
  exitCodeFor,
} from '../../src/core/errors.js';
import { IO } from '../../src/core/io.js';

class Collect extends Writable {
  chunks: string[] = [];
  isTTY?: boolean;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

function makeIO(opts: { verbose?: boolean; env?: NodeJS.ProcessEnv; stderrTTY?: boolean } = {}) {
  const stdout = new Collect();
  const stderr = new Collect();
  if (opts.stderrTTY) stderr.isTTY = true;
  const io = new IO(
    { stdin: new PassThrough(), stdout, stderr },
    { env: opts.env ?? {}, verbose: opts.verbose },
  );
  return { io, stdout, stderr };
}

const req = { method: 'POST', url: 'https://s.example.com/api/v1/connections' };

function apiError(status: number, body: unknown = {}, requestId?: string): ApiError {
  return ApiError.fromResponse(
    status,
    typeof body === 'string' ? body : JSON.stringify(body),
    req,
    requestId,
  );
}

describe('exitCodeFor', () => {
  it.each([
    [400, 7],
    [401, 3],
    [403, 4],
    [404, 5],
    [409, 6],
    [422, 7],
    [429, 8],
    [500, 1],
    [502, 1],
    [503, 1],
    [418, 1],
  ])('ApiError HTTP %i -> exit %i', (status, code) => {
    expect(exitCodeFor(apiError(status))).toBe(code);
  });

  it.each([
    ['UsageError', new UsageError('bad flag'), 2],
    ['AuthError', new AuthError('not logged in'), 3],
    ['RateLimitError', new RateLimitError('too long'), 8],
    ['InterruptedError', new InterruptedError(), 130],
    ['ExitError 9', new ExitError('scan failed', 9), 9],
    ['ExitError 10', new ExitError('findings at or above high', 10), 10],
    ['NetworkError', new NetworkError('reset', 'reset'), 1],
    ['CliError', new CliError('something'), 1],
    ['plain Error', new Error('unexpected'), 1],
    ['a thrown string', 'oops', 1],
    ['undefined', undefined, 1],
  ])('%s -> exit %i', (_name, err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it('a plain object with an exitCode is not trusted', () => {
    expect(exitCodeFor({ exitCode: 0 })).toBe(1);
  });

  it('an AuthError wrapping a 401 ApiError is still exit 3', () => {
    expect(exitCodeFor(new AuthError('session expired', { cause: apiError(401) }))).toBe(3);
  });
});

describe('ApiError.fromResponse', () => {
  it('reads the spec body {detail, code, field}', () => {
    const e = apiError(
      409,
      { detail: 'Connection alias already exists', code: 'duplicate_alias', field: 'alias' },
      'req-1',
    );
    expect(e).toBeInstanceOf(CliError);
    expect(e.status).toBe(409);
    expect(e.detail).toBe('Connection alias already exists');
    expect(e.message).toBe('Connection alias already exists');
    expect(e.code).toBe('duplicate_alias');
    expect(e.field).toBe('alias');
    expect(e.requestId).toBe('req-1');
    expect(e.method).toBe('POST');
    expect(e.url).toBe(req.url);
    expect(e.fieldErrors).toStrictEqual([]);
  });

  it('reads errors: [{field, detail}]', () => {
    const e = apiError(422, {
      detail: 'Validation failed',
      errors: [
        { field: 'alias', detail: 'must not be empty' },
        { field: 'provider', detail: 'unknown provider' },
      ],
    });
    expect(e.detail).toBe('Validation failed');
    expect(e.fieldErrors).toStrictEqual([
      { field: 'alias', detail: 'must not be empty' },
      { field: 'provider', detail: 'unknown provider' },
    ]);
    expect(exitCodeFor(e)).toBe(7);
  });

  it('field errors alone still give a detail', () => {
    const e = apiError(422, { errors: [{ field: 'url', detail: 'must be https' }] });
    expect(e.detail).not.toBe('');
    expect(e.fieldErrors).toStrictEqual([{ field: 'url', detail: 'must be https' }]);
  });

  it('FastAPI-style detail list [{loc, msg}]', () => {
    const e = apiError(422, { detail: [{ loc: ['body', 'alias'], msg: 'field required' }] });
    expect(e.fieldErrors).toStrictEqual([{ field: 'body.alias', detail: 'field required' }]);
  });

  it('a short non-JSON body becomes the detail', () => {
    const e = apiError(502, 'upstream connect error');
    expect(e.detail).toBe('upstream connect error');
    expect(exitCodeFor(e)).toBe(1);
  });

  it('an HTML body is not echoed', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
    const e = apiError(502, html);
    expect(e.detail).not.toContain('<');
    expect(e.detail).not.toContain('Bad Gateway</');
    expect(e.detail).toMatch(/502/);
  });

  it('a long non-JSON body is not echoed', () => {
    const e = apiError(500, 'x'.repeat(5000));
    expect(e.detail.length).toBeLessThan(100);
  });

  it.each([
    [400, 'invalid request'],
    [401, 'not authenticated'],
    [403, 'not permitted'],
    [404, 'not found'],
    [409, 'already exists'],
    [422, 'request failed validation'],
    [429, 'rate limit exceeded'],
  ])('an empty body gives a default detail for %i', (status, detail) => {
    expect(apiError(status, '').detail).toBe(detail);
    expect(apiError(status, '   ').detail).toBe(detail);
  });

  it('an empty body on a 5xx names the status', () => {
    expect(apiError(503, '').detail).toContain('503');
  });

  it('a JSON object with a non-string detail falls back to the default', () => {
    expect(apiError(404, { detail: 42 }).detail).toBe('not found');
    expect(apiError(404, { message: 'Scan not found' }).detail).toBe('Scan not found');
  });

  it('a 403 carries a hint about the role', () => {
    expect(apiError(403, { detail: 'Forbidden' }).hint).toMatch(/role/);
  });
});

describe('reportError', () => {
  it('prints exactly one line for an ApiError with detail, HTTP status, code and field', () => {
    const { io, stdout, stderr } = makeIO();
    const e = apiError(409, {
      detail: 'Connection alias already exists',
      code: 'duplicate_alias',
      field: 'alias',
    });
    reportError(io, e, false);
    expect(stdout.text).toBe('');
    const lines = stderr.text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const line = lines[0]!;
    expect(line).toMatch(/^error: /);
    expect(line).toContain('Connection alias already exists');
    expect(line).toContain('HTTP 409');
    expect(line).toContain('duplicate_alias');
    expect(line).toContain('alias');
    expect(line).toMatch(/field\W+alias/);
  });

  it('lists field errors on the same line', () => {
    const { io, stderr } = makeIO();
    reportError(
      io,
      apiError(422, { detail: 'Validation failed', errors: [{ field: 'provider', detail: 'unknown' }] }),
      false,
    );
    expect(stderr.text.split('\n')).toHaveLength(2);
    expect(stderr.text).toContain('provider');
    expect(stderr.text).toContain('unknown');
    expect(stderr.text).toContain('HTTP 422');
  });

  it('adds the hint for an AuthError', () => {
    const { io, stderr } = makeIO();
    reportError(io, new AuthError('not logged in'), false);
    expect(stderr.text).toMatch(/^error: not logged in.*cssctl login.*\n$/);
  });

  it('keeps a multi-line message on one line', () => {
    const { io, stderr } = makeIO();
    reportError(io, apiError(400, { detail: 'first line\nsecond line\r\nthird' }), false);
    expect(stderr.text.split('\n')).toHaveLength(2);
    expect(stderr.text).toContain('first line');
    expect(stderr.text).toContain('third');
  });

  it('control characters from the service never reach the terminal', () => {
    const { io, stderr } = makeIO();
    reportError(
      io,
      apiError(400, { detail: 'bad \u001b[2J\u001b]0;pwned\u0007 input\rover', code: 'x\u001b[31m' }),
      false,
    );
    expect(stderr.text).toContain('bad');
    // eslint-disable-next-line no-control-regex
    expect(stderr.text.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('with json=true prints one JSON object {"error": {status, code, detail, field, request_id}}', () => {
    const { io, stdout, stderr } = makeIO();
    reportError(
      io,
      apiError(409, { detail: 'Alias taken', code: 'duplicate_alias', field: 'alias' }, 'req-42'),
      true,
    );
    expect(stdout.text).toBe('');
    const lines = stderr.text.split('\n');
    expect(lines).toHaveLength(2);
    const parsed = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
    expect(Object.keys(parsed)).toStrictEqual(['error']);
    expect(parsed.error).toMatchObject({
      status: 409,
      code: 'duplicate_alias',
      detail: 'Alias taken',
      field: 'alias',
      request_id: 'req-42',
    });
  });

  it('json: a non-API error still has every key, with nulls', () => {
    const { io, stderr } = makeIO();
    reportError(io, new UsageError('invalid --timeout "abc"'), true);
    const parsed = JSON.parse(stderr.text) as { error: Record<string, unknown> };
    for (const k of ['status', 'code', 'detail', 'field', 'request_id'])
      expect(parsed.error).toHaveProperty(k);
    expect(parsed.error.detail).toBe('invalid --timeout "abc"');
    expect(parsed.error.status).toBeNull();
  });

  it('json: an AuthError caused by a 401 reports the status', () => {
    const { io, stderr } = makeIO();
    reportError(
      io,
      new AuthError('session expired', { cause: apiError(401, { detail: 'expired' }, 'r1') }),
      true,
    );
    const parsed = JSON.parse(stderr.text) as { error: Record<string, unknown> };
    expect(parsed.error.status).toBe(401);
    expect(parsed.error.request_id).toBe('r1');
  });

  it('json: never coloured, even on a colour terminal', () => {
    const { io, stderr } = makeIO({ stderrTTY: true, env: { FORCE_COLOR: '1' } });
    reportError(io, apiError(404, { detail: 'no such scan' }), true);
    expect(stderr.text).not.toContain('\u001b');
    expect(() => JSON.parse(stderr.text) as unknown).not.toThrow();
  });

  it('never prints a stack trace without verbose', () => {
    for (const err of [
      new Error('unexpected'),
      new TypeError('x is undefined'),
      apiError(500),
      new CliError('c', { cause: new Error('inner') }),
    ]) {
      for (const json of [false, true]) {
        const { io, stderr } = makeIO();
        reportError(io, err, json);
        expect(stderr.text).not.toMatch(/\n\s+at /);
        expect(stderr.text).not.toContain('errors.test.ts');
        expect(stderr.text.split('\n')).toHaveLength(2);
      }
    }
  });

  it('prints the stack of an unexpected error with verbose', () => {
    const { io, stderr } = makeIO({ verbose: true });
    reportError(io, new TypeError('x is undefined'), false);
    expect(stderr.text).toMatch(/^error: x is undefined\n/);
    expect(stderr.text).toMatch(/\n\s+at /);
  });

  it('redacts registered secrets from the error line', () => {
    const { io, stderr } = makeIO();
    io.addSecret('eyJhbGciOi.secret.token');
    reportError(io, new Error('bad token eyJhbGciOi.secret.token'), false);
    expect(stderr.text).not.toContain('eyJhbGciOi.secret.token');
  });

  it('a non-Error value is reported as a string', () => {
    const { io, stderr } = makeIO();
    reportError(io, 'weird failure', false);
    expect(stderr.text).toBe('error: weird failure\n');
  });
});

describe('an error answer without a body', () => {
  it.each([502, 500, 418])('names HTTP %i once, not twice', (status) => {
    const { io, stderr } = makeIO();
    reportError(io, ApiError.fromResponse(status, '', req), false);
    expect(stderr.text.match(new RegExp(`HTTP ${status}`, 'g'))).toHaveLength(1);
    expect(stderr.text).toMatch(status >= 500 ? /^error: service error \(HTTP \d+\)/ : /unexpected HTTP 418/);
  });
});
