// Prints the closing "N passed, N failed" line of one test run or several: the arguments are vitest JSON reports
// (or folders of them), each with the unhandled errors scripts/vitest-unhandled.mjs wrote beside it
// (<report>-unhandled.json). A test file that could not run, or an unhandled error (which may have hidden a
// failure), counts as a failure and is named. Skipped tests are named too, with why and how to run them (the
// `skip` a test or its suite gives in its meta: test/helpers/skip.ts). Over several runs (.ci/run: the single
// executable, the package on each Node, the checkout) the counts are summed, and a test skipped in one run that
// ran in another is not counted as skipped: only what no run tested is. Exit 1 when anything failed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The reports named: a folder stands for every report in it (its *.json but the -unhandled ones). */
const files = process.argv.slice(2).flatMap((arg) =>
  existsSync(arg) && statSync(arg).isDirectory()
    ? readdirSync(arg)
        .filter((f) => f.endsWith('.json') && !f.endsWith('-unhandled.json'))
        .sort()
        .map((f) => join(arg, f))
    : [arg],
);
const several = files.length > 1;
const label = (file) => (several ? `[${basename(file, '.json')}] ` : '');

const problems = [];
/** The runs' counts, summed. */
const report = { numPassedTests: 0, numFailedTests: 0, numSkipped: 0 };
let unhandledCount = 0;
/** file\0test name → skipped in every run that had it so far (false once it ran). */
const skippedEverywhere = new Map();
/** file\0why → the tests skipped for that reason (named below when no run tested them). */
const skippedBy = new Map();
let skippedElsewhereRan = 0;

if (files.length === 0) problems.push('no test report named');
for (const file of files) {
  const run = read(file);
  if (!run) {
    problems.push(`${label(file)}no test report (${file}): vitest did not finish`);
    continue;
  }
  report.numPassedTests += run.numPassedTests ?? 0;
  report.numFailedTests += run.numFailedTests ?? 0;
  report.numSkipped += (run.numPendingTests ?? 0) + (run.numTodoTests ?? 0);
  const unhandled = read(file.replace(/\.json$/, '-unhandled.json'));
  if (!Array.isArray(unhandled))
    problems.push(`${label(file)}the unhandled-error report is missing: vitest did not finish`);
  else {
    unhandledCount += unhandled.length;
    for (const e of unhandled)
      problems.push(
        `${label(file)}unhandled error: ${e.name}: ${e.message}${
          e.stack
            ? `\n    ${e.stack
                .split('\n')
                .slice(1, 4)
                .map((l) => l.trim())
                .join('\n    ')}`
            : ''
        }`,
      );
  }
  for (const t of run.testResults ?? []) {
    // A file that failed without a failing test: it could not be loaded, or a hook failed.
    if (t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed'))
      problems.push(
        `${label(file)}test file failed: ${relative(process.cwd(), t.name)}: ${t.message || 'no test ran'}`,
      );
    const path = relative(process.cwd(), t.name);
    for (const a of t.assertionResults ?? []) {
      const name = a.fullName || a.title;
      const key = `${path}\u0000${name}`;
      const skipped = ['skipped', 'pending', 'todo'].includes(a.status);
      skippedEverywhere.set(key, (skippedEverywhere.get(key) ?? true) && skipped);
      if (!skipped) continue;
      const why =
        a.meta?.skip ?? (a.status === 'todo' ? 'a todo' : 'no reason given (see the skip in that file)');
      const byKey = `${path}\u0000${why}`;
      if (!skippedBy.has(byKey)) skippedBy.set(byKey, []);
      skippedBy.get(byKey).push(name);
    }
  }
}
for (const p of problems) console.log(p);

// Skipped tests, by file and reason: what did not run is never only a number.
for (const [byKey, names] of skippedBy) {
  const [path, why] = byKey.split('\u0000');
  // A test skipped in several runs is counted in each, and named once.
  const nowhere = names.filter((n) => skippedEverywhere.get(`${path}\u0000${n}`));
  skippedElsewhereRan += names.length - nowhere.length;
  if (nowhere.length === 0) continue;
  const unique = [...new Set(nowhere)];
  console.log(`skipped ${nowhere.length} in ${path}: ${why}`);
  for (const name of unique.slice(0, 5)) console.log(`  - ${name}`);
  if (unique.length > 5) console.log(`  - and ${unique.length - 5} more`);
}
if (skippedElsewhereRan > 0)
  console.log(`${skippedElsewhereRan} skipped in one run ran in another (not counted as skipped)`);

const skipped = report.numSkipped - skippedElsewhereRan;
const failed = report.numFailedTests + problems.length;
console.log(
  `${report.numPassedTests ?? 0} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` +
    (unhandledCount ? ` (${unhandledCount} unhandled error${unhandledCount > 1 ? 's' : ''})` : ''),
);
process.exit(failed ? 1 : 0);
