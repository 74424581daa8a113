// Consent before spawn: a stdio launch is fingerprinted over exactly what runs — command, every argument, the
// working directory, whether the parent environment is inherited and every environment variable with its value
// (secret values by a keyed digest, see launch-approvals.ts) — and compared field by field with the launch last
// approved, so the approval panel can say exactly what changed.
import { createHash } from 'node:crypto';
import type { ApprovedLaunch, ServerConfig, StdioTransportConfig } from '../../../shared/config.js';
import type { LaunchChange } from '../../../shared/contract.js';

/** Prefix of fingerprints that cover env values; older fingerprints (env names only) are not honoured. */
export const FINGERPRINT_VERSION = 'v2:';

/** Digest of a plain (non-secret) env value, for the approved-launch record. */
export function plainDigest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
}

/**
 * The launch as approved: command, args, cwd, inheritEnv and per env variable whether it is secret plus a digest of
 * its value. `secretDigests` holds the keyed digests of the secret values; undefined when one is missing.
 */
export function approvedLaunch(t: StdioTransportConfig, secretDigests: Readonly<Record<string, string>>): ApprovedLaunch | undefined {
  const env: ApprovedLaunch['env'] = {};
  for (const [name, value] of Object.entries(t.env)) {
    if (typeof value === 'string') env[name] = { secret: false, digest: plainDigest(value) };
    else {
      const digest = secretDigests[name];
      if (digest === undefined) return undefined;
      env[name] = { secret: true, digest };
    }
  }
  return { command: t.command, args: [...t.args], ...(t.cwd !== undefined ? { cwd: t.cwd } : {}), inheritEnv: t.inheritEnv, env };
}

