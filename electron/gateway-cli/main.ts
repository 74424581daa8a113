// The package's bin (`switchboard-gateway`): the stdio entry point run by Node. The desktop app runs the same entry
// point from its own executable (see app/gateway-launcher.ts).
import { runAndExit } from './run.js';

runAndExit(process.argv.slice(2));
