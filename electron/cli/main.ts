// The package's `switchboard` bin: the command line for testers and CI, on the same core as the app (see run.ts).
import { tolerateClosedPipes } from '../platform/closed-pipes.js';
import { runAndExit } from './run.js';

// A reader that stops early (`| head`) must not crash the command before its core has ended the servers it started.
tolerateClosedPipes();

runAndExit(process.argv.slice(2));
