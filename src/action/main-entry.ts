// dist/action/main.cjs, action.yml's `runs.main`: the runner runs it with node; another program (GitHub's
// @github/local-action) imports it and calls run(). The step itself is in dist/action/index.cjs.
import { isMainScript, runMain, runStep } from './index.js';

/** The main step; a failed step sets the process's exit code to 1, as @actions/core's setFailed() does. */
export async function run(): Promise<void> {
  const code = await runStep(runMain);
  if (code !== 0) process.exitCode = code;
}

// The runner: exit once the step is done, so an idle keep-alive socket cannot hold the step open.
if (isMainScript(typeof module === 'undefined' ? undefined : module))
  void runStep(runMain).then((code) => process.exit(code));
