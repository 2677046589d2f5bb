import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { doctorCommand } from './doctor.command.js';

export function registerDoctor(program: Command, wire: Wire): void {
  addVerb(program, doctorCommand, wire, async () => (await import('./doctor.js')).doctor);
}
