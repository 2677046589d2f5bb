import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { createCommand } from './create.command.js';
import { listCommand } from './list.command.js';

export function registerConnections(program: Command, wire: Wire): void {
  const connections = program.command('connections').description('cloud provider connections');
  addVerb(connections, listCommand, wire, async () => (await import('./list.js')).list);
  addVerb(connections, createCommand, wire, async () => (await import('./create.js')).create);
}
