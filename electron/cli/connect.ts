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
    core.out.note(`${pending.message}\nWaiting up to ${core.waitForAuthS} s for the sign-in (--wait-for-auth)…`);
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

/** Polls the sign-in until it completes (the redirect reached the core's listener), fails, or the time runs out. */
async function waitForSignIn(core: CliCore, id: string, seconds: number, pending: CliError): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const auth = await core.call('auth.status', { id });
    if (auth.state === 'signed-in') return;
    if (auth.flow?.failed)
      throw new CliError(EXIT.authorization, 'auth_required', `${id}: the sign-in failed: ${auth.flow.failed.message}`);
    await sleep(200);
  }
  throw new CliError(EXIT.authorization, 'auth_required', `${id}: no sign-in within --wait-for-auth ${seconds} s`, pending.details);
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
