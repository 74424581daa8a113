// Contract types for the MCP Registry browser, installing from server.json, install links and update checks.
import { z } from 'zod';
import { ServerIdSchema } from '../config.js';
import type { ServerConfigInput } from '../config.js';
import type { ServerDetail } from '../contract.js';

/** The official MCP Registry, searched when no other source is chosen. */
export const OFFICIAL_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Lifecycle status of a registry entry (`_meta["io.modelcontextprotocol.registry/official"].status`). */
export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** A registry the app searches: the official one or a sub-registry implementing the same API. */
export interface RegistrySource {
  /** Base URL (no trailing slash); `/v0.1/servers` is appended. */
  url: string;
  /** Whether this is the official MCP Registry. */
  official: boolean;
  /** When its cached listings last caught up with it (ms since epoch), if they ever did. */
  lastSyncedAt?: number;
}

/** Which program runs a package, and whether it was found on this machine's login-shell PATH. */
export interface RuntimeCheck {
  /** Program name (npx, uvx, docker). */
  command: string;
  /** Where it was found, when it was. */
  path?: string;
}

/** One way to run a registry entry: a package (stdio) or a remote (Streamable HTTP or SSE). */
export interface InstallOption {
  /** Position in the entry's options (packages first, then remotes); `choice` in prepare. */
  index: number;
  /** A package run locally, or a hosted remote. */
  kind: 'package' | 'remote';
  /** Package registry type (npm, pypi, oci, nuget, mcpb, ...). */
  registryType?: string;
  /** Package identifier (untrusted text). */
  identifier?: string;
  /** Package version. */
  version?: string;
  /** Transport the option uses. */
  transport: 'stdio' | 'http' | 'sse';
  /** Remote URL template (untrusted text). */
  url?: string;
  /** The runtime the package needs and whether this machine has it. */
  runtime?: RuntimeCheck;
  /** Whether Switchboard can run this option here. */
  runnable: boolean;
  /** Whether it can be installed at all (false: refused whatever this machine has, e.g. an unsupported package type). */
  installable: boolean;
  /** Why it cannot, in plain words. */
  reason?: string;
  /** One-line label, e.g. "npm @scope/pkg 1.2.0 (npx)". */
  label: string;
}

/** An installed server that came from this registry entry. */
export interface InstalledFrom {
  /** Server id. */
  id: string;
  /** Installed entry version. */
  version: string;
  /** Whether the registry lists a newer version. */
  updateAvailable: boolean;
}

/** One registry entry as shown to the person: every string is untrusted server data, bounded and sanitized. */
export interface RegistryEntry {
  /** Reverse-DNS server name (e.g. io.github.user/weather). */
  name: string;
  /** Display title, when given. */
  title?: string;
  /** Description. */
  description?: string;
  /** Entry version. */
  version: string;
  /** Lifecycle status. */
  status: RegistryStatus;
  /** Why it is deprecated or deleted, when said. */
  statusMessage?: string;
  /** When the status last changed (ISO date), when the registry says. */
  statusChangedAt?: string;
  /** Source registry URL the entry came from. */
  source: string;
  /** Repository URL (https only; anything else is dropped). */
  repositoryUrl?: string;
  /** Website URL (https only). */
  websiteUrl?: string;
  /** When the version was published (ISO date). */
  publishedAt?: string;
  /** Packages and remotes, with whether each can run here. */
  options: InstallOption[];
  /** Servers installed from this entry. */
  installed?: InstalledFrom[];
}

/** An entry of a registry page that could not be used, and why. */
export interface SkippedEntry {
  /** The entry's name, when it had a readable one. */
  name?: string;
  /** Plain-words reason. */
  reason: string;
}

