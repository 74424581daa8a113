// Placeholder controller that never connects; replaced by the session manager.
import type { LogEntry, ServerIdentity, ServerStatus } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { SessionController, StartupReport } from './session-controller.js';

/** A controller that reports every server as disconnected. */
export class IdleSessions implements SessionController {
  readonly #since = Date.now();
  register(): void {}
  update(): void {}
  async remove(): Promise<void> {}
  status(): ServerStatus {
    return { state: 'disconnected', since: this.#since, failures: 0 };
  }
  identity(): ServerIdentity | undefined {
    return undefined;
  }
  async connect(id: string): Promise<ServerStatus> {
    throw new AppError('connect_failed', 'Connecting is not available in this build', { serverId: id });
  }
  async disconnect(): Promise<ServerStatus> {
    return this.status();
  }
  async restart(id: string): Promise<ServerStatus> {
    return this.connect(id);
  }
  logs(): LogEntry[] {
    return [];
  }
  async startAll(): Promise<StartupReport> {
    return { requiredFailures: [] };
  }
  async shutdown(): Promise<void> {}
}
