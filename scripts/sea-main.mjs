// The single executable's main script (scripts/build-exe.mjs bundles it into the executable with Node's own
// single-executable support). It is bin/cssctl.cjs reading its files from the executable's assets instead of
// dist/: help.json for --version and --help, cli.cjs compiled with the code cache the build took with this
// very Node and the flags every command starts with (cli.cache), and, as the keychain helper, keytar's addon
// (keytar.node). An export runs in the executable started again with the export flags (bin/cssctl.cjs relaunch),
// whose code cache, for those flags, is made on its first run in $XDG_CACHE_HOME/cssctl as the package's is.
import {
  answerEarly,
  hasExportFlags,
  loadCli,
  relaunch,
  settleColourEnv,
  wantsExportHeap,
} from '../bin/cssctl.cjs';
import { tokenize } from '../bin/argv.cjs';
import { SEA_KEYCHAIN_HELPER } from '../src/core/sea.js';

const sea = process.getBuiltinModule('node:sea');
const path = process.getBuiltinModule('node:path');

const assets = {
  sea: true,
  // Where the bundle says it is (stack traces, __filename): beside the executable, as in the package.
  path: (name) => path.join(path.dirname(process.execPath), name),
  text: (name) => sea.getAsset(name, 'utf8'),
  /**
   * A CommonJS file built apart from the bundle (config-writer.cjs, help-topics.cjs, mcp.cjs; jq.cjs is loaded by
   * jq's own thread, src/jq/engine.ts), compiled from its asset once, as Node's loader would run it: a function of
   * what a CommonJS module is given (node:vm
   * compileFunction).
   */
  module: (name) => {
    modules[name] ??= (() => {
      const file = path.join(path.dirname(process.execPath), name);
      const params = ['exports', 'require', 'module', '__filename', '__dirname'];
      const fn = process
        .getBuiltinModule('node:vm')
        .compileFunction(sea.getAsset(name, 'utf8'), params, { filename: file });
      const m = { exports: {} };
      const require = process.getBuiltinModule('node:module').createRequire(file);
      fn.call(m.exports, m.exports, require, m, file, path.dirname(file));
      return m.exports;
    })();
    return modules[name];
  },
};
const modules = {};

/**
 * keytar's addon, written to a private temporary folder (an addon can only be loaded from a file) and loaded
 * from there, then removed. Without libsecret (or with no asset), the error says why and the file store is
 * used, as for the npm package without keytar.
 */
function keytarFromAsset() {
  const fs = process.getBuiltinModule('node:fs');
  const dir = fs.mkdtempSync(path.join(process.getBuiltinModule('node:os').tmpdir(), 'cssctl-keytar-'));
  try {
    const file = path.join(dir, 'keytar.node');
    fs.writeFileSync(file, new Uint8Array(sea.getRawAsset('keytar.node')), { mode: 0o700 });
    const addon = { exports: {} };
    process.dlopen(addon, file);
    const k = addon.exports;
    // keytar's own wrapper (lib/keytar.js) only checks that the arguments are not empty; cssctl's always are not.
    return {
      getPassword: (service, account) => k.getPassword(service, account),
      setPassword: (service, account, password) => k.setPassword(service, account, password),
      deletePassword: (service, account) => k.deletePassword(service, account),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[SEA_KEYCHAIN_HELPER] === '1') {
  delete process.env[SEA_KEYCHAIN_HELPER];
  // Loaded only here: its modules (readline, child_process) would cost every command's start-up.
  import('../src/core/keychain-worker.js').then(({ serve }) => serve(keytarFromAsset));
} else if (!answerEarly(process.argv.slice(2), assets)) {
  settleColourEnv();
  const args = process.argv.slice(2);
  // argv is read once: the launcher's reading is handed to the CLI.
  const tokens = tokenize(args);
  if (wantsExportHeap(args, { tokens, files: assets })) relaunch(args, { sea: true });
  else {
    // The export process runs under other flags than the built-in cache was taken with: a cache of its own.
    const { cli, from } = loadCli(
      hasExportFlags()
        ? { files: assets }
        : { files: assets, cachedData: new Uint8Array(sea.getRawAsset('cli.cache')), cache: false },
    );
    if (process.env.CSSCTL_DEBUG_STARTUP === '1')
      process.stderr.write(`cssctl: compiled from ${from} under ${process.execArgv.join(' ')}\n`);
    cli.run(tokens);
  }
}
