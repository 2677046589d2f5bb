// dist/action/index.cjs: both steps in one bundle, which the two entries (main-entry.ts, post-entry.ts: the files
// action.yml names) require, so a release commits the bundled cssctl once.
export { runMain } from './main.js';
export { runPost } from './post.js';
export { isMainScript, runStep } from './process.js';
