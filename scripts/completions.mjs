// Writes completions/ from the built CLI (run after scripts/build.mjs): the scripts `cssctl completion
// <shell>` prints, generated from the command tree. test/e2e/completion.test.ts fails when they drift.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const bin = fileURLToPath(new URL('bin/cssctl.cjs', root));
const files = { bash: 'cssctl.bash', zsh: '_cssctl', fish: 'cssctl.fish' };

mkdirSync(new URL('completions', root), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  // A clean environment: nothing from the developer's shell can change the output.
  const script = execFileSync(process.execPath, [bin, 'completion', shell], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  writeFileSync(new URL(`completions/${file}`, root), script);
  console.log(`completions/${file}`);
}