/** Fingerprint of an approved-launch record (what servers.approve sends back). */
export function fingerprintOf(launch: ApprovedLaunch): string {
  const env = Object.keys(launch.env)
    .sort()
    .map((name) => [name, launch.env[name]!.secret, launch.env[name]!.digest]);
  const canonical = JSON.stringify(['switchboard-launch', launch.command, launch.args, launch.cwd ?? null, launch.inheritEnv, env]);
  return FINGERPRINT_VERSION + createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/**
 * Fingerprint of a stdio launch. Secret env values need their keyed digests (`secretDigests`); a launch without
 * secret values can be fingerprinted with none (tests and benchmarks pre-approve such launches this way).
 */
export function launchFingerprint(t: StdioTransportConfig, secretDigests: Readonly<Record<string, string>> = {}): string {
  const launch = approvedLaunch(t, secretDigests);
  if (launch === undefined) throw new Error('launchFingerprint: a secret env value has no digest');
  return fingerprintOf(launch);
}

/**
 * Fingerprint of a launch shown once (the connection doctor's one-run approval): command, arguments, folder, env names
 * and plain values; secret values are the person's own input to that run, so they stand as "secret" without a digest.
 */
export function shownLaunchFingerprint(t: StdioTransportConfig): string {
  const secrets = Object.entries(t.env).filter(([, v]) => typeof v !== 'string');
  return launchFingerprint(t, Object.fromEntries(secrets.map(([name]) => [name, 'shown-once'])));
}

/** True for a bare fingerprint of the scheme before env values were covered. */
export function isLegacyFingerprint(stored: string): boolean {
  return !stored.startsWith(FINGERPRINT_VERSION);
}

/** Indexes of a longest common subsequence of two lists (bounded: long lists fall back to position by position). */
function commonIndexes(a: readonly string[], b: readonly string[]): [number, number][] {
  if (a.length * b.length > 250_000) {
    const pairs: [number, number][] = [];
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] === b[i]) pairs.push([i, i]);
    return pairs;
  }
  const rows = a.length + 1;
  const cols = b.length + 1;
  const len = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      len[i * cols + j] = a[i] === b[j] ? len[(i + 1) * cols + j + 1]! + 1 : Math.max(len[(i + 1) * cols + j]!, len[i * cols + j + 1]!);
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (len[(i + 1) * cols + j]! >= len[i * cols + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Arguments added, removed or replaced between two argument lists (positions are those of the current list, else the old one). */
function argChanges(before: readonly string[], after: readonly string[]): LaunchChange[] {
  const changes: LaunchChange[] = [];
  const pairs = commonIndexes(before, after);
  let i = 0;
  let j = 0;
  const flush = (untilI: number, untilJ: number): void => {
    while (i < untilI && j < untilJ) {
      changes.push({
        field: 'arg',
        change: 'changed',
        index: j,
        before: before[i]!,
        after: after[j]!,
        summary: `Argument ${j + 1} changed`,
      });
      i++;
      j++;
    }
    while (i < untilI) {
      changes.push({
        field: 'arg',
        change: 'removed',
        index: i,
        before: before[i]!,
        summary: `Argument ${i + 1} of the approved launch was removed`,
      });
      i++;
    }
    while (j < untilJ) {
      changes.push({ field: 'arg', change: 'added', index: j, after: after[j]!, summary: `Argument ${j + 1} was added` });
      j++;
    }
  };
  for (const [pi, pj] of pairs) {
    flush(pi, pj);
    i = pi + 1;
    j = pj + 1;
  }
  flush(before.length, after.length);
  return changes;
}

/**
 * What changed from the approved launch to the current one: the command, each argument, the working directory,
 * env variables added or removed, env values changed (never shown: a secret's value is not known here, and a
 * plain one's old value is not kept), secret values no longer stored (`lost`: named as missing, never as changed)
 * and inheritEnv.
 */
export function diffLaunch(
  before: ApprovedLaunch,
  after: ApprovedLaunch,
  current: StdioTransportConfig,
  lost: ReadonlySet<string> = new Set(),
): LaunchChange[] {
  const changes: LaunchChange[] = [];
  if (before.command !== after.command) {
    changes.push({ field: 'command', change: 'changed', before: before.command, after: after.command, summary: 'The command changed' });
  }
  changes.push(...argChanges(before.args, after.args));
  if (before.cwd !== after.cwd) {
    const change = before.cwd === undefined ? 'added' : after.cwd === undefined ? 'removed' : 'changed';
    changes.push({
      field: 'cwd',
      change,
      ...(before.cwd !== undefined ? { before: before.cwd } : {}),
      ...(after.cwd !== undefined ? { after: after.cwd } : {}),
      summary:
        change === 'added'
          ? 'A working directory was set'
          : change === 'removed'
            ? 'The working directory was removed'
            : 'The working directory changed',
    });
  }
  const names = [...new Set([...Object.keys(before.env), ...Object.keys(after.env)])].sort();
  for (const name of names) {
    const was = before.env[name];
    const now = after.env[name];
    const plainNow = current.env[name];
    const shown = typeof plainNow === 'string' ? { after: plainNow } : {};
    if (was === undefined && now !== undefined) {
      changes.push({
        field: 'env',
        change: 'added',
        name,
        secret: now.secret,
        ...shown,
        summary: `Environment variable ${name} was added`,
      });
    } else if (was !== undefined && now === undefined) {
      changes.push({ field: 'env', change: 'removed', name, secret: was.secret, summary: `Environment variable ${name} was removed` });
    } else if (was?.secret === true && now?.secret === true && lost.has(name)) {
      changes.push({
        field: 'env',
        change: 'missing',
        name,
        secret: true,
        summary: `The secret ${name} is no longer stored; enter it again`,
      });
    } else if (was !== undefined && now !== undefined && (was.digest !== now.digest || was.secret !== now.secret)) {
      const how = was.secret !== now.secret ? (now.secret ? ' (now secret)' : ' (no longer secret)') : '';
      changes.push({ field: 'env', change: 'changed', name, secret: now.secret, ...shown, summary: `The value of ${name} changed${how}` });
    }
  }
  if (before.inheritEnv !== after.inheritEnv) {
    changes.push({
      field: 'inheritEnv',
      change: 'changed',
      before: String(before.inheritEnv),
      after: String(after.inheritEnv),
      summary: after.inheritEnv
        ? 'The whole environment of Switchboard is now passed to the server'
        : 'The parent environment is no longer passed',
    });
  }
  return changes;
}

/** A one-line display form of a server's target: the command line or the URL. */
export function displayTarget(config: ServerConfig): string {
  const t = config.transport;
  if (t.type !== 'stdio') return t.url;
  return [t.command, ...t.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}
