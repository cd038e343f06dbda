/**
 * Preloaded (`--import`) into a service process by the last-resort test: SIGUSR2 plants an unhandled rejection,
 * SIGHUP an uncaught exception, as a bug in a render or a request would.
 */
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('planted rejection'));
});
process.on('SIGHUP', () => {
  setImmediate(() => {
    throw new Error('planted exception');
  });
});
