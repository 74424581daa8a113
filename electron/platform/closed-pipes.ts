// A reader that leaves early (`| head -1`, a closed terminal) makes every later write to stdout or stderr fail with
// EPIPE. Unhandled, that error is an uncaught exception whose own report is written to the same closed pipe, and the
// process spins on it instead of shutting down. What was written is also in the log file, so a closed pipe is ignored.

/** Keeps writes to a stream whose reader has gone from raising errors (the stream just stops carrying output). */
export function tolerateClosedPipes(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    // EPIPE, and any other failure of a standard stream, has nowhere better to be said.
    stream.on('error', () => undefined);
  }
}
