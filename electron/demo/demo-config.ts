// The definition of the built-in demo server, run with the app's own runtime.
import type { ServerConfigInput } from '../../shared/config.js';

/** Id under which the demo server is added. */
export const DEMO_SERVER_ID = 'demo';

/** Builds the demo server's definition for a given runtime and script path. */
export function demoServerConfig(runtime: string, script: string, env: Record<string, string>): ServerConfigInput {
  return {
    id: DEMO_SERVER_ID,
    name: 'Demo server',
    transport: { type: 'stdio', command: runtime, args: [script], env },
    lifecycle: 'auto',
    elicitation: true,
  };
}
