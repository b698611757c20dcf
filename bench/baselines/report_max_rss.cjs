// Preloaded into a benchmarked nekton process (`node --require`): reports its peak resident memory
// on exit, for the bench's memory-per-member figures.
process.on('exit', () => {
  process.stderr.write(`NEKTON_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
