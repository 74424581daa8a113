// Knows every transport the sessions have open, so shutdown can make sure none outlives the app: once shutdown
// begins no new transport is opened (a late reconnect must not spawn a server while we quit), and whatever stdio
// process group is still running after the sessions were released gets SIGKILL.
import { AppError } from '../../../shared/errors.js';
import { groupAlive, processAlive, signalGroup, waitFor } from '../transports/process-group.js';
import type { OpenedTransport, TransportFactory } from '../transports/transport-factory.js';

/** Tracks the transports of the factories it wraps. */
export interface TransportTracker {
  /** Wraps a factory so every transport it opens is tracked until released (the transport pipeline's tracker layer). */
  track(inner: TransportFactory): TransportFactory;
  /** Refuses every later open with a `cancelled` error naming `reason`. */
  refuseNew(reason: string): void;
  /** Process ids (group leaders on Unix) of stdio transports not yet released. */
  livePids(): number[];
  /**
   * SIGKILLs the process group of every stdio transport not yet released and waits (up to `waitMs`) until they are
   * gone; returns the pids signalled.
   */
  killRemaining(waitMs?: number): Promise<number[]>;
}

/** The pid of a transport that spawned a process (our stdio transport exposes it), if any. */
function pidOf(opened: OpenedTransport): number | undefined {
  const pid = (opened.transport as { pid?: unknown }).pid;
  return typeof pid === 'number' && pid > 0 ? pid : undefined;
}

/** A tracker for every factory it wraps (one per host: shutdown asks it about all of them). */
export function createTransportTracker(): TransportTracker {
  const open = new Set<OpenedTransport>();
  let refused: string | undefined;

  const track =
    (inner: TransportFactory): TransportFactory =>
    (ctx) => {
      if (refused !== undefined) throw new AppError('cancelled', refused, { serverId: ctx.config.id });
      const opened = inner(ctx);
      open.add(opened);
      let released: Promise<void> | undefined;
      const tracked: OpenedTransport = {
        transport: opened.transport,
        diagnostics: opened.diagnostics,
        // A flooded stdio session slows its reader through pace(): tracking must not drop it.
        ...(opened.pace ? { pace: () => opened.pace?.() } : {}),
        release: () => {
          released ??= opened.release().finally(() => open.delete(opened));
          return released;
        },
      };
      // Every session path (close, crash, failed connect) ends with release(): that is when it leaves the set.
      return tracked;
    };

  const live = (): number[] => {
    const pids: number[] = [];
    for (const opened of open) {
      const pid = pidOf(opened);
      if (pid === undefined) continue;
      if (process.platform === 'win32' ? processAlive(pid) : groupAlive(pid)) pids.push(pid);
      else open.delete(opened);
    }
    return pids;
  };

  return {
    track,
    refuseNew: (reason) => {
      refused = reason;
    },
    livePids: live,
    killRemaining: async (waitMs = 2000) => {
      const pids = live();
      for (const pid of pids) {
        if (process.platform === 'win32') {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        } else if (!signalGroup(pid, 'SIGKILL')) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        }
      }
      const gone = (pid: number): boolean => !(process.platform === 'win32' ? processAlive(pid) : groupAlive(pid));
      await waitFor(() => pids.every(gone), waitMs);
      return pids;
    },
  };
}
