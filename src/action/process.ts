// How an entry runs a step in the runner's process: its environment and streams, and the runner's cancellation
// (SIGINT, then SIGTERM 7.5 s later) as the step's abort signal — a second signal ends the process at once, as
// in the terminal (exit 130).
import { ExitCode } from '../core/errors.js';
import type { StepWorld } from './context.js';

export async function runStep(step: (world: StepWorld) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await step({
      env: process.env,
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Whether this entry is the process's main script (the runner: `node dist/action/main.cjs`), rather than
 * imported by another program that calls its run() (@github/local-action). In the sources, run as an ES module
 * (tsx), there is no CommonJS `module`: never the main script.
 */
export function isMainScript(mod: NodeJS.Module | undefined): boolean {
  return mod !== undefined && typeof require !== 'undefined' && require.main === mod;
}
