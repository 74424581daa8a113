// Types for scripts/find-node22.mjs (used by test/conformance/run.mjs and its test).

/** A Node 22+ binary, or why none was found. */
export type FindResult = { path: string; source: string; error?: undefined } | { error: string; path?: undefined; source?: undefined };

/** Options (tests replace the environment, the root, versions and the fetch). */
export interface FindOptions {
  root?: string;
  env?: Record<string, string | undefined>;
  platform?: string;
  arch?: string;
  execPath?: string;
  major?: (binary: string) => number | undefined;
  fetch?: boolean;
  fetchPackage?: (spec: string, dir: string) => { error?: string };
}

export const NEEDED_MAJOR: number;
export function nodePackageName(platform?: string, arch?: string): string;
export function binaryIn(pkgDir: string, platform?: string): string;
export function majorOf(binary: string): number | undefined;
export function findNode22(opts?: FindOptions): FindResult;
