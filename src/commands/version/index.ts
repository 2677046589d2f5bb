import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { versionCommand } from './version.command.js';

export function registerVersion(program: Command, wire: Wire): void {
  addVerb(program, versionCommand, wire, async () => (await import('./version.js')).version);
}
