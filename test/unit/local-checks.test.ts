// Local checks (issue 21): the scan statuses and the method `api` uses, as functions.
import { describe, expect, it } from 'vitest';
import { apiMethod } from '../../src/commands/api/api.js';
import { scanStatus } from '../../src/commands/scans/list.js';
import { UsageError } from '../../src/core/errors.js';

describe('scanStatus', () => {
  it('accepts the four statuses in any case and trims them', () => {
    expect(['queued', ' Running ', 'COMPLETED', 'failed'].map(scanStatus)).toEqual([
      'queued',
      'running',
      'completed',
      'failed',
    ]);
    expect(scanStatus(undefined)).toBeUndefined();
  });
  it.each(['done', '', 'complete', 'queued,running'])('refuses %j as a usage error naming the four', (s) => {
    expect(() => scanStatus(s)).toThrow(UsageError);
    expect(() => scanStatus(s)).toThrow(/use one of queued, running, completed, failed/);
  });
});

describe('apiMethod', () => {
  it.each([
    [{}, false, 'GET'],
    [{}, true, 'POST'],
    [{ input: 'body.json' }, false, 'POST'],
    [{ method: 'put' }, true, 'PUT'],
    [{ method: 'DELETE' }, false, 'DELETE'],
    [{ paginate: true }, false, 'GET'],
    [{ paginate: true }, true, 'GET'],
    [{ paginate: true, method: 'get' }, true, 'GET'],
  ])('%j with fields=%s is %s', (opts, fields, method) => {
    expect(apiMethod(opts, fields)).toBe(method);
  });
  it.each([
    [{ paginate: true, method: 'POST' }, false, /--paginate reads with GET/],
    [{ paginate: true, input: '-' }, false, /cannot send --input/],
    [{ method: 'GET', input: '-' }, false, /--input cannot be used with GET/],
    [{ input: '-' }, true, /either -f fields or --input/],
    [{ method: 'FETCH' }, false, /unsupported method/],
  ])('%j with fields=%s is a usage error', (opts, fields, message) => {
    expect(() => apiMethod(opts, fields)).toThrow(message);
  });
});
