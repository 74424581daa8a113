// The package's `switchboard` bin: the command line for testers and CI, on the same core as the app (see run.ts).
import { runAndExit } from './run.js';

// A reader that stops early (`| head`) must not crash the command before its core has ended the servers it started.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

runAndExit(process.argv.slice(2));
