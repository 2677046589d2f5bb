// --jq and its companions (cli-contract.md §10). Kept tiny: cli.ts imports it at start-up; the engine is
// loaded by src/jq/stage.ts only when --jq is given.
import { UsageError } from '../core/errors.js';

/** Joins the name and value of one `--arg`/`--argjson` inside commander's one-value option. */
const SEP = '\u0000';

/**
 * `--arg name value` and `--argjson name json` take two values, as jq's own flags do; commander options take
 * one. They are joined into one argument here (`--arg`, `name<NUL>value`), before commander parses argv.
 * Everything after `--` is left as it is.
 */
export function pairJqArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a === '--arg' || a === '--argjson') {
      if (i + 2 >= argv.length) throw new UsageError(`${a} takes a name and a value: ${a} <name> <value>`);
      const name = argv[i + 1]!;
      const value = argv[i + 2]!;
      if (name.includes(SEP)) throw new UsageError(`${a}: invalid name`);
      out.push(a, `${name}${SEP}${value}`);
      i += 2;
    } else out.push(a);
  }
  return out;
}

/** What the global options say about --jq. */
export interface JqOptions {
  filter: string;
  /** jq's own flags for the variables: ['--arg', name, value, '--argjson', name, json, …] in order. */
  varFlags: string[];
  exitStatus: boolean;
}

export interface JqGlobals {
  jq?: string;
  arg?: string[];
  argjson?: string[];
  jqExitStatus?: boolean;
}

/** Commands whose stdout is text, never JSON (a token, a path, a value): --jq is refused before they run. */
const PLAIN_TEXT = new Set(['auth token', 'config get', 'config path']);

/**
 * The --jq settings, or undefined without --jq (the companions alone are a usage error, and so is --jq on a
 * command that prints no JSON).
 */
export function jqOptions(g: JqGlobals, command?: string): JqOptions | undefined {
  if (g.jq === undefined) {
    const stray = g.arg?.length
      ? '--arg'
      : g.argjson?.length
        ? '--argjson'
        : g.jqExitStatus
          ? '--jq-exit-status'
          : '';
    if (stray) throw new UsageError(`${stray} needs --jq <filter>`);
    return undefined;
  }
  if (command !== undefined && PLAIN_TEXT.has(command))
    throw new UsageError(`--jq: "${command}" prints text, not JSON`);
  const varFlags: string[] = [];
  for (const [flag, list] of [
    ['--arg', g.arg],
    ['--argjson', g.argjson],
  ] as const) {
    for (const joined of list ?? []) {
      const at = joined.indexOf(SEP);
      if (at < 0) throw new UsageError(`${flag} takes a name and a value: ${flag} <name> <value>`);
      varFlags.push(flag, joined.slice(0, at), joined.slice(at + 1));
    }
  }
  return { filter: g.jq, varFlags, exitStatus: g.jqExitStatus === true };
}
