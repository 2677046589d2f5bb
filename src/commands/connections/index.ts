import type { Command } from 'commander';
import { addListOptions, collect, type Wire } from '../shared/action.js';

export function registerConnections(program: Command, wire: Wire): void {
  const connections = program.command('connections').description('cloud provider connections');
  addListOptions(connections.command('list').description('list connections')).action(
    wire(async () => (await import('./list.js')).list),
  );
  connections
    .command('create')
    .description('connect a cloud account')
    .requiredOption('--alias <alias>', 'unique name in the workspace')
    .requiredOption('--provider <provider>', 'cloud provider, e.g. aws, gcp, azure')
    .option(
      '--set <key=value>',
      'another field (repeatable; key:=<json> for a non-string value)',
      collect,
      [],
    )
    .action(wire(async () => (await import('./create.js')).create));
}
