/**
 * The environment variable that makes the single executable the keychain helper (scripts/sea-main.mjs): the
 * executable starts itself with it set, never a `node` from PATH. A file of its own, so the executable's main
 * script can read the name without loading the keychain code.
 */
export const SEA_KEYCHAIN_HELPER = 'CSSCTL_SEA_KEYCHAIN_HELPER';
