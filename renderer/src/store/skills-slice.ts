// A server's skills, the open skill's verification and the file being read. Skills are keyed by (server, uri),
// never by the uri alone, since two servers may serve the same skill uri.
import type { SkillFileContent, SkillsListResult, SkillVerification } from '../../../shared/domains/skills';
import { AppError } from '../../../shared/errors';
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

/** One skill's verification, the file shown, and the approval in progress. */
export interface SkillDetailState {
  verification?: SkillVerification;
  verifying: boolean;
  error?: string;
  file?: SkillFileContent;
  fileError?: string;
  approving: boolean;
  approveError?: string;
}

/** Skills state and actions. */
export interface SkillsSlice {
  skillLists: Record<string, SkillListState>;
  skillDetails: Record<string, SkillDetailState>;
  loadSkills: (serverId: string) => Promise<void>;
  verifySkill: (serverId: string, uri: string) => Promise<void>;
  readSkillFile: (serverId: string, uri: string, fileUri: string) => Promise<void>;
  approveSkill: (serverId: string, uri: string) => Promise<void>;
}

const message = (err: unknown, fallback: string): string => (err instanceof AppError ? err.message : fallback);

export const createSkillsSlice: SliceCreator<SkillsSlice> = (set, get) => {
  const putList = (id: string, s: SkillListState): void => set({ skillLists: { ...get().skillLists, [id]: s } });
  const putDetail = (key: string, patch: Partial<SkillDetailState>): void => {
    const prev = get().skillDetails[key] ?? { verifying: false, approving: false };
    set({ skillDetails: { ...get().skillDetails, [key]: { ...prev, ...patch } } });
  };
  return {
    skillLists: {},
    skillDetails: {},
    loadSkills: async (serverId) => {
      putList(serverId, { ...get().skillLists[serverId], loading: true, error: undefined });
      try {
        putList(serverId, { result: await skillsService.list(serverId), loading: false });
      } catch (err) {
        putList(serverId, { ...get().skillLists[serverId], loading: false, error: message(err, 'The skills could not be listed') });
      }
    },
    verifySkill: async (serverId, uri) => {
      const key = skillKey(serverId, uri);
      putDetail(key, { verifying: true, error: undefined });
      try {
        const verification = await skillsService.verify(serverId, uri);
        putDetail(key, { verification, verifying: false });
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
