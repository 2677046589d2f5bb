import type { Context } from '../../core/context.js';
import { record, type Result } from '../../report/result.js';
import { VERSION } from '../../version.js';

/**
 * `cssctl version` (and `cssctl --version --verbose`, cli-contract.md §12): what runs and where a login would
 * keep its session. The credential store is the one `login` would pick now: with CSSCTL_CREDENTIAL_STORE=auto
 * the OS keychain when one answers (asked, not assumed), else the file. Offline; nothing is written.
 */
export async function version(ctx: Context): Promise<Result> {
  const credentials = ctx.credentials();
  const keychain = credentials.mode === 'file' ? undefined : await credentials.keychain(true);
  const store = keychain ? 'keychain' : credentials.mode === 'keychain' ? 'none' : 'file';
  const sea = process.getBuiltinModule('node:sea')?.isSea() ?? false;
  const obj = {
    version: VERSION,
    node: process.versions.node,
    v8: process.versions.v8,
    platform: `${process.platform}-${process.arch}`,
    build: sea ? 'single executable' : 'npm package',
    credential_store: store,
    credential_store_mode: credentials.mode,
    credential_file: store === 'file' ? credentials.file.path : null,
  };
  const format = (await ctx.settings()).outputOr('table');
  if (format !== 'table') return record(obj, format);
  const where =
    store === 'keychain'
      ? 'OS keychain'
      : store === 'file'
        ? `file ${credentials.file.path}`
        : 'none: no OS keychain answers';
  return record(
    { ...obj, credential_store: `${where} (CSSCTL_CREDENTIAL_STORE=${credentials.mode})` },
    'table',
    [
      ['CSSCTL', 'version'],
      ['NODE', 'node'],
      ['V8', 'v8'],
      ['PLATFORM', 'platform'],
      ['BUILD', 'build'],
      ['CREDENTIAL STORE', 'credential_store'],
    ],
  );
}
