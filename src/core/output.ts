// The output layer lives in ./output/ (one file per format behind src/core/format.ts); this re-export keeps
// the older import path working.
export * from './output/index.js';