/** One page of registry search results. */
export interface RegistrySearchResult {
  /** Entries of this page. */
  servers: RegistryEntry[];
  /** Cursor for the next page. */
  nextCursor?: string;
  /** Source that was searched. */
  source: string;
  /** Malformed entries that were left out. */
  skipped: SkippedEntry[];
  /** Set when the registry could not be reached and the page comes from the on-disk cache. */
  offline?: { message: string; cachedAt?: number };
}

/** One value the person fills in before installing (an env var, header, argument or URL variable). */
export interface InstallInput {
  /** Stable key used in `values` (e.g. `env:API_KEY`, `header:X-Region`, `package:0`, `url:tenant`). */
  key: string;
  /** What the value becomes. */
  kind: 'env' | 'header' | 'argument' | 'url';
  /** Label (variable, flag or header name). */
  label: string;
  /** Description from the entry (untrusted text). */
  description?: string;
  /** Whether a value is needed to install. */
  required: boolean;
  /** Secret values go to the credential store and are never shown again. */
  secret: boolean;
  /** Default value. */
  default?: string;
  /** The only values allowed, when given. */
  choices?: string[];
  /** Expected format. */
  format: 'string' | 'number' | 'boolean' | 'filepath';
  /** Placeholder text. */
  placeholder?: string;
  /** Several values allowed (one per line). */
  repeated: boolean;
  /** The value currently applied (never for secrets). */
  value?: string;
}

/** Where an installed server came from. */
export interface InstallOrigin {
  /** Registry entry name. */
  name: string;
  /** Entry version installed. */
  version: string;
  /** Source registry URL, or `pasted` for a pasted server.json. */
  source: string;
}

/** One manual step a package asks for after installing: shown as a checklist item, its command never run. */
export interface PostInstallStep {
  /** What to do (untrusted text). */
  description: string;
  /** A command to copy and run yourself, shown as text (untrusted text). */
  command?: string;
  /** A documentation link (https only). */
  documentation?: string;
  /** Whether the step may be skipped. */
  optional: boolean;
}

/** A server definition prepared from a registry entry: nothing is saved or run. */
export interface PreparedInstall {
  /** The entry it was prepared from. */
  entry: RegistryEntry;
  /** Where it comes from (remembered when installed). */
  origin: InstallOrigin;
  /** The option used. */
  choice: number;
  /** Definition for servers.add: argv as separate entries, version pinned; secret env values as `{ secret: true }`. */
  config: ServerConfigInput;
  /** Values the person must or may fill. */
  inputs: InstallInput[];
  /** Keys of required inputs that have no value yet. */
  missing: string[];
  /** Plain-words cautions (unusual identifiers, values on the command line, ...). */
  warnings: string[];
  /** Manual steps the chosen package lists for after installing (never executed by Switchboard). */
  postInstall: PostInstallStep[];
}

/** Arguments naming what to prepare: a registry entry, or a pasted server.json. */
export type PrepareTarget = { name: string; version?: string; source?: string } | { serverJson: string };

/** Values entered so far, by input key (secret values only when installing). */
export type InstallValues = Record<string, string>;

/** The installed registry servers' update state. */
export interface RegistryUpdate {
  /** Server id. */
  id: string;
  /** Registry entry name. */
  name: string;
  /** Source registry URL. */
  source: string;
  /** Installed version. */
  installed: string;
  /** Latest version the registry lists, when it could be asked. */
  latest?: string;
  /** Whether `latest` is newer than `installed`. */
  updateAvailable: boolean;
  /** Why the check failed, when it did. */
  error?: string;
  /** The entry's status at its registry, when it is no longer active (deprecated or deleted). */
  status?: RegistryStatus;
  /** The registry's reason for that status, when given. */
  statusMessage?: string;
}

/** How one source's incremental sync went. */
export interface RegistrySyncResult {
  /** Source registry URL. */
  source: string;
  /** When the sync ran (ms since epoch), set when the registry answered. */
  syncedAt?: number;
  /** Entries whose saved copies a changed version replaced. */
  updated: number;
  /** Deleted entries taken out of the saved listings. */
  removed: number;
  /** Why the source could not be synced (or was synced only in part). */
  error?: string;
}

