// `cssctl help …`: a topic (a docs/ page, src/help/pages.ts) or a command (its --help). Loaded only when the
// command word is `help`; an unknown word is a usage error (exit 2) naming the topics, with a suggestion.
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { HELP_TOPICS, helpTopic } from './topics.js';

export type HelpRoute = { topic: string } | { command: string[] };

/** Edit distance, a swap of two neighbouring letters counting as one edit (`wiat` is one from `wait`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The closest of `names` to `word`, if one is close enough to be what was meant. */
export function closest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = n.startsWith(word.toLowerCase()) ? 1 : distance(word.toLowerCase(), n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** What `cssctl help <words…>` asks for. */
export function routeHelp(program: Command, words: readonly string[]): HelpRoute {
  const [first, ...rest] = words;
  if (first === undefined) return { command: [] };
  const isCommand = program.commands.some((c) => c.name() === first || c.aliases().includes(first));
  if (!isCommand && helpTopic(first)) {
    if (rest.length > 0)
      throw new UsageError(`help topic ${first} takes nothing after it: got "${rest.join(' ')}"`, {
        hint: `cssctl help ${first}`,
      });
    return { topic: first };
  }
  let cmd = program;
  const path: string[] = [];
  for (const word of words) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) {
      // The commands --help lists (commander's own Help leaves hidden ones out), without an implicit help command.
      const names = cmd
        .createHelp()
        .visibleCommands(cmd)
        .filter((c) => cmd.commands.includes(c))
        .map((c) => c.name());
      if (path.length > 0 && names.length === 0)
        throw new UsageError(`cssctl ${path.join(' ')} has no command "${word}"`, {
          hint: ['cssctl help', ...path].join(' '),
        });
      const topics = HELP_TOPICS.map((t) => t.name);
      const guess = closest(word, path.length === 0 ? [...topics, ...names] : names);
      const what = path.length === 0 ? 'help topic or command' : `command under cssctl ${path.join(' ')}`;
      const list =
        path.length === 0
          ? `topics: ${topics.join(', ')}; cssctl help lists the commands`
          : `commands: ${names.join(', ')}`;
      const hint = ['cssctl help', ...path, ...(guess ? [guess] : [])].join(' ');
      // The list names `cssctl help` already: no hint that says it again.
      throw new UsageError(`no ${what} "${word}"${guess ? ` — did you mean "${guess}"?` : ''} (${list})`, {
        hint: hint === 'cssctl help' ? undefined : hint,
      });
    }
    path.push(next.name());
    cmd = next;
  }
  return { command: path };
}
