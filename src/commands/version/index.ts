import type { Command } from 'commander';
import { lazy, type MakeContext } from '../shared/action.js';

export function registerVersion(program: Command, ctx: MakeContext): void {
  program
    .command('version')
    .description('print the version, the Node, the platform and the credential store that would be used')
    .action(lazy(ctx, async () => (await import('./version.js')).version));
}
