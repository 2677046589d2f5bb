import type { Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import type { Wire } from '../shared/action.js';

export function registerDoctor(program: Command, wire: Wire): void {
  const doctor = program
    .command('doctor')
    .description(
      'check config, credentials, session and the way to the service (DNS, TLS, API, clock, rate limit): one line per check, ok, warn or fail',
    )
    .action(wire(async () => (await import('./doctor.js')).doctor));
  // A line per check, or the checks as one JSON document: -o offers (and completes) only these.
  completeWith(doctor, { outputs: ['table', 'json', 'ndjson'] });
}
