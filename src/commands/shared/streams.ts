// Which commands read every finding (every page, two whole sets, or a wait whose report may read them all): the
// launcher (bin/cssctl.cjs, wantsExportHeap) starts those in a second Node with the export V8 flags. It is said
// where the command is defined — on the verb, or on the option helper that adds the flag (--all, --paginate,
// --baseline) — and the build writes what the tree says into dist/launch.json (scripts/gen-help.mjs), which the
// launcher reads: a command that reads every finding and does not say so fails test/unit/relaunch.test.ts.
// Kept free of imports: the command tree, loaded on every run, imports it.

const KEY = Symbol.for('cssctl.readsEveryFinding');

/** When a command reads every finding: on every run (`true`), or when given one of these flags (long names). */
export type ReadsEvery = true | string[];

type Carrier = { [KEY]?: ReadsEvery };

/**
 * Says that `cmd` reads every finding: always, or when given the flag `when` (`--all`). Returns the command, so
 * it chains; said twice, the conditions add up (and "always" stands).
 */
export function readsEveryFinding<T extends object>(cmd: T, when?: `--${string}`): T {
  const c = cmd as Carrier;
  const before = c[KEY];
  c[KEY] = before === true || when === undefined ? true : [...(before ?? []), when.slice(2)];
  return cmd;
}

/** What readsEveryFinding() said of a command, if anything. */
export function readsEveryOf(cmd: object): ReadsEvery | undefined {
  return (cmd as Carrier)[KEY];
}

interface Tree {
  name(): string;
  readonly commands: readonly Tree[];
}

/**
 * The launcher's manifest (dist/launch.json): each command of the tree that reads every finding, by its path
 * (`findings diff`), with `true` or the flags that make it do so.
 */
export function launchManifest(program: Tree): Record<string, ReadsEvery> {
  const out: Record<string, ReadsEvery> = {};
  const walk = (cmd: Tree, path: string[]) => {
    const rule = readsEveryOf(cmd);
    if (rule !== undefined && path.length > 0) out[path.join(' ')] = rule;
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}
