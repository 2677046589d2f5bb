import { completeWith } from '../../completion/meta.js';
import { Argument, defineVerb } from '../shared/define.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `cssctl completion <shell>`: prints a script whatever -o says, so it offers no format (completion, docs). */
export const completionCommand = defineVerb('completion', (cmd) =>
  completeWith(
    cmd
      .description('print the shell completion script (bash, zsh or fish)')
      .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS)),
    { outputs: [] },
  ),
);

/** The hidden `cssctl __complete <source>`, which the completion scripts ask at TAB time. */
export const completeCommand = defineVerb('__complete', (cmd) =>
  cmd
    .description('values for the completion scripts')
    .addArgument(new Argument('<source>').choices(['profiles', 'connections', 'scans'] as const)),
);
