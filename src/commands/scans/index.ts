import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { SCAN_REPORT_OFFER } from '../../report/registry.js';
import { createCommand } from './create.command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';
import { waitCommand } from './wait.command.js';

export function registerScans(program: Command, wire: Wire): void {
  const scans = program.command('scans').description('scans of connections, and waiting for them');
  addVerb(scans, createCommand, wire, async () => (await import('./create.js')).create, SCAN_REPORT_OFFER);
  addVerb(scans, listCommand, wire, async () => (await import('./list.js')).list);
  addVerb(scans, getCommand, wire, async () => (await import('./get.js')).get);
  addVerb(scans, waitCommand, wire, async () => (await import('./wait.js')).wait, SCAN_REPORT_OFFER);
}
