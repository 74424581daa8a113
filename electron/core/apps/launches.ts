// The live app launches: which server and tool a frame belongs to and the policy its sandbox page enforces. An
// app's requests name their launch, so a frame can only reach its own server; closed or evicted launches refuse.
// Each launch has its own budgets for tools/call and for resource requests.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors.js';
import { APP_READ_LIMITS, AppCallBudget } from './call-limits.js';
import type { SandboxPageInput } from './sandbox-page.js';

/** Most launches kept open at once (the oldest is closed first). */
export const MAX_LAUNCHES = 64;

/** One open launch. */
export interface Launch extends SandboxPageInput {
  launchId: string;
  serverId: string;
  /** Local name of the tool whose result the app shows. */
  tool: string;
  callId: string;
  /** The launch's tools/call budget (calls in flight and per window). */
  calls: AppCallBudget;
  /** The launch's budget for resource reads and listings. */
  reads: AppCallBudget;
  /** The person let this server's apps ask for model replies (when the launch opened). */
  sampling: boolean;
}

/** Open launches, oldest first. */
export class Launches {
  readonly #open = new Map<string, Launch>();
  readonly #changed: (launchId: string, launch: Launch | undefined) => void;

  /** `changed` hears every launch that opens or ends (the shell mirrors their sandbox policies). */
  constructor(changed: (launchId: string, launch: Launch | undefined) => void = () => undefined) {
    this.#changed = changed;
  }

  /** Records a launch and returns it with its new id. */
  add(launch: Omit<Launch, 'launchId' | 'calls' | 'reads'>): Launch {
    const full: Launch = {
      ...launch,
      launchId: randomUUID(),
      calls: new AppCallBudget(),
      reads: new AppCallBudget(APP_READ_LIMITS, Date.now, 'resource requests'),
    };
    this.#open.set(full.launchId, full);
    this.#changed(full.launchId, full);
    for (const id of this.#open.keys()) {
      if (this.#open.size <= MAX_LAUNCHES) break;
      this.close(id);
    }
    return full;
  }

  /** A launch, or `not_found` when it was closed. */
  get(launchId: string): Launch {
    const launch = this.#open.get(launchId);
    if (!launch) throw new AppError('not_found', 'This app was closed; open it again from the call result');
    return launch;
  }

  /** A launch, or undefined (the sandbox page asks this way). */
  find(launchId: string): Launch | undefined {
    return this.#open.get(launchId);
  }

  /** Ends a launch. */
  close(launchId: string): void {
    if (this.#open.delete(launchId)) this.#changed(launchId, undefined);
  }

  /** Ends every launch of a server (removed, or its grants changed). */
  closeServer(serverId: string): void {
    for (const [id, l] of this.#open) if (l.serverId === serverId) this.close(id);
  }

  /** Number of open launches. */
  get size(): number {
    return this.#open.size;
  }
}
