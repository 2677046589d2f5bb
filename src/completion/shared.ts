import { flagNames, type CommandSpec } from './model.js';
import type { CompletionValues } from './meta.js';

export const HEADER =
  'Generated from the command tree by `cssctl completion`; do not edit (npm run completions regenerates completions/).';

/** Single-quoted for sh, bash and zsh. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Case patterns (sh syntax, already quoted) for the values of each value-taking flag (`path|--flag`) and
 * each positional argument (`path#index`; a variadic last argument matches every later index too).
 */
export function valueEntries(
  cmds: CommandSpec[],
): { pattern: string; values: CompletionValues; list?: boolean }[] {
  const out: { pattern: string; values: CompletionValues; list?: boolean }[] = [];
  for (const c of cmds) {
    const p = c.path.join(' ');
    for (const f of c.flags) {
      if (!f.values) continue;
      out.push({
        pattern: flagNames(f)
          .map((n) => sq(`${p}|${n}`))
          .join('|'),
        values: f.values,
        list: f.list,
      });
    }
    c.args.forEach((a, i) => {
      if (!a.values) return;
      out.push({ pattern: sq(`${p}#${i}`), values: a.values });
      if (a.variadic) out.push({ pattern: `${sq(`${p}#`)}*`, values: a.values });
    });
  }
  return out;
}
