// A command's --help examples as they travel on the commander command: set by the CLI when it builds the tree
// (src/commands/examples.ts holds the examples and attaches them), read by the command reference
// (src/reference/model.ts: docs/commands.md and the man pages). Here, below both, so the reference never reaches
// up into the commands.
import type { Command } from 'commander';

const KEY = Symbol.for('cssctl.examples');

/** Keeps `examples` on the command, for examplesOf(). */
export function keepExamples(cmd: Command, examples: readonly string[]): void {
  (cmd as unknown as Record<symbol, readonly string[]>)[KEY] = examples;
}

/** The examples a command was given (none when it has none). */
export function examplesOf(cmd: Command): readonly string[] {
  return (cmd as unknown as Record<symbol, readonly string[] | undefined>)[KEY] ?? [];
}
