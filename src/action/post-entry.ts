// dist/action/post.cjs, action.yml's `runs.post`: removes the session when the job ends. The step itself is in
// dist/action/index.cjs.
import { isMainScript, runPost, runStep } from './index.js';

export async function run(): Promise<void> {
  const code = await runStep(runPost);
  if (code !== 0) process.exitCode = code;
}

if (isMainScript(typeof module === 'undefined' ? undefined : module))
  void runStep(runPost).then((code) => process.exit(code));
