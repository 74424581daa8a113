// The core process's side of the link: waits for the shell's `init`, builds the core (the same bootstrap both shells
// used when the core lived in their process), then answers relayed calls, forwards the contract's events and the
// sandbox's launches, borrows the shell's browser and safeStorage, and shuts down when asked or when the shell goes.
import type { AppNotice } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { bootstrap, type Bootstrapped } from '../bootstrap.js';
import { UNCLEAN_STOP_NOTICE } from '../core/lifecycle/run-marker.js';
import { heldSignIns } from '../core/auth/held-sign-ins.js';
import { createLogger, type Logger } from '../core/logging/logger.js';
import { demoServerConfig } from '../demo/demo-config.js';
import { createPrintingOpener } from '../platform/browser-opener.js';
import { SafeStorageCredentialStore } from '../platform/safe-storage-credential-store.js';
import { createElectronSettingsStore } from '../platform/electron-settings-store.js';
import { createSettingsStore } from '../platform/settings-store.js';
import type { CoreInit, CoreToShell, InvokeMessage, MessageLink, ShellToCore } from './messages.js';
import {
  shellBrowserOpener,
  shellGatewayDoor,
  shellMemoryCredentials,
  ShellRequests,
  shellSafeStorage,
  shellUrlOpener,
} from './shell-requests.js';

/** The id of the notice about server processes ended because the core before this one stopped. */
export const CRASH_LEFTOVERS_NOTICE = 'core-crash-leftovers';

/** What the serving loop needs from its process. */
export interface ServeCoreOptions {
  link: MessageLink<ShellToCore, CoreToShell>;
  /** Ends the process. */
  exit(code: number): void;
  /** Writes a line for the shell's log (stderr). */
  say(line: string): void;
}

/** A message that cannot be cloned (too deep, a stray function) becomes an error answer rather than a crash. */
function postOrExplain(link: ServeCoreOptions['link'], message: CoreToShell, onFail: (reason: string) => void): boolean {
  try {
    return link.post(message);
  } catch (err) {
    onFail(err instanceof Error ? err.message : String(err));
    return false;
  }
}

/** What the process tells the serving loop. */
export interface ServingCore {
  /** The shell's end of the link closed. */
  shellGone(): void;
}

