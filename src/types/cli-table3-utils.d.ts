// cli-table3 ships no types for its helpers; cssctl uses two of them (width and truncation), in one place only:
// src/core/output/text-width.ts, which says why.
declare module 'cli-table3/src/utils.js' {
  const utils: {
    strlen(s: string): number;
    truncate(s: string, width: number, ellipsis?: string): string;
  };
  export default utils;
}
