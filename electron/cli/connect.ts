// Connecting the servers a command needs, and turning "needs a sign-in" into the authorization URL to print.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerStatus } from '../../shared/contract.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { EXIT } from './exit-codes.js';

/** Connects one server and lists its tools, or throws a CliError classed by why it cannot. */
export async function connectServer(core: CliCore, id: string): Promise<void> {
  let status: ServerStatus = await core.call('servers.connect', { id });
  if (status.state === 'needs-auth') {
    const pending = await signInNeeded(core, id, status.error?.message);
    if (core.waitForAuthS === undefined) throw pending;
    // Announced before waiting, so a script can hand the address to a person or a browser while the command waits.
    if (core.json) core.out.json({ ...pending.details, waitingS: core.waitForAuthS });
    core.out.note(
      `${pending.message}\nWaiting up to ${core.waitForAuthS} s for the sign-in (--wait-for-auth); ` +
        'or paste the address the browser was sent back to here and press Enter…',
    );
    await waitForSignIn(core, id, core.waitForAuthS, pending);
    status = await core.call('servers.connect', { id });
  }
  if (status.state !== 'connected') {
    if (status.error) {
      const hint =
        status.error.code === 'approval_required' ? ` Approve it with: switchboard servers approve ${id} (with --config: pass --yes).` : '';
      const err = CliError.fromCore(status.error);
      throw new CliError(err.exitCode, err.code, `${id}: ${status.error.message}${hint}`);
    }
    throw new CliError(EXIT.connection, 'connect_failed', `${id} did not connect (state: ${status.state})`);
  }
  await core.call('catalog.refresh', { id });
}

/**
 * Waits for the sign-in to complete: the redirect reaching the core's loopback listener, or the redirect address
 * pasted on stdin (a browser on another machine cannot reach the loopback listener). Fails when the sign-in fails
 * or the time runs out.
 */
async function waitForSignIn(core: CliCore, id: string, seconds: number, pending: CliError): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  const stop = new AbortController();
  let pasteFailure: CliError | undefined;
  const pasting = readPasted(core, id, stop.signal).catch((err: unknown) => {
    pasteFailure = err instanceof CliError ? err : new CliError(EXIT.authorization, 'auth_required', `${id}: ${(err as Error).message}`);
  });
  try {
    while (Date.now() < deadline) {
      if (pasteFailure) throw pasteFailure;
      const auth = await core.call('auth.status', { id });
      if (auth.state === 'signed-in') return;
      if (auth.flow?.failed)
        throw new CliError(EXIT.authorization, 'auth_required', `${id}: the sign-in failed: ${auth.flow.failed.message}`);
      await sleep(200);
    }
  } finally {
    stop.abort();
    void pasting;
  }
  throw new CliError(EXIT.authorization, 'auth_required', `${id}: no sign-in within --wait-for-auth ${seconds} s`, pending.details);
}

/** Completes the sign-in with the first pasted line that is an http(s) address; other lines are said to be ignored. */
async function readPasted(core: CliCore, id: string, signal: AbortSignal): Promise<void> {
  const lines = core.pasted()[Symbol.asyncIterator]();
  const aborted = new Promise<IteratorResult<string>>((resolve) =>
    signal.addEventListener('abort', () => resolve({ done: true, value: undefined }), { once: true }),
  );
  try {
    for (;;) {
      const next = await Promise.race([lines.next(), aborted]);
      if (next.done || signal.aborted) return;
      const line = next.value.trim();
      if (line === '') continue;
      if (!/^https?:\/\//i.test(line) || line.length > 8192) {
        core.out.note('That is not the address the browser was sent back to (it starts with http://127.0.0.1…); ignored.');
        continue;
      }
      // The core checks state, issuer and code exactly as for the listener's redirect; a wrong address fails the flow.
      await core.call('auth.complete', { id, redirectUrl: line });
      return;
    }
  } finally {
    void lines.return?.();
  }
}

/** Starts the sign-in to get its authorization URL; the error carries it for `--json` as `pendingAuth`. */
export async function signInNeeded(core: CliCore, id: string, reason?: string): Promise<CliError> {
  let authUrl: string | undefined;
  try {
    const status = await core.call('auth.begin', { id });
    authUrl = status.flow?.authorizationUrl;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    reason = `${reason ?? 'A sign-in is needed'} (the sign-in could not start: ${err.message})`;
  }
  const why = reason ?? `${id} needs a sign-in`;
  const where = authUrl !== undefined ? `\nOpen this address in a browser to sign in: ${authUrl}` : '';
  return new CliError(EXIT.authorization, 'auth_required', `${id}: ${why}${where}`, {
    pendingAuth: true,
    serverId: id,
    ...(authUrl !== undefined ? { authUrl } : {}),
  });
}
