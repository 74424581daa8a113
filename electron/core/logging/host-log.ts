// What the core writes to the log file: status changes of servers (with the reason of a failure), notices shown to
// the user, warnings and errors from servers' protocol handling, and the shutdown report. Server text is untrusted:
// the logger escapes it. Secrets the credential store handles are registered with the redactor as they pass.
import type { AppNotice, ServerStatus } from '../../../shared/contract.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import type { Logger } from './logger.js';

/** Logs the core's activity (and the notices already raised); returns the detach function. */
export function attachHostLog(events: Pick<EventBus, 'subscribe'>, logger: Logger, notices: readonly AppNotice[] = []): () => void {
  const last = new Map<string, ServerStatus['state']>();
  const seenNotices = new Set<string>();
  const unsubscribe = events.subscribe(
    (event, payload) => {
      switch (event) {
        case 'servers.status': {
          const { id, status } = payload as { id: string; status: ServerStatus };
          if (last.get(id) === status.state) return;
          last.set(id, status.state);
          const why = status.error ? `: ${status.error.code}: ${status.error.message}` : '';
          logger.log(status.state === 'failed' ? 'warn' : 'info', `server ${id}`, `${status.state}${why}`);
          return;
        }
        case 'servers.log': {
          const { id, entry } = payload as { id: string; entry: { source: string; level: string; text: string } };
          if (entry.source === 'stderr' || (entry.level !== 'warning' && entry.level !== 'error')) return;
          logger.log(entry.level === 'error' ? 'error' : 'warn', `server ${id}`, entry.text);
          return;
        }
        case 'app.notices': {
          for (const n of (payload as { notices: { id: string; level: string; message: string }[] }).notices) {
            const key = `${n.id}\u0000${n.message}`;
            if (seenNotices.has(key)) continue;
            seenNotices.add(key);
            logger.log(n.level === 'error' ? 'error' : n.level === 'warning' ? 'warn' : 'info', 'notice', `${n.id}: ${n.message}`);
          }
          return;
        }
        default:
          return;
      }
    },
    { internal: true },
  );
  for (const n of notices) {
    seenNotices.add(`${n.id}\u0000${n.message}`);
    logger.log(n.level === 'error' ? 'error' : n.level === 'warning' ? 'warn' : 'info', 'notice', `${n.id}: ${n.message}`);
  }
  return unsubscribe;
}

/** A credential store that registers every secret it stores or returns with the log's redactor. */
export function redactingCredentials(store: CredentialStore, logger: Logger): CredentialStore {
  return {
    get kind() {
      return store.kind;
    },
    get persistent() {
      return store.persistent;
    },
    async get(account) {
      const value = await store.get(account);
      logger.redactor.add(value);
      return value;
    },
    async set(account, value) {
      logger.redactor.add(value);
      await store.set(account, value);
    },
    delete: (account) => store.delete(account),
    ...(store.accounts ? { accounts: () => store.accounts!() } : {}),
  };
}
