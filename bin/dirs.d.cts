// Types of bin/dirs.cjs (the user's cache folder, one rule for the launcher and the CLI).
export declare function cacheDir(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string | undefined;