/** An installed server whose registry entry was among the changes a sync saw, with its entry's status now. */
export interface InstalledStatusChange {
  /** Server id. */
  id: string;
  /** Registry entry name. */
  name: string;
  /** Source registry URL. */
  source: string;
  /** Its entry's status now (active again clears an earlier flag). */
  status: RegistryStatus;
  /** The registry's reason, for a deprecated or deleted entry. */
  statusMessage?: string;
}

/** What `registry.sync` did. */
export interface RegistrySyncReport {
  /** One result per source synced. */
  results: RegistrySyncResult[];
  /** Installed servers whose entry changed at its registry. */
  statusChanges: InstalledStatusChange[];
}

/** What updating an installed server would change; nothing is saved. */
export interface UpdatePreview {
  /** Server id. */
  id: string;
  /** Installed version. */
  from: string;
  /** Version it would update to. */
  to: string;
  /** The new definition, prepared with the server's current values. */
  prepared: PreparedInstall;
  /** Plain-words list of what changes in the launch (command, arguments, environment names, URL, headers). */
  changes: string[];
}

/** One server definition found in a pasted link or snippet. */
export interface InstallCandidate {
  /** Key of the entry in the pasted text (or its name). */
  key: string;
  /** Definition for servers.add (no secret values). */
  config?: ServerConfigInput;
  /** Set for a server.json or registry reference: the prepared install with its inputs. */
  prepared?: PreparedInstall;
  /** Set with `prepared`: what to pass to registry.prepare / registry.install to continue. */
  target?: PrepareTarget;
  /** Why it cannot be added. */
  problems: string[];
  /** An existing server with the same id: whether the definitions differ, and how. Never overwritten without a confirmation. */
  existing?: { id: string; differs: boolean; changes: string[] };
  /** VS Code `${input:...}` secrets to ask for (env key → description). */
  secretPrompts: { envKey: string; description: string }[];
}

/** What a pasted install link, server.json or mcp.json/Claude/Cursor snippet contains: a preview, nothing saved. */
export interface InstallPreview {
  /** What the text was recognised as. */
  kind: 'link' | 'server.json' | 'config';
  /** Definitions found. */
  candidates: InstallCandidate[];
}

/** Contract methods of the registry domain: name → (argument object) → result. */
export interface RegistryInvokeMap {
  /** The registries searched, official first unless removed. */
  'registry.sources': (args: Record<string, never>) => Promise<RegistrySource[]>;
  /** Adds a sub-registry implementing the registry API (https, or http on loopback). */
  'registry.addSource': (args: { url: string }) => Promise<RegistrySource[]>;
  /** Removes a source. */
  'registry.removeSource': (args: { url: string }) => Promise<RegistrySource[]>;
  /** Searches a source (latest versions only); offline, the last cached listing with a message. */
  'registry.search': (args: { query: string; cursor?: string; source?: string; limit?: number }) => Promise<RegistrySearchResult>;
  /** Turns an entry (or a pasted server.json) into a server definition and the inputs it needs. */
  'registry.prepare': (args: PrepareTarget & { choice?: number; values?: InstallValues }) => Promise<PreparedInstall>;
  /**
   * Adds the prepared server (secret values go to the credential store) and remembers its registry origin.
   * A stdio server still needs its exact launch approved before it runs.
   */
  'registry.install': (
    args: PrepareTarget & { choice?: number; values?: InstallValues; id?: string; displayName?: string },
  ) => Promise<ServerDetail>;
  /** Installed registry servers with the latest version each registry lists. */
  'registry.updates': (args: Record<string, never>) => Promise<RegistryUpdate[]>;
  /**
   * Brings the cached listings of a source (default: every source) up to date with what changed since the last
   * sync (`updated_since`, `include_deleted`); names installed servers whose entry's status changed.
   */
  'registry.sync': (args: { source?: string }) => Promise<RegistrySyncReport>;
  /** What updating an installed server to the latest version changes (nothing saved). */
  'registry.previewUpdate': (args: { id: string }) => Promise<UpdatePreview>;
  /** Applies an update previewed before; a changed stdio launch needs approval again. */
  'registry.applyUpdate': (args: { id: string; version: string; values?: InstallValues }) => Promise<ServerDetail>;
  /** Parses a pasted `switchboard://install` link, server.json or mcp.json/Claude/Cursor snippet into a preview. */
  'registry.parseInstall': (args: { text: string }) => Promise<InstallPreview>;
  /** Install links received from the OS that the renderer has not shown yet (each returned once). */
  'registry.takeLinks': (args: Record<string, never>) => Promise<string[]>;
  /** Opens a repository or website link of a registry entry through the safe opener (only links the core showed). */
  'registry.openLink': (args: { url: string }) => Promise<void>;
}

