// Turns parsed install text into a preview: each definition it holds, what it still needs, and whether a server with
// the same id (or installed from the same registry entry) exists and how it differs. A preview never saves anything;
// a clashing definition gets a fresh id, so adding it can never overwrite the existing server.
import type { ServerConfig, ServerConfigInput } from '../../../shared/config.js';
import type { InstallCandidate, InstallPreview, PreparedInstall, PrepareTarget } from '../../../shared/domains/registry.js';
import { AppError } from '../../../shared/errors.js';
import { applyImport, previewImport } from '../import/import-service.js';
import { sanitizeText, truncate } from '../text.js';
import type { InstallOrigins } from './install-origins.js';
import type { ParsedInstall } from './install-link.js';
import { describeChanges } from './launch-diff.js';
import { normalizeSourceUrl } from './registry-sources.js';
import { parseServerJsonValue } from './server-json.js';

/** What building a preview needs from the service. */
export interface PreviewDeps {
  /** Current definitions. */
  configs: readonly ServerConfig[];
  /** Registry origins of installed servers. */
  origins: InstallOrigins;
  /** Whether a URL is one of the person's registry sources. */
  isSource(url: string): boolean;
  /** Prepares a registry entry or a server.json. */
  prepare(target: PrepareTarget): Promise<PreparedInstall>;
}

const shown = (s: string, max = 300): string => truncate(sanitizeText(s), max);

/** An id not in `taken`, based on `id`. */
function freeId(id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(id)) return id;
  const base = id.slice(0, 58);
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Builds the preview of parsed install text. */
export async function buildInstallPreview(parsed: ParsedInstall, deps: PreviewDeps): Promise<InstallPreview> {
  const payload = parsed.payload;
  if (payload.type === 'config') return { kind: parsed.kind, candidates: await configCandidates(payload.text, deps.configs) };
  let target: PrepareTarget;
  let key: string;
  if (payload.type === 'serverJson') {
    const record = parseServerJsonValue(payload.value);
    target = { serverJson: JSON.stringify(payload.value) };
    key = record.server.name;
  } else {
    key = payload.name;
    if (payload.source !== undefined) {
      const source = normalizeSourceUrl(payload.source);
      if (!deps.isSource(source)) {
        return {
          kind: parsed.kind,
          candidates: [
            {
              key: shown(key, 200),
              problems: [
                `The link points at the registry ${shown(source)}, which is not one of your sources; add it under Browse first if you trust it`,
              ],
              secretPrompts: [],
            },
          ],
        };
      }
      target = { name: payload.name, source, ...(payload.version !== undefined ? { version: payload.version } : {}) };
    } else target = { name: payload.name, ...(payload.version !== undefined ? { version: payload.version } : {}) };
  }
  let prepared: PreparedInstall;
  try {
    prepared = await deps.prepare(target);
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'internal') throw err;
    return { kind: parsed.kind, candidates: [{ key: shown(key, 200), problems: [err.message], secretPrompts: [] }] };
  }
  const candidate: InstallCandidate = {
    key: shown(key, 200),
    prepared,
    target,
    config: prepared.config,
    problems: [],
    secretPrompts: [],
  };
  const existingIds = new Set(deps.configs.map((c) => c.id));
  const installed = deps.origins.entries(existingIds).find(([, o]) => o.name === prepared.origin.name);
  if (installed !== undefined) {
    const current = deps.configs.find((c) => c.id === installed[0]);
    if (current !== undefined) {
      const changes = describeChanges(current, prepared.config);
      candidate.existing = { id: current.id, differs: changes.length > 0, changes };
    }
  }
  return { kind: parsed.kind, candidates: [candidate] };
}

/** Candidates from an mcp.json / Claude / Cursor / VS Code snippet, through the same importer as file imports. */
async function configCandidates(text: string, configs: readonly ServerConfig[]): Promise<InstallCandidate[]> {
  const preview = await previewImport(text, undefined, new Set());
  // Ask the importer for every entry's definition, prompted secrets as empty placeholders (their values are asked for later).
  const placeholders: Record<string, Record<string, string>> = {};
  for (const entry of preview.entries) {
    if (entry.secretPrompts.length > 0) placeholders[entry.key] = Object.fromEntries(entry.secretPrompts.map((p) => [p.envKey, '']));
  }
  const { configs: made } = await applyImport(text, undefined, new Set(), undefined, placeholders);
  const byId = new Map(made.map((c) => [c.id, stripSecretValues(c)]));
  const taken = new Set(configs.map((c) => c.id));
  return preview.entries.map((entry) => {
    const config = byId.get(entry.id);
    const candidate: InstallCandidate = {
      key: shown(entry.key, 200),
      problems: entry.status === 'invalid' || config === undefined ? entry.reasons.map((r) => shown(r, 500)) : [],
      secretPrompts: entry.secretPrompts.map((p) => ({ envKey: p.envKey, description: shown(p.description, 500) })),
    };
    if (config === undefined) return candidate;
    const current = configs.find((c) => c.id === config.id);
    if (current !== undefined) {
      const changes = describeChanges(current, config);
      candidate.existing = { id: current.id, differs: changes.length > 0, changes };
    }
    const id = freeId(config.id, taken);
    taken.add(id);
    candidate.config = { ...config, id };
    return candidate;
  });
}

/** The definition without any secret value (placeholders or values a snippet carried as prompted secrets). */
function stripSecretValues(config: ServerConfigInput): ServerConfigInput {
  const t = config.transport;
  if (t.type !== 'stdio') return config;
  const env: Record<string, string | { secret: true }> = {};
  for (const [key, value] of Object.entries(t.env ?? {})) env[key] = typeof value === 'string' ? value : { secret: true };
  return { ...config, transport: { ...t, env } };
}
