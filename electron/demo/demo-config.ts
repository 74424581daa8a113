// The definition of the built-in demo server. Its command is a name, not a path: the transport factory recognises it
// and opens the demo in-process, so nothing about the install location is ever stored in the settings (an AppImage
// mounts at a new path on every run).
import type { ServerConfigInput } from '../../shared/config.js';

/** Id under which the demo server is added. */
export const DEMO_SERVER_ID = 'demo';
/** The command that names the built-in demo server (never looked up on PATH or spawned). */
export const DEMO_COMMAND = 'switchboard:demo';

/** The demo server's definition. */
export function demoServerConfig(): ServerConfigInput {
  return {
    id: DEMO_SERVER_ID,
    name: 'Demo server',
    transport: { type: 'stdio', command: DEMO_COMMAND, args: [], env: {} },
    lifecycle: 'auto',
    elicitation: true,
  };
}