/** Serves the core over the link until shutdown. */
export function serveCore(opts: ServeCoreOptions): ServingCore {
  const { link } = opts;
  const requests = new ShellRequests((m) => link.post(m));
  let core: Bootstrapped | undefined;
  let logger: Logger | undefined;
  let stopping = false;
  /** The core being built: a shutdown asked meanwhile waits for it, so its servers and log are closed too. */
  let starting: Promise<unknown> | undefined;

  const answer = (msg: InvokeMessage): void => {
    if (!core) {
      link.post({
        t: 'result',
        id: msg.id,
        envelope: { ok: false, error: new AppError('core_unavailable', 'The core is still starting').toData() },
      });
      return;
    }
    void core.dispatch(msg.method, msg.args).then((envelope) => {
      const sent = postOrExplain(link, { t: 'result', id: msg.id, envelope }, (reason) => {
        logger?.error('relay', `the answer to ${msg.method} could not be sent to the shell: ${reason}`);
        link.post({
          t: 'result',
          id: msg.id,
          envelope: { ok: false, error: new AppError('internal', `The answer to ${msg.method} could not be sent: ${reason}`).toData() },
        });
      });
      if (!sent) logger?.debug('relay', `the shell was gone before the answer to ${msg.method}`);
    });
  };

  const stop = (timeoutMs: number | undefined, code: number): void => {
    if (stopping) return;
    stopping = true;
    void (starting ?? Promise.resolve()).then(async () => {
      if (!core) {
        opts.exit(code);
        return;
      }
      const report = await core.host.shutdown(timeoutMs !== undefined ? { timeoutMs } : {});
      link.post({ t: 'stopped', report });
      opts.exit(code);
    });
  };

  link.onMessage((msg) => {
    switch (msg.t) {
      case 'init':
        if (starting) break;
        starting = start(msg).then(
          (built) => {
            core = built.core;
            logger = built.core.logger;
            link.post({ t: 'ready', logFile: built.core.logger.file });
            // Asked to stop while starting: no server is started only to be ended.
            if (!stopping) void built.core.host.start();
          },
          (err: unknown) => {
            const message = err instanceof Error ? err.message : String(err);
            opts.say(`Switchboard's core could not start: ${err instanceof Error ? (err.stack ?? message) : message}`);
            link.post({ t: 'failed', message });
            opts.exit(1);
          },
        );
        break;
      case 'invoke':
        answer(msg);
        break;
      case 'presence':
        core?.host.presence.set(msg.viewer, msg.state ?? undefined);
        break;
      case 'link':
        core?.host.registry.receiveLink(msg.link);
        break;
      case 'reply':
        requests.settle(msg);
        break;
      case 'shutdown':
        stop(msg.timeoutMs, 0);
        break;
    }
  });

  /** The shell is gone (its end of the link closed): shut down as if asked, nothing is left running. */
  const shellGone = (): void => {
    requests.failAll('The Switchboard shell closed');
    stop(undefined, 0);
  };

  async function start(init: CoreInit): Promise<{ core: Bootstrapped }> {
    if (process.env['SWITCHBOARD_TEST_CORE_START_FAILURE'] === '1') {
      throw new Error('test-only start failure (SWITCHBOARD_TEST_CORE_START_FAILURE)');
    }
    const log = createLogger({ dataDir: init.dataDir, ...(init.echoLog ? { echo: opts.say } : {}) });
    const opener = init.mode === 'electron' ? shellBrowserOpener(requests) : createPrintingOpener(opts.say);
    const safeStorage = init.safeStorage;
    const built = await bootstrap({
      mode: init.mode,
      version: init.version,
      settingsStore:
        init.settingsThrough === 'electron-store' ? await createElectronSettingsStore(init.dataDir) : createSettingsStore(init.dataDir),
      credentials: init.credentials,
      ...(safeStorage
        ? { fallbackCredentials: () => SafeStorageCredentialStore.open(init.dataDir, shellSafeStorage(requests, safeStorage.backend)) }
        : {}),
      memoryCredentials: () => shellMemoryCredentials(requests),
      authOpener: opener,
      ...(init.mode === 'electron' ? { urlOpener: shellUrlOpener(opener) } : {}),
      demoServer: () => demoServerConfig(),
      logger: log,
      ...(init.localPackages !== undefined ? { localPackages: init.localPackages } : {}),
      gatewayLauncher: () => init.gatewayLauncher,
      // Both shells hold the gateway's port: clients get a clean error, not a refused connection, while a core restarts.
      gatewayDoor: shellGatewayDoor(requests),
      // And the sign-in redirect listeners: a sign-in started by a core that then died is finished by the next one.
      signIns: heldSignIns((request) => requests.request(request)),
    });
    const { host } = built;
    const resumed = await host.auth.resumeSignIns();
    if (resumed > 0) log.info('auth', `took over ${resumed} sign-in(s) started before the core restarted`);
    host.events.subscribe((key, payload) => {
      postOrExplain(link, { t: 'event', key, payload }, (reason) =>
        log.warn('relay', `the ${key} event could not be sent to the shell: ${reason}`),
      );
    });
    const sandbox = init.sandbox;
    if (sandbox) {
      host.apps.setSandbox({
        pageUrl: (id) => `${sandbox.pagePrefix}${encodeURIComponent(id)}`,
        warmUrl: sandbox.warmUrl,
        reservedPorts: () => sandbox.reservedPorts,
      });
      host.apps.watchSandboxInputs((id, input) => link.post({ t: 'sandboxLaunch', id, input: input ?? null }));
    }
    if (init.mode === 'electron') {
      host.apps.setWindowOpener(async (callId) => {
        await requests.request({ op: 'openAppWindow', callId });
      });
    }
    // After a crash the shell's restart notice says what happened, History's last moments included: the data
    // folder's own "did not stop cleanly" notice would say the same thing twice.
    if (init.replacesCrashedCore) host.dismissNotice(UNCLEAN_STOP_NOTICE);
    for (const notice of init.notices) host.notify(notice);
    if (init.replacesCrashedCore) await endCrashLeftovers(built, log);
    // The gateway's endpoint file must not outlive the process, whatever ends it.
    process.on('exit', () => host.gateway.exitSync());
    return { core: built };
  }

  return { shellGone };
}

/** The server process groups the crashed core left running: this core ends them before starting its own, and says so. */
async function endCrashLeftovers({ host }: Bootstrapped, log: Logger): Promise<void> {
  const left = host.processes.leftovers();
  if (left.length === 0) return;
  const { ended, remaining } = await host.endLeftovers(left.map((l) => l.pgid));
  log.warn('app', `ended ${ended.length} server process group(s) left by the core that stopped; ${remaining.length} could not be ended`);
  const what = ended.length === 1 ? '1 server process' : `${ended.length} server processes`;
  const notice: AppNotice = {
    id: CRASH_LEFTOVERS_NOTICE,
    level: remaining.length > 0 ? 'warning' : 'info',
    message:
      remaining.length > 0
        ? `Ended ${what} left running by the core that stopped; ${remaining.length} could not be ended (Settings lists them).`
        : `Ended ${what} left running by the core that stopped.`,
  };
  host.notify(notice);
}
