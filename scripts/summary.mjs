// Prints the closing "N passed, N failed" line from vitest's JSON report (argv[2]) and the unhandled errors
// written by scripts/vitest-unhandled.mjs (argv[3]). A test file that could not run, or an unhandled error
// (which may have hidden a failure), counts as a failure and is named. Skipped tests are named too, with why
// and how to run them (the `skip` a test or its suite gives in its meta: test/helpers/skip.ts). Exit 1 when
// anything failed.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const report = read(process.argv[2]);
if (!report) {
  console.log('0 passed, 1 failed (no test report: vitest did not finish)');
  process.exit(1);
}
const unhandled = process.argv[3] ? read(process.argv[3]) : [];
const problems = [];
if (!Array.isArray(unhandled)) problems.push('the unhandled-error report is missing: vitest did not finish');
else
  for (const e of unhandled)
    problems.push(
      `unhandled error: ${e.name}: ${e.message}${
        e.stack
          ? `\n    ${e.stack
              .split('\n')
              .slice(1, 4)
              .map((l) => l.trim())
              .join('\n    ')}`
          : ''
      }`,
    );
// A file that failed without a failing test: it could not be loaded, or a hook failed.
for (const file of report.testResults ?? []) {
  if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
    problems.push(
      `test file failed: ${relative(process.cwd(), file.name)}: ${file.message || 'no test ran'}`,
    );
}
for (const p of problems) console.log(p);

// Skipped tests, by file and reason: what did not run is never only a number.
const skippedBy = new Map();
for (const file of report.testResults ?? [])
  for (const t of file.assertionResults ?? []) {
    if (!['skipped', 'pending', 'todo'].includes(t.status)) continue;
    const why =
      t.meta?.skip ?? (t.status === 'todo' ? 'a todo' : 'no reason given (see the skip in that file)');
    const key = `${relative(process.cwd(), file.name)}\u0000${why}`;
    if (!skippedBy.has(key)) skippedBy.set(key, []);
    skippedBy.get(key).push(t.fullName || t.title);
  }
for (const [key, names] of skippedBy) {
  const [file, why] = key.split('\u0000');
  console.log(`skipped ${names.length} in ${file}: ${why}`);
  for (const name of names.slice(0, 5)) console.log(`  - ${name}`);
  if (names.length > 5) console.log(`  - and ${names.length - 5} more`);
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const failed = (report.numFailedTests ?? 0) + problems.length;
const unhandledCount = Array.isArray(unhandled) ? unhandled.length : 0;
console.log(
  `${report.numPassedTests ?? 0} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` +
    (unhandledCount ? ` (${unhandledCount} unhandled error${unhandledCount > 1 ? 's' : ''})` : ''),
);
process.exit(failed ? 1 : 0);
