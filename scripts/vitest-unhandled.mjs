// A vitest reporter that writes the run's unhandled errors (an error thrown or rejected outside any test,
// which vitest's JSON report leaves out) to the file named by CSSCTL_UNHANDLED_FILE, for scripts/summary.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export default class UnhandledErrors {
  onTestRunEnd(_modules, unhandledErrors = []) {
    const file = process.env.CSSCTL_UNHANDLED_FILE;
    if (!file) return;
    const errors = [...unhandledErrors].map((e) => ({
      name: e?.name ?? 'Error',
      message: String(e?.message ?? e),
      stack: typeof e?.stack === 'string' ? e.stack.split('\n').slice(0, 6).join('\n') : undefined,
    }));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(errors));
  }
}
