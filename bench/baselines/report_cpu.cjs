// Preloaded into a benchmarked process (`node --require`): reports the CPU time of the whole
// process (every thread: user + system) on exit. On a shared machine wall-clock rates move with
// the load; CPU time is the firmer figure for what a contender costs.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nBENCH_CPU_S=${(user + system) / 1e6}\n`);
});
