// A validated registry record as the person sees it: every string sanitized and bounded, links https only, the
// status from the official metadata, and which packages and remotes can run here.
import type { InstalledFrom, PostInstallStep, RegistryEntry, RegistryStatus } from '../../../shared/domains/registry.js';
import { sanitizeText, truncate } from '../text.js';
import type { OptionFacts } from './install-options.js';
import type { RegistryRecord, ServerPackage } from './server-json.js';

const shown = (s: string, max: number): string => truncate(sanitizeText(s), max);

/** An https link fit to open, or undefined (any other scheme, credentials, or control characters are dropped). */
export function safeLink(raw: string | undefined): string | undefined {
  if (raw === undefined || /[\u0000-\u0020\u007f-\u009f]/.test(raw)) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
    return url.href.length <= 2048 ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The entry view of a record. */
export function entryView(record: RegistryRecord, source: string, options: OptionFacts[], installed?: InstalledFrom[]): RegistryEntry {
  const s = record.server;
  const status: RegistryStatus = record.official.status ?? 'active';
  const repositoryUrl = safeLink(s.repository?.url);
  const websiteUrl = safeLink(s.websiteUrl);
  return {
    name: shown(s.name, 200),
    version: shown(s.version, 255),
    status,
    source,
    options: options.map((o) => o.option),
    ...(s.title !== undefined ? { title: shown(s.title, 200) } : {}),
    ...(s.description !== undefined ? { description: shown(s.description, 2000) } : {}),
    ...(record.official.statusMessage !== undefined ? { statusMessage: shown(record.official.statusMessage, 500) } : {}),
    ...(record.official.statusChangedAt !== undefined ? { statusChangedAt: shown(record.official.statusChangedAt, 60) } : {}),
    ...(repositoryUrl !== undefined ? { repositoryUrl } : {}),
    ...(websiteUrl !== undefined ? { websiteUrl } : {}),
    ...(record.official.publishedAt !== undefined ? { publishedAt: shown(record.official.publishedAt, 60) } : {}),
    ...(installed !== undefined && installed.length > 0 ? { installed } : {}),
  };
}

/** A package's post-install steps as shown: text sanitized and bounded, links https only, commands as plain text. */
export function postInstallSteps(pkg: ServerPackage | undefined): PostInstallStep[] {
  return (pkg?.postInstallInstructions ?? []).map((step) => {
    const documentation = safeLink(step.documentation);
    return {
      description: shown(step.description, 1000),
      optional: step.optional === true,
      ...(step.command !== undefined ? { command: shown(step.command, 1000) } : {}),
      ...(documentation !== undefined ? { documentation } : {}),
    };
  });
}
