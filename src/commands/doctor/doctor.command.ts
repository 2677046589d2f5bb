import { completeWith } from '../../completion/meta.js';
import { defineVerb } from '../shared/define.js';

export const doctorCommand = defineVerb('doctor', (cmd) =>
  // A line per check, or the checks as one JSON document: -o offers (and completes) only these.
  completeWith(
    cmd.description(
      'check config, credentials, session and the way to the service (DNS, TLS, API, clock, rate limit): one line per check, ok, warn or fail',
    ),
    { outputs: ['table', 'json', 'ndjson'] },
  ),
);
