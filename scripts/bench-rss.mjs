// Loaded with `node --import` by scripts/bench.mjs: records the process's peak RSS (KiB) when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE)
    writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
