import { expect } from 'vitest';
import { UsageError } from '../../src/core/errors.js';

/** Runs fn, expecting it to throw a UsageError, and returns that error for further checks. */
export function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError, nothing was thrown');
}
