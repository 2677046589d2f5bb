/**
 * V8 settings for a long export (`--all`, `api --paginate`), applied when its second page is asked for.
 * Without them V8 grows its young generation to 32 MB during an export, and a 100,000-finding export peaks
 * near 140 MiB; with them, near 95 MiB whatever the count (`npm run bench`). They are not set at start-up,
 * where they would cost every command ~30 ms.
 *
 * Concurrent Sparkplug is off because with --optimize-for-size its background compile can wait for a garbage
 * collection that never comes once node is exiting, and node then hangs at exit (seen in 17 of 40 runs with
 * --optimize-for-size given to node; in none of 150 with --no-concurrent-sparkplug added). Maglev is off: its
 * compiles left 2–7 MB more in malloc arenas (100,000 findings peaked at 92–102 MB with it, 93–96 MB without,
 * 9 runs each; 2% slower), and hot code still gets Turbofan.
 * scripts/bench.mjs reads the flags from this file.
 */
export const EXPORT_V8_FLAGS = '--optimize-for-size --no-concurrent-sparkplug --no-maglev';

let applied = false;

/** Switches V8 to the export settings (once per process). */
export function useExportHeap(): void {
  if (applied) return;
  applied = true;
  process.getBuiltinModule('node:v8').setFlagsFromString(EXPORT_V8_FLAGS);
}
