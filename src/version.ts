declare const __CSSCTL_VERSION__: string | undefined;

/** Replaced at build time by esbuild; the fallback serves tests that run the sources directly. */
export const VERSION: string = typeof __CSSCTL_VERSION__ === 'string' ? __CSSCTL_VERSION__ : '0.0.0-dev';

export function userAgent(): string {
  return `cssctl/${VERSION} node/${process.versions.node} ${process.platform}-${process.arch}`;
}
