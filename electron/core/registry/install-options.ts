// The ways a registry entry can run (its packages and remotes) and whether this machine can run each: npm needs
// npx, pypi needs uvx, oci needs docker; other package types, packages serving HTTP locally, version ranges and
// identifiers an option parser would misread are refused with the reason.
import { checkServerUrl } from '../../../shared/config.js';
import type { InstallOption, RuntimeCheck } from '../../../shared/domains/registry.js';
import { sanitizeText, truncate } from '../text.js';
import type { RuntimeChecks, RuntimeCommand } from './runtimes.js';
import type { ServerJson, ServerPackage, ServerRemote } from './server-json.js';

/**
 * Test-only: npm identifiers mapped to a local program, so an end-to-end test can install a registry entry that
 * points at a package already in node_modules without reaching the network. Never set in normal use.
 */
export type LocalPackages = Record<string, { command: string; args: string[] }>;

/** The runtime each supported package type runs with. */
export const RUNTIME_FOR: Readonly<Record<string, RuntimeCommand>> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** What the install needs besides the option itself. */
export interface OptionFacts {
  /** The option as shown. */
  option: InstallOption;
  /** A refusal no setting can fix (unsupported type, unsafe identifier, version range). */
  blocked?: string;
  /** The package or remote it describes. */
  source: { kind: 'package'; pkg: ServerPackage } | { kind: 'remote'; remote: ServerRemote };
}

const shown = (s: string, max = 300): string => truncate(sanitizeText(s), max);

/** True for a version that is a range or tag rather than one exact version. */
export function isVersionRange(version: string): boolean {
  return version === 'latest' || /[\s^~<>=*|]|^x$|\.x(\.|$)|\.\*/.test(version);
}

/** Every option of an entry, packages first, with whether it can run here. */
export function describeOptions(server: ServerJson, runtimes: RuntimeChecks, local: LocalPackages = {}): OptionFacts[] {
  const facts: OptionFacts[] = [];
  for (const pkg of server.packages ?? []) facts.push(packageFacts(facts.length, pkg, runtimes, local));
  for (const remote of server.remotes ?? []) facts.push(remoteFacts(facts.length, remote));
  return facts;
}

function packageFacts(index: number, pkg: ServerPackage, runtimes: RuntimeChecks, local: LocalPackages): OptionFacts {
  const type = pkg.registryType.toLowerCase();
  const runtimeName = RUNTIME_FOR[type];
  const localRun = type === 'npm' ? local[pkg.identifier] : undefined;
  const runtime: RuntimeCheck | undefined =
    localRun !== undefined
      ? { command: localRun.command, path: localRun.command }
      : runtimeName !== undefined
        ? runtimes[runtimeName]
        : undefined;
  const version = pkg.version !== undefined ? ` ${shown(pkg.version, 60)}` : '';
  const label = `${shown(type, 20)} ${shown(pkg.identifier, 200)}${version}${runtime !== undefined ? ` (${shown(runtime.command, 60)})` : ''}`;
  const transport = pkg.transport.type === 'stdio' ? 'stdio' : pkg.transport.type === 'sse' ? 'sse' : 'http';
  const option: InstallOption = {
    index,
    kind: 'package',
    registryType: shown(type, 50),
    identifier: shown(pkg.identifier, 1000),
    ...(pkg.version !== undefined ? { version: shown(pkg.version, 255) } : {}),
    transport,
    ...(runtime !== undefined ? { runtime } : {}),
    runnable: true,
    installable: true,
    label,
  };
  let blocked: string | undefined;
  if (runtimeName === undefined) blocked = `Switchboard cannot run ${shown(type, 50)} packages`;
  else if (pkg.transport.type !== 'stdio')
    blocked = 'This package serves HTTP on this machine; start it yourself and add its URL as a server instead';
  else if (pkg.identifier.startsWith('-')) blocked = `The package identifier begins with "-", which ${runtimeName} would read as an option`;
  else if (/[\u0000-\u001f\u007f]/.test(pkg.identifier)) blocked = 'The package identifier contains control characters';
  else if (pkg.version !== undefined && isVersionRange(pkg.version))
    blocked = `The package version "${shown(pkg.version, 60)}" is a range, not one version`;
  else if (pkg.version !== undefined && pkg.version.startsWith('-')) blocked = 'The package version begins with "-"';
  if (blocked !== undefined)
    return { option: { ...option, runnable: false, installable: false, reason: blocked }, blocked, source: { kind: 'package', pkg } };
  if (runtime?.path === undefined) {
    const hint = runtimeName === 'npx' ? 'install Node.js' : runtimeName === 'uvx' ? 'install uv' : 'install Docker';
    return {
      option: { ...option, runnable: false, reason: `${runtimeName} was not found on your PATH (${hint})` },
      source: { kind: 'package', pkg },
    };
  }
  return { option, source: { kind: 'package', pkg } };
}

function remoteFacts(index: number, remote: ServerRemote): OptionFacts {
  const transport = remote.type === 'sse' ? 'sse' : 'http';
  const option: InstallOption = {
    index,
    kind: 'remote',
    transport,
    url: shown(remote.url, 2048),
    runnable: true,
    installable: true,
    label: `${remote.type === 'sse' ? 'SSE' : 'Streamable HTTP'} ${shown(remote.url, 300)}`,
  };
  // A URL template may start with a variable; only a fixed scheme can be checked before the values are known.
  let blocked: string | undefined;
  if (!remote.url.startsWith('{')) {
    const probe = remote.url.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, 'x');
    const problem = checkServerUrl(probe, false);
    if (problem !== null) blocked = `The remote URL was refused: ${problem}`;
  }
  return blocked !== undefined
    ? { option: { ...option, runnable: false, installable: false, reason: blocked }, blocked, source: { kind: 'remote', remote } }
    : { option, source: { kind: 'remote', remote } };
}
