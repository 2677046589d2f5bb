// src/mcp/call-io.ts: what a tool call's notices become for an assistant.
import { describe, expect, it } from 'vitest';
import { withoutFlagHint } from '../../src/mcp/call-io.js';

describe('a notice as a progress message', () => {
  it.each([
    [
      '3 findings ignored by .cssctl-ignore.yaml (--no-ignore to show them)',
      '3 findings ignored by .cssctl-ignore.yaml',
    ],
    ['rate limited; waiting 4s (raise --max-wait to wait longer)', 'rate limited; waiting 4s'],
    // No flag in the parentheses, or not at the end: kept as it is.
    ['Scan scn_1: running (12s)', 'Scan scn_1: running (12s)'],
    ['retrying (attempt 2 of 3)', 'retrying (attempt 2 of 3)'],
    ['use --all (every page) to read them', 'use --all (every page) to read them'],
    ['a-b (x--y)', 'a-b (x--y)'],
  ])('%s', (given, said) => {
    expect(withoutFlagHint(given)).toBe(said);
  });
});
