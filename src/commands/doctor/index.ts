import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';

export function registerDoctor(program: Command, wire: Wire): void {
  program
    .command('doctor')
    .description(
      'check what cssctl needs, one line each (ok, warn, fail): config, credential store, session, versions, proxy, then the service (DNS, TCP, TLS, refresh, API, clock, rate limit)',
    )
    .action(
      wire(async () => (await import('./doctor.js')).doctor, {
        names: ['table', 'json', 'ndjson'],
        default: 'table',
      }),
    );
}
