#!/usr/bin/env node
// The executable: checks the runtime, then loads the bundled CLI. Nothing else lives here.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: cssctl needs Node.js 22.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
// cssctl decides colour itself (FORCE_COLOR beats NO_COLOR); without this Node warns when both are set.
if (process.env.FORCE_COLOR !== undefined) delete process.env.NO_COLOR;
// --verbose stack traces point into the TypeScript sources through dist/*.map; other runs never read them.
if (process.argv.includes('--verbose') || process.env.CSSCTL_DEBUG === '1')
  process.setSourceMapsEnabled(true);
const { run } = await import('../dist/cli.js');
await run();
