// Why a test may be skipped and how to run it, carried to scripts/summary.mjs by vitest's JSON report (a test's
// or a suite's `meta`, which its tests inherit): `describe.skipIf(cond)('…', skipped('why', 'how'), () => …)`.

declare module 'vitest' {
  interface TaskMeta {
    /** Said by scripts/summary.mjs when the test was skipped: why, and how to run it. */
    skip?: string;
  }
}

export function skipped(why: string, run: string): { meta: { skip: string } } {
  return { meta: { skip: `${why}; to run: ${run}` } };
}
