// Every write of config.json goes through conf (the design's package for settings): its JSON schema, its atomic
// write and its migrations between versions of the file. Loaded only by the commands that change config.json
// (login, config set/unset, auth switch): a command that only reads settings never loads conf, ajv or
// atomically (the fast reader in config.ts; docs/config.md gives the cost of each).
//
// conf's own rules differ from cli-contract.md §6 in three places, so ConfigStore (config.ts) wraps it:
// - it writes through a symbolic link at config.json (to the file the link points at): refused before conf
//   is asked (assertNotLink), as every cssctl write is;
// - it creates a missing folder with the default mode (0755 under a usual umask): the folder is made first
//   by ensureDir (0700 when cssctl creates it, an existing one never chmod-ed);
// - it writes on construction (migrations, defaults): it is constructed only here, under the config lock, by
//   a command that writes anyway; no read path ever constructs it.
// This module is bundled apart (dist/config-writer.cjs, scripts/build.mjs) and imports nothing of cssctl's own:
// a class it shared with the CLI's bundle would be a second copy, and `instanceof` would not know it.
import Conf, { type Schema } from 'conf';

/**
 * The version of config.json's format, kept by conf in the file (`__internal__.migrations.version`). A file
 * without it was written before there was a version (cssctl 0.1 and earlier) and is migrated by the next
 * write; a read never migrates.
 */
export const CONFIG_FORMAT_VERSION = '1.0.0';

/** Keys that would put a secret in config.json, which never holds one (cli-contract.md §6). */
export const SECRET_KEYS = ['access_token', 'refresh_token', 'token', 'password'];
export const noSecret = { not: { anyOf: SECRET_KEYS.map((k) => ({ type: 'object', required: [k] })) } };

/**
 * What config.json must be for cssctl to write it. Profile values are not typed here: a hand-edited value
 * that is invalid is reported when it is used and must stay fixable with `config set`/`unset` (§6), and a
 * schema conf checks on every write would refuse every write while it is there. What no write may carry on:
 * a secret in a profile or at the top level.
 */
export const CONFIG_SCHEMA: Schema<Record<string, unknown>> = {
  profiles: {
    type: 'object',
    description: 'profile name → { base_url, workspace, email, output }, checked when used',
    additionalProperties: { if: { type: 'object' }, then: noSecret },
  },
  default_profile: { description: 'the profile used when no --profile or CSSCTL_PROFILE names one' },
};

export type ConfigData = Record<string, unknown> & { profiles: Record<string, unknown> };

/**
 * Migrations from each earlier format, keyed by the version they bring the file to (conf runs those above the
 * file's version, in order). 1.0.0: the first versioned format; an unversioned file is the same shape, with
 * `profiles` possibly missing.
 */
export const CONFIG_MIGRATIONS: Record<string, (store: Conf<Record<string, unknown>>) => void> = {
  '1.0.0': (store) => {
    const profiles = store.get('profiles');
    if (profiles === undefined || profiles === null) store.set('profiles', {});
  },
};

function open(dir: string): Conf<Record<string, unknown>> {
  return new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: 'config',
    projectVersion: CONFIG_FORMAT_VERSION,
    migrations: CONFIG_MIGRATIONS,
    schema: CONFIG_SCHEMA,
    rootSchema: noSecret,
    // The schema is a constant, checked against draft 2020-12 by a unit test (test/unit/config.test.ts):
    // compiling ajv's meta-schema to check it again on every write cost ~35 ms of CPU per write.
    ajvOptions: { validateSchema: false },
    // Profile names may hold dots (`prod.eu`): keys are never paths.
    accessPropertiesByDotNotation: false,
    configFileMode: 0o600,
    // A file conf cannot read is reported by the reader first and never cleared.
    clearInvalidConfig: false,
  });
}

/**
 * Read-modify-write of config.json through conf; the caller holds the config lock, has checked that the file
 * can be read, that it is no link, and made the folder. `edit` gets the file as conf reads it once migrated
 * (without conf's bookkeeping) and returns what to write. Errors are conf's and the file system's, as they are.
 */
export function writeConfig(dir: string, edit: (data: ConfigData) => ConfigData): ConfigData {
  const conf = open(dir);
  const current = conf.store;
  const profiles = current.profiles;
  const data = edit({
    ...current,
    profiles:
      profiles && typeof profiles === 'object' && !Array.isArray(profiles)
        ? (profiles as Record<string, unknown>)
        : {},
  });
  conf.store = data;
  return data;
}

/** Whether conf refused a store for its schema. */
export function isSchemaViolation(err: unknown): boolean {
  return /^Config schema violation/i.test((err as Error)?.message ?? '');
}
