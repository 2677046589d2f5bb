import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';

export function registerAuth(program: Command, wire: Wire): void {
  program
    .command('login')
    .description('log in and store the session (password prompt on a terminal)')
    .option('--email <email>', 'account email (env: CSSCTL_EMAIL)')
    .option('--password-stdin', 'read the password from standard input')
    .action(wire(async () => (await import('./login.js')).login));

  program
    .command('logout')
    .description("remove the profile's tokens from every credential store")
    .action(wire(async () => (await import('./logout.js')).logout));

  const auth = program.command('auth').description('inspect and manage the session');
  auth
    .command('status')
    .description('show who and where you are logged in, and when the token expires')
    .action(wire(async () => (await import('./status.js')).status));
  auth
    .command('token')
    .description('print a valid access token (refreshing first when needed)')
    .action(wire(async () => (await import('./token.js')).token));
  auth
    .command('switch')
    .argument('<profile>', 'a profile of config.json (cssctl config profiles lists them)')
    .description('make a profile the default for later commands (--profile and CSSCTL_PROFILE still win)')
    .action(wire(async () => (await import('./switch.js')).authSwitch));
  auth
    .command('refresh')
    .description('refresh the access token now')
    .action(wire(async () => (await import('./refresh.js')).refresh));
}
