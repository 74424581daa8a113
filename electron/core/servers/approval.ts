// Consent before spawn: a stdio launch is fingerprinted over exactly what the user approves.
import { createHash } from 'node:crypto';
import type { ServerConfig, StdioTransportConfig } from '../../../shared/config.js';
import type { LaunchApproval } from '../../../shared/contract.js';

/** Fingerprint of a stdio launch: command, args, cwd, env keys and inheritance. */
export function launchFingerprint(t: StdioTransportConfig): string {
  const canonical = JSON.stringify([t.command, t.args, t.cwd ?? null, Object.keys(t.env).sort(), t.inheritEnv]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** The approval view of a server, or undefined for remote servers. */
export function launchApproval(config: ServerConfig, approvals: Record<string, string>): LaunchApproval | undefined {
  const t = config.transport;
  if (t.type !== 'stdio') return undefined;
  const fingerprint = launchFingerprint(t);
  return {
    required: approvals[config.id] !== fingerprint,
    fingerprint,
    command: t.command,
    args: [...t.args],
    ...(t.cwd !== undefined ? { cwd: t.cwd } : {}),
    envKeys: Object.keys(t.env).sort(),
    inheritEnv: t.inheritEnv,
  };
}

/** A one-line display form of a server's target: the command line or the URL. */
export function displayTarget(config: ServerConfig): string {
  const t = config.transport;
  if (t.type !== 'stdio') return t.url;
  return [t.command, ...t.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}
