#!/usr/bin/env node
// The executable: checks the runtime, answers `--version` and `… --help` from the text the build took from
// the CLI itself (dist/help.json, see scripts/gen-help.mjs), and otherwise loads the bundled CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: cssctl needs Node.js 22.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
// cssctl decides colour itself (FORCE_COLOR beats NO_COLOR); without this Node warns when both are set.
if (process.env.FORCE_COLOR !== undefined) delete process.env.NO_COLOR;

if (!answerEarly(process.argv.slice(2))) {
  // Compiled code of the bundle is kept between runs (in the OS temp folder; NODE_COMPILE_CACHE moves it).
  process.getBuiltinModule('node:module').enableCompileCache?.();
  // --verbose stack traces point into the TypeScript sources through dist/*.map; other runs never read them.
  if (process.argv.includes('--verbose') || process.env.CSSCTL_DEBUG === '1')
    process.setSourceMapsEnabled(true);
  const { run } = await import('../dist/cli.js');
  await run();
}

/** `cssctl --version`, `cssctl [command…] --help|-h`: printed from dist/help.json when it has the answer. */
function answerEarly(args) {
  const last = args[args.length - 1];
  const version = args.length === 1 && last === '--version';
  if (!version && last !== '--help' && last !== '-h') return false;
  const fs = process.getBuiltinModule('node:fs');
  let text;
  try {
    const generated = JSON.parse(fs.readFileSync(new URL('../dist/help.json', import.meta.url), 'utf8'));
    if (version) text = `${generated.version}\n`;
    else {
      const entry = generated.help[args.slice(0, -1).join(' ')];
      if (!entry || args.slice(0, -1).some((a) => a.startsWith('-'))) return false;
      // On a terminal commander wraps to its width: answered here at the width of a pipe (80) and from the
      // width where nothing wraps; other widths go to the CLI.
      text = entry.text;
      if (process.getBuiltinModule('node:tty').isatty(1)) {
        const columns = process.stdout.columns ?? 0;
        if (columns >= entry.wideFrom) text = entry.wide;
        else if (columns !== generated.width) return false;
      }
    }
  } catch {
    return false; // no dist/help.json (a partial build): the CLI answers
  }
  try {
    fs.writeSync(1, text);
  } catch (err) {
    // As the CLI does (cli-contract.md §3): a reader leaving early is quiet; anything else is exit 1.
    if (err.code !== 'EPIPE') {
      process.stderr.write(`error: cannot write output: ${err.message}\n`);
      process.exitCode = 1;
    }
  }
  return true;
}
