// --jq and its companions (cli-contract.md §10). Kept tiny: cli.ts imports it at start-up; the engine is
// loaded by src/jq/stage.ts only when --jq is given.
import { PAIR_SEP } from '../../bin/argv.cjs';
import { UsageError } from '../core/errors.js';

/** `--arg name value` reaches here joined into commander's one value (joinPairs, bin/argv.cjs). */
const SEP = PAIR_SEP;

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
