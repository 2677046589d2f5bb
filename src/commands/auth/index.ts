import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { loginCommand } from './login.command.js';
import { logoutCommand } from './logout.command.js';
import { refreshCommand } from './refresh.command.js';
import { statusCommand } from './status.command.js';
import { switchCommand } from './switch.command.js';
import { tokenCommand } from './token.command.js';

export function registerAuth(program: Command, wire: Wire): void {
  addVerb(program, loginCommand, wire, async () => (await import('./login.js')).login);
  addVerb(program, logoutCommand, wire, async () => (await import('./logout.js')).logout);
  const auth = program.command('auth').description('inspect and manage the session');
  addVerb(auth, statusCommand, wire, async () => (await import('./status.js')).status);
  addVerb(auth, tokenCommand, wire, async () => (await import('./token.js')).token);
  addVerb(auth, switchCommand, wire, async () => (await import('./switch.js')).authSwitch);
  addVerb(auth, refreshCommand, wire, async () => (await import('./refresh.js')).refresh);
}
