// `npm run sandbox`: the sandbox service on 127.0.0.1:8787 (settings: see ENV_HELP in env.ts).
import { banner, ENV_HELP, optionsFromEnv } from './env.js';
import { startSandbox } from './server.js';
import type { SandboxOptions } from './types.js';

function fail(message: string, exitCode: number): never {
  console.error(`sandbox: ${message}`);
  process.exit(exitCode);
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: npm run sandbox\n${ENV_HELP}`);
  process.exit(0);
}

let options: Partial<SandboxOptions>;
try {
  options = optionsFromEnv(process.env);
} catch (err) {
  fail((err as Error).message, 2);
}

const sandbox = await startSandbox(options).catch((err: NodeJS.ErrnoException) => {
  const where = `${options.host ?? '127.0.0.1'}:${options.port ?? 8787}`;
  if (err.code === 'EADDRINUSE') fail(`port ${where} is already in use (set PORT to another one)`, 1);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on ${where}`, 1);
  fail(err.message, 1);
});

process.stdout.write(banner(sandbox.url, sandbox.credentials, options.faults?.length ?? 0));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`sandbox: ${signal}, stopping`);
    void sandbox.close().then(() => process.exit(0));
  });
}
