import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { complianceCommand } from './compliance.command.js';

export { parseFailUnder } from './compliance.command.js';

export function registerCompliance(program: Command, wire: Wire): void {
  addVerb(program, complianceCommand, wire, async () => (await import('./compliance.js')).compliance);
}
