// The core process's entry, the same in both shells: a child process of the headless launcher (Node's IPC channel) or
// an Electron utilityProcess (its parent port). It imports nothing of Electron: the parent port is found on `process`.
import type { CoreToShell, MessageLink, ShellToCore } from './messages.js';
import { serveCore } from './serve-core.js';

/** Electron's utilityProcess parent port, as much of it as this entry uses. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const say = (line: string): void => void process.stderr.write(`${line}\n`);

function parentLink(): { link: MessageLink<ShellToCore, CoreToShell>; onClose(listener: () => void): void } {
  const port = (process as { parentPort?: ParentPort }).parentPort;
  if (port) {
    return {
      link: {
        post: (message) => {
          port.postMessage(message);
          return true;
        },
        onMessage: (listener) => port.on('message', (event) => listener(event.data as ShellToCore)),
      },
      // Electron ends a utility process with its parent; there is no close to hear.
      onClose: () => undefined,
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('The core process must be started by a Switchboard shell (no IPC channel)');
  return {
    link: {
      post: (message) => process.connected && send(message),
      onMessage: (listener) => process.on('message', (message) => listener(message as ShellToCore)),
    },
    onClose: (listener) => process.on('disconnect', listener),
  };
}

// The SDK's HTTP client adds an abort listener per request to a session's long-lived signal; past ten Node warns,
// once per signal (hundreds of lines for a busy session, cleared by GC). Those stay out of the shell's log; any
// other warning still goes there.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning' && warning.message.includes('abort listeners')) return;
  say(`${warning.name}: ${warning.message}`);
});

const { link, onClose } = parentLink();
const serving = serveCore({ link, exit: (code) => process.exit(code), say });
onClose(() => serving.shellGone());

// Ctrl-C in a terminal reaches the whole process group: the shell decides how the core stops, not the terminal.
process.on('SIGINT', () => undefined);
// Ended by someone else: shut down properly (the shell then starts a new core, as after any unexpected end).
process.on('SIGTERM', () => serving.shellGone());

// A defect in the core ends this process only: the shell restarts it. Its last words go to stderr (the shell's log).
process.on('uncaughtException', (err) => {
  say(`Switchboard's core hit an unexpected error and stops: ${err.stack ?? err.message}`);
  process.exit(70);
});
process.on('unhandledRejection', (reason) => {
  // A failed background promise is a bug to fix, not a reason to drop every session: say it and carry on.
  say(`unhandled rejection in the core: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
});
