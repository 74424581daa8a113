// Contract types for the MCP Skills extension (io.modelcontextprotocol/skills, SEP-2640): a server's skills as
// display data, per-file verification against the manifest digests, and approvals bound to those digests.
// A skill's identity is always the pair (serverId, uri): nothing here is keyed on the uri alone.
import { z } from 'zod';
import { ServerIdSchema } from '../config.js';

/** Where a skill's approval stands against its current manifest. */
export type SkillApproval = 'none' | 'approved' | 'changed' | 'unbindable';

/** One file of a skill's manifest, as listed by the server (untrusted, bounded). */
export interface SkillFileView {
  /** The file's resource URI. */
  uri: string;
  /** Its path relative to the skill's root (`references/FORMS.md`). */
  path: string;
  /** Size in bytes the manifest declares. */
  size: number;
  /** The manifest's `sha256:<hex>` digest. */
  digest: string;
  /** A `SKILL.md` below the root: a nested skill's file, shown as a supporting file and never activated from here. */
  nestedSkill: boolean;
}

/** One frontmatter field other than the ones shown on their own, as data (JSON text, bounded). */
export interface SkillField {
  /** Field name. */
  key: string;
  /** The value as JSON text. */
  value: string;
}

/** One skill of one server, as shown to the person. */
export interface SkillView {
  /** Server that serves it (first half of the identity). */
  serverId: string;
  /** URI of its SKILL.md (second half of the identity). */
  uri: string;
  /** `frontmatter.name`. */
  name: string;
  /** What to call it: the name, or its skill path when another listed skill has the same name. */
  label: string;
  /** The skill path (`acme/billing/refunds`). */
  skillPath: string;
  /** `frontmatter.description`. */
  description: string;
  /** `frontmatter.license`, when text. */
  license?: string;
  /** `frontmatter["allowed-tools"]` as written; never honoured without approval. */
  allowedTools?: string;
  /** Every other frontmatter field, as data. */
  fields: SkillField[];
  /** The manifest, or `"dynamic"` when the server publishes no digests. */
  files: SkillFileView[] | 'dynamic';
  /** Sum of the declared sizes (0 for dynamic). */
  totalBytes: number;
  /** Approval against the current manifest. */
  approval: SkillApproval;
}

/** An entry that was not admitted, with why. */
export interface SkippedSkill {
  /** Its uri, when it had a usable one. */
  uri?: string;
  /** Why it was skipped, in plain words. */
  reason: string;
}

/** A server's skills: whether it declares the extension, and the admitted and skipped entries. */
export interface SkillsListResult {
  /** Server id. */
  serverId: string;
  /** Whether the server declares `io.modelcontextprotocol/skills`. */
  supported: boolean;
  /** Whether it declares `directoryRead: true`. */
  directoryRead: boolean;
  /** Whether the person turned this server's resources off: skill files are resources, so none is read or served. */
  resourcesOff?: boolean;
  /** Admitted skills, in listing order. */
  skills: SkillView[];
  /** Entries skipped with a reason (malformed, oversized, duplicate). */
  skipped: SkippedSkill[];
  /** Why paging stopped early, when it did (the skills listed so far stay usable). */
  partial?: string;
}

/** Verification state of one file. */
export type SkillFileState = 'verified' | 'mismatch' | 'dynamic' | 'unread';

/** One file's verification outcome. */
export interface SkillFileCheck {
  /** File uri. */
  uri: string;
  /** Path relative to the skill root. */
  path: string;
  /** Outcome. */
  state: SkillFileState;
  /** What did not match (size, digest, frontmatter, read failure). */
  reason?: string;
  /** Bytes actually read. */
  readBytes?: number;
  /** The mime type the server gave when read. */
  mimeType?: string;
}

/** A whole skill's verification: verified only when every listed file matched. */
export interface SkillVerification {
  /** Server id. */
  serverId: string;
  /** Skill uri. */
  uri: string;
  /** `verified`: all files match; `mismatch`: at least one does not; `dynamic`: no digests to check. */
  state: 'verified' | 'mismatch' | 'dynamic';
  /** Per-file outcomes, in manifest order. */
  files: SkillFileCheck[];
  /** The first file that failed, when one did. */
  mismatch?: { uri: string; reason: string };
  /** The skill as listed when verified (its approval state included). */
  skill: SkillView;
}

/** One file's content after verification: only verified (or dynamic, marked so) content is ever returned. */
export interface SkillFileContent {
  /** File uri. */
  uri: string;
  /** Path relative to the skill root. */
  path: string;
  /** `verified` against the manifest, or `dynamic` (unverifiable). */
  state: 'verified' | 'dynamic';
  /** Server-given mime type. */
  mimeType?: string;
  /** Bytes read. */
  size: number;
  /** Text content (unsafe characters removed, bounded); absent for binary files. */
  text?: string;
  /** Whether the text was cut to the display budget. */
  truncated: boolean;
}

/** One direct child of a skill directory, as the server's `resources/directory/read` listed it. */
export interface SkillDirectoryChild {
  /** The child's uri. */
  uri: string;
  /** Its name (last path segment, bounded). */
  name: string;
  /** Whether it is a directory (`inode/directory`). */
  directory: boolean;
  /** Whether the held manifest lists it (always false for a dynamic skill); an unlisted file is not the skill's until refreshed. */
  inManifest: boolean;
  /** Server-given mime type. */
  mimeType?: string;
}

/** One page of a directory within a skill; only for servers that declare `directoryRead`. */
export interface SkillDirectory {
  /** Server id. */
  serverId: string;
  /** The skill's uri. */
  uri: string;
  /** The directory read. */
  dirUri: string;
  /** Its direct children. */
  children: SkillDirectoryChild[];
  /** Passed back for the next page, when there is one. */
  nextCursor?: string;
}

const Uri = z.string().min(1).max(8192);

/** Argument validators of the skills domain. */
export const skillsArgSchemas = {
  'skills.list': z.object({ id: ServerIdSchema }),
  'skills.get': z.object({ id: ServerIdSchema, uri: Uri }),
  'skills.verify': z.object({ id: ServerIdSchema, uri: Uri }),
  'skills.readFile': z.object({ id: ServerIdSchema, uri: Uri, fileUri: Uri }),
  'skills.approve': z.object({ id: ServerIdSchema, uri: Uri }),
  'skills.readDirectory': z.object({ id: ServerIdSchema, uri: Uri, dirUri: Uri, cursor: z.string().max(4096).optional() }),
};

/** The skills domain's contract methods. */
export interface SkillsInvokeMap {
  /** Lists a server's skills (every page, within its budgets); nothing is read. */
  'skills.list': (args: { id: string }) => Promise<SkillsListResult>;
  /** Refreshes one skill's entry with `skills/get`. */
  'skills.get': (args: { id: string; uri: string }) => Promise<SkillView>;
  /** Reads every listed file and checks size and digest (and the SKILL.md frontmatter). */
  'skills.verify': (args: { id: string; uri: string }) => Promise<SkillVerification>;
  /** Reads one listed file and returns it only when it verifies (throws skill_unverified otherwise). */
  'skills.readFile': (args: { id: string; uri: string; fileUri: string }) => Promise<SkillFileContent>;
  /** Verifies the skill and binds the person's approval to its manifest digests. */
  'skills.approve': (args: { id: string; uri: string }) => Promise<SkillView>;
  /** Lists a directory within a skill with `resources/directory/read`; refused (invalid_request) unless the server declares `directoryRead`. */
  'skills.readDirectory': (args: { id: string; uri: string; dirUri: string; cursor?: string }) => Promise<SkillDirectory>;
}
