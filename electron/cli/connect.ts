// Connecting the servers a command needs, and turning "needs a sign-in" into the authorization URL to print.
import type { ServerStatus } from '../../shared/contract.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { EXIT } from './exit-codes.js';

/** Connects one server and lists its tools, or throws a CliError classed by why it cannot. */
export async function connectServer(core: CliCore, id: string): Promise<void> {
  const status: ServerStatus = await core.call('servers.connect', { id });
  if (status.state === 'needs-auth') throw await signInNeeded(core, id, status.error?.message);
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
