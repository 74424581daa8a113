// Test support for the registry: a real Host (harness) with the registry service attached, a PATH folder holding
// stand-in runtimes (so "can this machine run it" is deterministic), and the fixture registry.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RegistryService } from '../../../electron/core/registry/registry-service.js';
import type { LocalPackages } from '../../../electron/core/registry/install-options.js';
import type { CorePorts } from '../../../electron/core/compose.js';
import { afterEach, beforeEach } from 'vitest';
import { startFixtureRegistry, type FixtureRegistry, type FixtureRegistryOptions } from '../../fixtures/registry/registry-server.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

/** A folder with executable stand-ins for the given runtimes (never run by these tests). */
export function runtimeDir(dir: string, commands: string[]): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const command of commands) {
    const file = join(bin, command);
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o755);
  }
  return bin;
}

/** A harness whose registry service finds only `runtimes` on its PATH. */
export interface RegistryHarness extends HostHarness {
  registry: RegistryService;
}

/** Builds the host and attaches a registry service with a short request timeout. */
export function makeRegistryHost(
  dir: string,
  opts: { runtimes?: string[]; localPackages?: LocalPackages; timeoutMs?: number; fetch?: typeof fetch; ports?: Partial<CorePorts> } = {},
): RegistryHarness {
  const bin = runtimeDir(dir, opts.runtimes ?? ['npx', 'uvx']);
  const h = makeHost(dir, {
    ports: {
      registry: {
        loginPath: async () => bin,
        timeoutMs: opts.timeoutMs ?? 3000,
        ...(opts.localPackages !== undefined ? { localPackages: opts.localPackages } : {}),
        ...(opts.fetch !== undefined ? { fetch: opts.fetch } : {}),
      },
      ...opts.ports,
    },
  });
  return { ...h, registry: h.host.registry };
}

/** One test's world: a fresh data folder, a running fixture registry, and a host with that registry as a source. */
export interface FixtureRegistryWorld {
  dir: string;
  fixture: FixtureRegistry;
  h: RegistryHarness;
}

/** Builds a fresh world before each test of the file and tears it down after: the set-up the registry flow tests share. */
export function useFixtureRegistry(prefix: string, fixtureOptions: FixtureRegistryOptions = {}): FixtureRegistryWorld {
  const world = {} as FixtureRegistryWorld;
  beforeEach(async () => {
    world.dir = tempDir(prefix);
    world.fixture = await startFixtureRegistry(fixtureOptions);
    world.h = makeRegistryHost(world.dir);
    await call(world.h.dispatch, 'registry.addSource', { url: world.fixture.url });
  });
  afterEach(async () => {
    await world.fixture.close();
    cleanup(world.dir);
  });
  return world;
}
