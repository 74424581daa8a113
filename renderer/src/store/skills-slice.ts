// A server's skills, the open skill's verification and the file being read. Skills are keyed by (server, uri),
// never by the uri alone, since two servers may serve the same skill uri.
import type { SkillDirectoryChild, SkillFileContent, SkillsListResult, SkillVerification } from '../../../shared/domains/skills';
import { AppError } from '../../../shared/errors';
import { applyPatch, type Patch } from '../../../shared/optional-fields';
import { skillsService } from '../services/skills';
import type { SliceCreator, Store } from './types';

/** The key of one skill: server id and uri. */
export const skillKey = (serverId: string, uri: string): string => `${serverId}\u0000${uri}`;

/** One server's listing. */
export interface SkillListState {
  result?: SkillsListResult;
  loading: boolean;
  error?: string;
}

/** Directories walked, pages per directory and unlisted files kept: a hostile server's directory can be endless. */
export const EXTRAS_LIMITS = { dirs: 32, pages: 5, files: 50 } as const;

/** A file the server's directory has within a skill that its manifest does not list (never verified, never served). */
export interface SkillExtraFile extends SkillDirectoryChild {
  /** Its path relative to the skill root. */
  path: string;
}

/** What the directory walk found beyond the manifest. */
export interface SkillExtras {
  files: SkillExtraFile[];
  /** The walk stopped at a bound, so there may be more. */
  capped: boolean;
}

/** One skill's verification, the file shown, and the approval in progress. */
export interface SkillDetailState {
  verification?: SkillVerification;
  verifying: boolean;
  error?: string;
  file?: SkillFileContent;
  fileError?: string;
  approving: boolean;
  approveError?: string;
  /** Only for servers that declare `directoryRead`. */
  extras?: SkillExtras;
  extrasError?: string;
}

/** Skills state and actions. */
export interface SkillsSlice {
  skillLists: Record<string, SkillListState>;
  skillDetails: Record<string, SkillDetailState>;
  loadSkills: (serverId: string) => Promise<void>;
  verifySkill: (serverId: string, uri: string) => Promise<void>;
  readSkillFile: (serverId: string, uri: string, fileUri: string) => Promise<void>;
  approveSkill: (serverId: string, uri: string) => Promise<void>;
  loadSkillExtras: (serverId: string, uri: string) => Promise<void>;
}

const message = (err: unknown, fallback: string): string => (err instanceof AppError ? err.message : fallback);

export const createSkillsSlice: SliceCreator<SkillsSlice> = (set, get) => {
  const putList = (id: string, s: SkillListState): void => set({ skillLists: { ...get().skillLists, [id]: s } });
  const patchList = (id: string, patch: Patch<SkillListState>): void =>
    putList(id, applyPatch(get().skillLists[id] ?? { loading: false }, patch));
  const putDetail = (key: string, patch: Patch<SkillDetailState>): void => {
    const prev = get().skillDetails[key] ?? { verifying: false, approving: false };
    set({ skillDetails: { ...get().skillDetails, [key]: applyPatch(prev, patch) } });
  };
  return {
    skillLists: {},
    skillDetails: {},
    loadSkills: async (serverId) => {
      patchList(serverId, { loading: true, error: undefined });
      try {
        putList(serverId, { result: await skillsService.list(serverId), loading: false });
      } catch (err) {
        patchList(serverId, { loading: false, error: message(err, 'The skills could not be listed') });
      }
    },
    verifySkill: async (serverId, uri) => {
      const key = skillKey(serverId, uri);
      putDetail(key, { verifying: true, error: undefined });
      try {
        const verification = await skillsService.verify(serverId, uri);
        putDetail(key, { verification, verifying: false });
        if (get().skillLists[serverId]?.result?.directoryRead === true) void get().loadSkillExtras(serverId, uri);
        // The SKILL.md is shown only when it verified (or the skill is dynamic, shown as unverifiable).
        const own = verification.files.find((f) => f.uri === uri);
        if (own && (own.state === 'verified' || own.state === 'dynamic')) await get().readSkillFile(serverId, uri, uri);
        else putDetail(key, { file: undefined });
      } catch (err) {
        putDetail(key, { verifying: false, error: message(err, 'The skill could not be verified') });
      }
    },
    readSkillFile: async (serverId, uri, fileUri) => {
      const key = skillKey(serverId, uri);
      putDetail(key, { fileError: undefined });
      try {
        putDetail(key, { file: await skillsService.readFile(serverId, uri, fileUri) });
      } catch (err) {
        putDetail(key, { file: undefined, fileError: message(err, 'The file could not be read') });
      }
    },
    loadSkillExtras: async (serverId, uri) => {
      const key = skillKey(serverId, uri);
      putDetail(key, { extrasError: undefined });
      try {
        putDetail(key, { extras: await walkExtras(serverId, uri) });
      } catch (err) {
        putDetail(key, { extras: undefined, extrasError: message(err, "The server's directory of this skill could not be read") });
      }
    },
    approveSkill: async (serverId, uri) => {
      const key = skillKey(serverId, uri);
      putDetail(key, { approving: true, approveError: undefined });
      try {
        const view = await skillsService.approve(serverId, uri);
        putDetail(key, { approving: false });
        const list = get().skillLists[serverId];
        if (list?.result) {
          const skills = list.result.skills.map((s) => (s.uri === uri ? view : s));
          putList(serverId, { ...list, result: { ...list.result, skills } });
        }
      } catch (err) {
        putDetail(key, { approving: false, approveError: message(err, 'The skill could not be approved') });
      }
    },
  };
};

/**
 * Walks the skill's directory on the server (breadth first, within EXTRAS_LIMITS) and keeps the files its manifest
 * does not list. Children outside the skill root are ignored; the core refuses reading them anyway.
 */
async function walkExtras(serverId: string, uri: string): Promise<SkillExtras> {
  const root = uri.replace(/\/SKILL\.md$/, '');
  const queue = [root];
  const seen = new Set(queue);
  const files: SkillExtraFile[] = [];
  let capped = false;
  for (let dirs = 0; queue.length > 0; dirs++) {
    if (dirs >= EXTRAS_LIMITS.dirs) {
      capped = true;
      break;
    }
    const dir = queue.shift()!;
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= EXTRAS_LIMITS.pages) {
        capped = true;
        break;
      }
      const page = await skillsService.readDirectory(serverId, uri, dir, cursor);
      for (const c of page.children) {
        if (!c.uri.startsWith(`${root}/`)) continue;
        if (c.directory) {
          if (!seen.has(c.uri)) {
            seen.add(c.uri);
            queue.push(c.uri);
          }
        } else if (!c.inManifest) {
          if (files.length >= EXTRAS_LIMITS.files) capped = true;
          else files.push({ ...c, path: c.uri.slice(root.length + 1) });
        }
      }
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
  }
  return { files, capped };
}

/** One server's skill listing. */
export const selectSkillList =
  (serverId: string) =>
  (s: Store): SkillListState | undefined =>
    s.skillLists[serverId];

/** One skill's detail state. */
export const selectSkillDetail =
  (serverId: string, uri: string) =>
  (s: Store): SkillDetailState | undefined =>
    s.skillDetails[skillKey(serverId, uri)];
