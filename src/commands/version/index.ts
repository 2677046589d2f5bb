import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';

export function registerVersion(program: Command, wire: Wire): void {
  program
    .command('version')
    .description('print the version, the Node, the platform and the credential store that would be used')
    .action(wire(async () => (await import('./version.js')).version));
}
