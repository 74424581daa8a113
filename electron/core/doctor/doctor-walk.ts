// servers.test: runs the connection doctor's walk for a definition, saved or not, without saving anything. A
// definition being edited may name its saved server (`id`) so secrets left untouched in the form and the server's
// sign-in are used. A stdio walk spawns only when the request carries the fingerprint of the exact launch the
// person was shown (or the saved server's launch is already approved); otherwise it stops and returns that launch.
import type { Implementation } from '@modelcontextprotocol/client';
import { ServerConfigInputSchema, ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { DoctorWalk } from '../../../shared/domains/doctor.js';
import { AppError } from '../../../shared/errors.js';
import type { CredentialStore } from '../ports.js';
import { shownLaunchFingerprint } from '../servers/approval.js';
import { envSecretAccount, headerSecretAccount } from '../servers/secrets.js';
import type { TransportAuthContext, TransportFactory } from '../transports/transport-factory.js';
import { walkBuiltin } from './builtin-walk.js';
import { walkHttp } from './http-walk.js';
import type { LookupFn } from './net-probes.js';
import { walkStdio } from './stdio-walk.js';
import { WalkRecorder } from './walk-steps.js';

/** The parts of the Host the doctor uses (the Host satisfies it structurally). */
export interface DoctorHost {
  readonly credentials: CredentialStore;
  configs(): readonly ServerConfig[];
  isLaunchApproved(config: ServerConfig): boolean;
}

/** What the doctor is built with. */
export interface DoctorOptions {
  /** The login-shell PATH for stdio children. */
  loginPath?: () => Promise<string | undefined>;
  /** Client identity. */
  clientInfo?: Implementation;
  /** Resolver (tests). */
  lookup?: LookupFn;
  /** A saved server's credentials for its HTTP/SSE transport. */
  authFor?: (config: ServerConfig) => TransportAuthContext | undefined;
  /** The in-process transport of a stdio command that names a server built into Switchboard (the demo). */
  builtin?: (command: string) => TransportFactory | undefined;
  /** The definition as launched: a stdio server without a cwd runs in its own folder. */
  launchConfig?: (config: ServerConfig) => Promise<ServerConfig>;
  /** Where a stdio server's process runs (its own cwd, else its folder in the data folder). */
  workDir?: (config: ServerConfig) => string | undefined;
}

/** The request: a definition and/or a saved server id, and the approved trial launch. */
export interface DoctorRequest {
  /** The definition to test (unsaved edits included). */
  config?: ServerConfigInput;
  /** The saved server it belongs to (or the one to test when no definition is given). */
  id?: string;
  /** Fingerprint of the stdio launch the person approved for this one test run. */
  approvedLaunch?: string;
}

/** Runs the walk. */
export async function runDoctorWalk(host: DoctorHost, request: DoctorRequest, opts: DoctorOptions = {}): Promise<DoctorWalk> {
  const saved = request.id !== undefined ? host.configs().find((c) => c.id === request.id) : undefined;
  if (request.id !== undefined && saved === undefined && request.config === undefined) {
    throw new AppError('not_found', `No server with id "${request.id}"`, { serverId: request.id });
  }
  const input = request.config ?? saved;
  if (input === undefined) throw new AppError('invalid_request', 'Give a server definition or the id of a saved server');
  const parsed = ServerConfigInputSchema.safeParse(input);
  if (!parsed.success) {
    const t = (input as { transport?: { type?: unknown } }).transport;
    const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
    if (t?.type === 'http' || t?.type === 'sse') {
      // A URL the schema refuses is the walk's first step failing, with the reason.
      const walk = new WalkRecorder(t.type);
      await walk.step('url', 'URL', async () => ({
        status: 'failed',
        summary: message,
        advice: 'Give the full https:// address of the MCP endpoint.',
      }));
      return walk.result();
    }
    throw new AppError('config_invalid', message);
  }
  const value = parsed.data;
  const clientInfo = opts.clientInfo ?? { name: 'switchboard', version: '0.0.0' };
  const sameServer = saved !== undefined && saved.id === value.id;

  if (value.transport.type === 'stdio') {
    const inProcess = opts.builtin?.(value.transport.command);
    if (inProcess) return walkBuiltin({ config: ServerConfigSchema.parse(value), factory: inProcess, clientInfo });
    const env: Record<string, string> = {};
    const stored: Record<string, string | { secret: true }> = {};
    const missingSecrets: string[] = [];
    for (const [key, v] of Object.entries(value.transport.env)) {
      if (typeof v === 'string') {
        env[key] = v;
        stored[key] = v;
        continue;
      }
      stored[key] = { secret: true };
      if (v.value !== undefined) env[key] = v.value;
      else {
        const secret = sameServer ? await host.credentials.get(envSecretAccount(saved.id, key)) : null;
        if (secret !== null) env[key] = secret;
        else missingSecrets.push(key);
      }
    }
    const config = ServerConfigSchema.parse({ ...value, transport: { ...value.transport, env: stored } });
    const t = config.transport as Extract<ServerConfig['transport'], { type: 'stdio' }>;
    const approved = request.approvedLaunch === shownLaunchFingerprint(t) || (sameServer && host.isLaunchApproved(config));
    const loginPath = await opts.loginPath?.();
    return walkStdio({
      config,
      env,
      missingSecrets,
      approved,
      clientInfo,
      ...(loginPath !== undefined ? { loginPath } : {}),
      ...(opts.launchConfig !== undefined ? { launchConfig: opts.launchConfig } : {}),
      ...(opts.workDir !== undefined ? { workDir: opts.workDir } : {}),
    });
  }

  // Secret header values: the one typed into the form, else the saved server's from the credential store; a secret
  // with neither is left out of the walk's requests (the walk lists header names only, never values).
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value.transport.headers ?? {})) {
    if (typeof v === 'string') headers[name] = v;
    else {
      const secret = v.value ?? (sameServer ? await host.credentials.get(headerSecretAccount(saved.id, name)) : null);
      if (secret !== null && secret !== undefined) headers[name] = secret;
    }
  }
  const config = ServerConfigSchema.parse({ ...value, transport: { ...value.transport, headers } });
  const auth = sameServer ? opts.authFor?.(config) : undefined;
  return walkHttp({
    config,
    clientInfo,
    ...(auth !== undefined ? { auth } : {}),
    ...(opts.lookup !== undefined ? { lookup: opts.lookup } : {}),
  });
}
