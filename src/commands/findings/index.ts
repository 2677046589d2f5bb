import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { diffCommand } from './diff.command.js';
import { getCommand } from './get.command.js';
import { ignoreCommand } from './ignore.command.js';
import { listCommand } from './list.command.js';
import { summaryCommand } from './summary.command.js';
import { SUMMARY_OFFER } from './summary-offer.js';

export function registerFindings(program: Command, wire: Wire): void {
  const findings = program.command('findings').description('security findings of the workspace');
  addVerb(findings, listCommand, wire, async () => (await import('./list.js')).list, FINDINGS_OFFER);
  addVerb(findings, summaryCommand, wire, async () => (await import('./summary.js')).summary, SUMMARY_OFFER);
  addVerb(findings, diffCommand, wire, async () => (await import('./diff.js')).diff, FINDINGS_OFFER);
  addVerb(findings, ignoreCommand, wire, async () => (await import('./ignore.js')).ignore);
  addVerb(findings, getCommand, wire, async () => (await import('./get.js')).get);
}