/** Events the core pushes for the registry domain: name → payload. */
export interface RegistryEventMap {
  /** The OS handed the app an install link; the renderer takes it with registry.takeLinks and shows a preview. */
  'registry.linkReceived': { count: number };
  /** Sources were added or removed. */
  'registry.sourcesChanged': { sources: RegistrySource[] };
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
/** Longest pasted server.json, link or config snippet accepted. */
export const MAX_INSTALL_TEXT = 1024 * 1024;

const sourceUrl = z.string().trim().min(1).max(2048);
const entryName = z.string().min(1).max(200);
const version = z.string().min(1).max(255);
const choice = z.number().int().min(0).max(100);
const values = z
  .record(z.string().min(1).max(300), z.string().max(16 * 1024))
  .refine((v) => Object.keys(v).length <= 500, 'At most 500 values');

const byName = { name: entryName, version: version.optional(), source: sourceUrl.optional() };
const byJson = { serverJson: z.string().min(1).max(MAX_INSTALL_TEXT) };
const prepareExtras = { choice: choice.optional(), values: values.optional() };
const installExtras = { ...prepareExtras, id: ServerIdSchema.optional(), displayName: z.string().trim().min(1).max(200).optional() };

/** Validators for the registry domain's arguments. */
export const registryArgSchemas = {
  'registry.sources': z.object({}).strict(),
  'registry.addSource': z.object({ url: sourceUrl }).strict(),
  'registry.removeSource': z.object({ url: sourceUrl }).strict(),
  'registry.search': z
    .object({
      query: z.string().max(200),
      cursor: z.string().min(1).max(4096).optional(),
      source: sourceUrl.optional(),
      limit: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
  'registry.prepare': z.union([z.object({ ...byName, ...prepareExtras }).strict(), z.object({ ...byJson, ...prepareExtras }).strict()]),
  'registry.install': z.union([z.object({ ...byName, ...installExtras }).strict(), z.object({ ...byJson, ...installExtras }).strict()]),
  'registry.updates': z.object({}).strict(),
  'registry.sync': z.object({ source: sourceUrl.optional() }).strict(),
  'registry.previewUpdate': z.object({ id: ServerIdSchema }).strict(),
  'registry.applyUpdate': z.object({ id: ServerIdSchema, version, values: values.optional() }).strict(),
  'registry.parseInstall': z.object({ text: z.string().min(1).max(MAX_INSTALL_TEXT) }).strict(),
  'registry.takeLinks': z.object({}).strict(),
  'registry.openLink': z.object({ url: z.string().min(1).max(2048) }).strict(),
} satisfies Record<keyof RegistryInvokeMap, z.ZodType>;

/** Event names of the registry domain. */
export const registryEventKeys = {
  'registry.linkReceived': true,
  'registry.sourcesChanged': true,
} satisfies Record<keyof RegistryEventMap, true>;
