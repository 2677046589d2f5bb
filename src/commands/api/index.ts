import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { apiCommand } from './api.command.js';
import { API_OFFER } from './offer.js';

export { API_OFFER };

export function registerApi(program: Command, wire: Wire): void {
  addVerb(program, apiCommand, wire, async () => (await import('./api.js')).api, API_OFFER);
}
