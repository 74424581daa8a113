// The Skills extension client for one host: detection from the server's capabilities, `skills/list` page by page
// within the server's catalog budgets, `skills/get`, per-file reads through `resources/read` verified against the
// manifest, and approvals bound to the manifest digests (kept like tool pins, keyed by server and uri).
// Files are read only when the person asks (verify, open a file, approve): never on connect or on listing.
import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod';
import type { ServerConfig } from '../../../shared/config.js';
import type {
  SkillApproval,
  SkillDirectory,
  SkillFileCheck,
  SkillFileContent,
  SkillFileView,
  SkillsListResult,
  SkillVerification,
  SkillView,
  SkippedSkill,
} from '../../../shared/domains/skills.js';
import { AppError } from '../../../shared/errors.js';
import { pinKey, type PinRecord, type PinStore } from '../catalog/pins.js';
import { isObject } from '../json.js';
import { requestError } from '../resources/request-error.js';
import { sanitizeText, truncate } from '../text.js';
import { admitSkill, disambiguate, SKILL_MAX_TOTAL_BYTES, SKILLS_EXTENSION, type AdmittedSkill } from './skill-entry.js';
import { checkBytes, checkFrontmatter, rawBytes } from './verify.js';
import { SkillChanges, SKILLS_LIST_CHANGED } from './skill-changes.js';

/** Method names of the extension. */
export const SkillMethods = { list: 'skills/list', get: 'skills/get', directoryRead: 'resources/directory/read' } as const;

/** At most this many skipped-entry reasons are kept per listing (a hostile list could produce one per entry). */
const MAX_SKIPPED = 50;
/** Text of one file returned for display is cut here (the whole file is still verified). */
const MAX_SHOWN_TEXT = 512 * 1024;

/** Children of one directory kept per `resources/directory/read` page (a hostile server could send millions). */
const MAX_DIRECTORY_CHILDREN = 2000;

const ListPage = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });
const DirectoryPage = z.looseObject({ resources: z.array(z.unknown()), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: z.unknown() });
const ReadResult = z.looseObject({ contents: z.array(z.unknown()) });

/** What the service needs from the host. */
export interface SkillsServiceDeps {
  /** The server's definition (throws not_found). */
  config(id: string): ServerConfig;
  /** The connected client, connecting first when needed. */
  client(id: string): Promise<Client>;
  /** Where approvals are kept (the tool pin store's shape, in its own file). */
  approvals: PinStore;
}

/** The extension's settings as the server declared them, or undefined when it did not. */
export function skillsCapability(client: Client): { directoryRead: boolean } | undefined {
  const caps = client.getServerCapabilities() as Record<string, unknown> | undefined;
  const ext = isObject(caps) && isObject(caps['extensions']) ? caps['extensions'][SKILLS_EXTENSION] : undefined;
  if (!isObject(ext)) return undefined;
  return { directoryRead: ext['directoryRead'] === true };
}

/** A verified file's content exactly as the server sent it (digest-checked bytes, so never rewritten). */
export interface VerifiedFile {
  uri: string;
  mimeType?: string;
  /** UTF-8 text, when the server sent text. */
  text?: string;
  /** Base64 of the bytes, when the server sent a blob. */
  blob?: string;
}

/** One child of a directory resource (bounded, sanitized). */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType?: string;
}

/** The skills operations. */
export class SkillsService {
  readonly #deps: SkillsServiceDeps;
  readonly #approvals: Map<string, PinRecord>;
  /** The latest admitted entries per server, by uri (identity is always server + uri). */
  readonly #held = new Map<string, Map<string, AdmittedSkill>>();
  /** Manifests (by fingerprint) that failed a read or a verification, per (server, uri): never served on. */
  readonly #failed = new Map<string, string>();
  /** Roots of the entries the last listing skipped, per server: their files are a skill's, never ordinary resources. */
  readonly #refusedRoots = new Map<string, string[]>();
  /** The extension settings each server declared when last asked. */
  readonly #declared = new Map<string, { directoryRead: boolean }>();
  /** Listing changes, told to the gateway so its clients hear of them. */
  readonly #changes = new SkillChanges((id) => this.list(id));
  /** Clients whose skills notification handler is installed (a reconnect brings a new Client). */
  readonly #followed = new WeakSet<Client>();

  constructor(deps: SkillsServiceDeps) {
    this.#deps = deps;
    this.#approvals = deps.approvals.load();
  }

  /** Calls `fn(serverId)` when a server's skills changed (a listing differs, a notification, an approval). */
  onChanged(fn: (id: string) => void): () => void {
    return this.#changes.onChanged(fn);
  }

  /** Lists every page of a server's skills within its budgets; entries that fail admission are skipped with a reason. */
  async list(id: string): Promise<SkillsListResult> {
    const config = this.#deps.config(id);
    const client = await this.#deps.client(id);
    const cap = this.#capability(id, client);
    if (cap === undefined) return { serverId: id, supported: false, directoryRead: false, skills: [], skipped: [] };
    const l = config.limits;
    const admitted: AdmittedSkill[] = [];
    const skipped: SkippedSkill[] = [];
    const seenUris = new Set<string>();
    const seenCursors = new Set<string>();
    const refusedRoots: string[] = [];
    let cursor: string | undefined;
    let partial: string | undefined;
    const skip = (s: SkippedSkill): void => {
      if (skipped.length < MAX_SKIPPED) skipped.push(s);
    };
    for (let pages = 0; ; pages++) {
      if (pages >= l.catalogPages) {
        partial = `Paging stopped after ${l.catalogPages} pages (the page budget)`;
        break;
      }
      let page: z.infer<typeof ListPage>;
      try {
        page = await client.request({ method: SkillMethods.list, params: cursor === undefined ? {} : { cursor } }, ListPage, {
          timeout: config.timeouts.listSecs * 1000,
        });
      } catch (err) {
        // A failed later page keeps what was listed so far; a failed first page is the listing's failure.
        if (pages === 0) throw requestError(err, id, 'listing skills', config.timeouts.listSecs);
        partial = `A later page failed: ${requestError(err, id, 'listing skills', config.timeouts.listSecs).message}`;
        break;
      }
      for (const raw of page.skills) {
        if (admitted.length >= l.catalogItems) {
          partial = `Only the first ${l.catalogItems} skills are kept (the item budget)`;
          break;
        }
        const a = admitSkill(raw, l);
        if ('reason' in a) {
          skip(a);
          const root = rootOf(raw);
          if (root !== undefined && refusedRoots.length < l.catalogItems) refusedRoots.push(root);
        } else if (seenUris.has(a.uri))
          skip({ uri: truncate(a.uri, 200), reason: `Skill ${truncate(a.uri, 200)} was listed twice; the first is kept` });
        else {
          seenUris.add(a.uri);
          admitted.push(a);
        }
      }
      if (partial !== undefined) break;
      const next = page.nextCursor;
      if (next === undefined) break;
      if (seenCursors.has(next) || Buffer.byteLength(next, 'utf8') > l.cursorBytes) {
        partial = 'The server returned a repeated or oversized cursor; paging stopped';
        break;
      }
      seenCursors.add(next);
      cursor = next;
    }
    this.#held.set(id, new Map(admitted.map((s) => [s.uri, s])));
    this.#refusedRoots.set(id, refusedRoots);
    this.#changes.listed(id, admitted);
    const labels = disambiguate(admitted);
    return {
      serverId: id,
      supported: true,
      directoryRead: cap.directoryRead,
      ...(config.resources ? {} : { resourcesOff: true }),
      skills: admitted.map((s) => this.#view(id, s, labels.get(s.uri) ?? s.name)),
      skipped,
      ...(partial === undefined ? {} : { partial }),
    };
  }

  /** Refreshes one skill with `skills/get` (so a changed manifest shows as changed). */
  async get(id: string, uri: string): Promise<SkillView> {
    const skill = await this.#fetch(id, uri);
    return this.#view(id, skill, this.#label(id, skill));
  }

  /**
   * Reads every listed file and checks it, the skill's SKILL.md first; the first failing file (a mismatch, or a file
   * that could not be read) is named with why, and a failing SKILL.md ends the check (the other files are listed
   * unread). Dynamic skills are not content-checked.
   */
  async verify(id: string, uri: string): Promise<SkillVerification> {
    this.#resourcesOn(id);
    const skill = await this.#fetch(id, uri);
    const view = this.#view(id, skill, this.#label(id, skill));
    if (skill.files === 'dynamic') {
      // Nothing to compare digests with; the SKILL.md frontmatter is still checked.
      const check = await this.#readChecked(id, skill, { uri: skill.uri, path: 'SKILL.md' });
      const files: SkillFileCheck[] = [check.check];
      if (check.check.state === 'mismatch') {
        return {
          serverId: id,
          uri,
          state: 'mismatch',
          files,
          mismatch: { uri: skill.uri, reason: check.check.reason ?? 'mismatch' },
          skill: view,
        };
      }
      return { serverId: id, uri, state: 'dynamic', files, skill: view };
    }
    const files: SkillFileCheck[] = [];
    let mismatch: { uri: string; reason: string } | undefined;
    // The skill's own SKILL.md first: when it fails (digest, size, frontmatter, or it cannot be read) the skill has
    // failed, and the rest is not asked for: a hostile server gets no further reads out of a skill already refused.
    const head = skill.files.find((f) => f.uri === skill.uri);
    const ordered = head === undefined ? skill.files : [head, ...skill.files.filter((f) => f !== head)];
    for (const [i, f] of ordered.entries()) {
      const { check } = await this.#readChecked(id, skill, f);
      files.push(check);
      if (f === head && check.state !== 'verified') {
        mismatch = { uri: f.uri, reason: check.reason ?? 'it did not verify' };
        for (const rest of ordered.slice(i + 1)) {
          files.push({
            uri: sanitizeText(rest.uri),
            path: sanitizeText(rest.path),
            state: 'unread',
            reason: 'not read: the skill’s SKILL.md did not verify',
          });
        }
        break;
      }
      // A supporting file that could not be read fails the skill as a mismatch does: its content is unknown.
      if ((check.state === 'mismatch' || check.state === 'unread') && mismatch === undefined)
        mismatch = { uri: f.uri, reason: check.reason ?? 'it did not verify' };
    }
    this.#record(id, skill, mismatch === undefined);
    return {
      serverId: id,
      uri,
      state: mismatch === undefined ? 'verified' : 'mismatch',
      files,
      ...(mismatch === undefined ? {} : { mismatch }),
      skill: view,
    };
  }

  /** One listed file, returned only when it verifies; an unlisted file or a mismatch throws skill_unverified. */
  async readFile(id: string, uri: string, fileUri: string): Promise<SkillFileContent> {
    this.#resourcesOn(id);
    const skill = await this.#held1(id, uri);
    const listed = skill.files === 'dynamic' ? undefined : skill.files.find((f) => f.uri === fileUri);
    if (skill.files !== 'dynamic' && listed === undefined) {
      // An unlisted file is a change to the skill: the spec treats reading one like a digest mismatch.
      throw new AppError('skill_unverified', `${truncate(fileUri, 200)} is not in the skill's manifest; refresh the skill first`, {
        serverId: id,
      });
    }
    if (skill.files === 'dynamic' && fileUri !== skill.uri && !fileUri.startsWith(`${skill.root}/`)) {
      throw new AppError('skill_unverified', `${truncate(fileUri, 200)} is outside the skill`, { serverId: id });
    }
    const target = listed ?? { uri: fileUri, path: fileUri.slice(skill.root.length + 1) };
    const { check, text } = await this.#readChecked(id, skill, target);
    if (check.state === 'mismatch') this.#record(id, skill, false);
    if (check.state === 'mismatch' || check.state === 'unread') {
      throw new AppError('skill_unverified', `${check.path}: ${check.reason ?? 'it did not verify'}`, { serverId: id });
    }
    const shown = text === undefined ? undefined : sanitizeText(text);
    return {
      uri: fileUri,
      path: check.path,
      state: check.state === 'verified' ? 'verified' : 'dynamic',
      ...(check.mimeType === undefined ? {} : { mimeType: truncate(sanitizeText(check.mimeType), 200) }),
      size: check.readBytes ?? 0,
      ...(shown === undefined ? {} : { text: truncate(shown, MAX_SHOWN_TEXT) }),
      truncated: shown !== undefined && shown.length > MAX_SHOWN_TEXT,
    };
  }

  /** Verifies the skill afresh and binds the approval to its manifest; refused for a mismatch or a dynamic skill. */
  async approve(id: string, uri: string): Promise<SkillView> {
    const v = await this.verify(id, uri);
    if (v.state === 'dynamic')
      throw new AppError('skill_unverified', 'This skill publishes no digests ("dynamic"), so an approval cannot be bound to its content', {
        serverId: id,
      });
    if (v.mismatch !== undefined)
      throw new AppError(
        'skill_unverified',
        `Not approved: ${truncate(v.mismatch.uri, 200)} does not match the manifest (${v.mismatch.reason})`,
        { serverId: id },
      );
    const skill = await this.#held1(id, uri);
    if (skill.fingerprint === undefined) throw new AppError('skill_unverified', 'This skill cannot be content-bound', { serverId: id });
    const before = this.#approvals.get(pinKey(id, uri))?.fingerprint;
    this.#approvals.set(pinKey(id, uri), { fingerprint: skill.fingerprint, definition: {} });
    this.#deps.approvals.save(this.#approvals);
    // A newly approved (or re-approved) skill is now served: the gateway's clients may list again.
    if (before !== skill.fingerprint) this.#changes.changed(id);
    return this.#view(id, skill, this.#label(id, skill));
  }

  /** Whether any skill of the server was ever approved (cheap, no request: decides whether skills may be served). */
  hasApprovals(id: string): boolean {
    for (const key of this.#approvals.keys()) if (key.startsWith(`${id}\u0000`)) return true;
    return false;
  }

  /**
   * The skills that may be acted on: approved against the current manifest and with no failed verification of that
   * manifest since. Lists the server afresh (`skills/list`), so a changed skill drops out at once.
   */
  async served(id: string): Promise<AdmittedSkill[]> {
    if (!this.hasApprovals(id)) return [];
    const listed = await this.list(id);
    if (!listed.supported) return [];
    const held = this.#held.get(id);
    return [...(held?.values() ?? [])].filter((s) => this.isServed(id, s));
  }

  /** One skill refreshed with `skills/get`, or undefined when it is not approved or failed verification. */
  async servedOne(id: string, uri: string): Promise<AdmittedSkill | undefined> {
    if (!this.hasApprovals(id)) return undefined;
    const skill = await this.#fetch(id, uri);
    return this.isServed(id, skill) ? skill : undefined;
  }

  /** Whether an admitted entry is approved for its current manifest and never failed verification under it. */
  isServed(id: string, s: AdmittedSkill): boolean {
    return this.#approval(id, s) === 'approved' && this.#failed.get(pinKey(id, s.uri)) !== s.fingerprint;
  }

  /**
   * Every admitted skill of the server, listed afresh (so a changed manifest counts at once), or undefined when the
   * server does not declare the extension (then nothing is asked of it).
   */
  async current(id: string): Promise<AdmittedSkill[] | undefined> {
    const listed = await this.list(id);
    if (!listed.supported) return undefined;
    return [...(this.#held.get(id)?.values() ?? [])];
  }

  /** Roots of the skills the last listing skipped (malformed, oversized): their files are served to no one. */
  refusedRoots(id: string): string[] {
    return this.#refusedRoots.get(id) ?? [];
  }

  /** The held skills a file lies within (listing the server first when nothing is held for it). */
  async skillsHolding(id: string, fileUri: string): Promise<AdmittedSkill[]> {
    if (!this.#held.has(id)) await this.list(id);
    return [...(this.#held.get(id)?.values() ?? [])].filter((s) => fileUri === s.uri || fileUri.startsWith(`${s.root}/`));
  }

  /**
   * One listed file of a skill, verified against the held manifest; its bytes are returned unchanged (a client
   * checks the same digests). A mismatch marks the manifest failed, so the skill is not served again until it changes.
   */
  async readVerified(id: string, skill: AdmittedSkill, fileUri: string): Promise<VerifiedFile> {
    this.#resourcesOn(id);
    const listed = skill.files === 'dynamic' ? undefined : skill.files.find((f) => f.uri === fileUri);
    if (listed === undefined)
      throw new AppError('skill_unverified', `${truncate(fileUri, 200)} is not in the skill's manifest`, { serverId: id });
    const { check, item } = await this.#readChecked(id, skill, listed);
    if (check.state === 'mismatch') this.#record(id, skill, false);
    if (check.state !== 'verified' || item === undefined)
      throw new AppError('skill_unverified', `${check.path}: ${check.reason ?? 'it did not verify'}`, { serverId: id });
    return { uri: fileUri, ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }), ...item.content };
  }

  /** The extension settings the server declared when last asked (undefined: not asked yet, or not declared). */
  declared(id: string): { directoryRead: boolean } | undefined {
    return this.#declared.get(id);
  }

  /**
   * One page of a directory's direct children through `resources/directory/read`. Refused without a request when the
   * server did not declare `directoryRead` (the spec forbids calling it then).
   */
  async readDirectory(id: string, dirUri: string, cursor?: string): Promise<{ children: DirectoryChild[]; nextCursor?: string }> {
    this.#resourcesOn(id);
    const config = this.#deps.config(id);
    const client = await this.#deps.client(id);
    const cap = this.#capability(id, client);
    if (cap?.directoryRead !== true)
      throw new AppError('invalid_request', 'This server does not declare directoryRead, so its directories cannot be read', {
        serverId: id,
      });
    let page: z.infer<typeof DirectoryPage>;
    try {
      page = await client.request(
        { method: SkillMethods.directoryRead, params: { uri: dirUri, ...(cursor === undefined ? {} : { cursor }) } },
        DirectoryPage,
        { timeout: config.timeouts.requestSecs * 1000 },
      );
    } catch (err) {
      throw requestError(err, id, 'reading a directory', config.timeouts.requestSecs);
    }
    const children: DirectoryChild[] = [];
    for (const r of page.resources.slice(0, MAX_DIRECTORY_CHILDREN)) {
      // A child uri is sent back verbatim, so one with unsafe characters is dropped rather than cleaned.
      if (!isObject(r) || typeof r['uri'] !== 'string' || r['uri'].length > 8192 || sanitizeText(r['uri']) !== r['uri']) continue;
      const name = typeof r['name'] === 'string' ? truncate(sanitizeText(r['name']), 200) : (r['uri'].split('/').at(-1) ?? r['uri']);
      const mimeType = typeof r['mimeType'] === 'string' ? truncate(sanitizeText(r['mimeType']), 200) : undefined;
      children.push({ uri: r['uri'], name, ...(mimeType === undefined ? {} : { mimeType }) });
    }
    const next = page.nextCursor;
    const usable = next !== undefined && Buffer.byteLength(next, 'utf8') <= config.limits.cursorBytes;
    return { children, ...(usable ? { nextCursor: next } : {}) };
  }

  /**
   * A directory within a skill, for the person: the server's live view (`resources/directory/read`, only where
   * declared), each child marked with whether the held manifest lists it (a listed-only-live file is a change).
   */
  async listDirectory(id: string, uri: string, dirUri: string, cursor?: string): Promise<SkillDirectory> {
    const skill = await this.#held1(id, uri);
    const dir = dirUri.replace(/\/+$/, '');
    if (dir !== skill.root && !dir.startsWith(`${skill.root}/`))
      throw new AppError('invalid_request', `${truncate(sanitizeText(dirUri), 200)} is not a directory of this skill`, { serverId: id });
    const page = await this.readDirectory(id, dir, cursor);
    const listed = new Set(skill.files === 'dynamic' ? [] : skill.files.map((f) => f.uri));
    const prefixes = new Set([...listed].flatMap((u) => u.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    return {
      serverId: id,
      uri,
      dirUri: dir,
      children: page.children.map((c) => {
        const directory = c.mimeType === 'inode/directory';
        return {
          uri: sanitizeText(c.uri),
          name: c.name,
          directory,
          inManifest: directory ? prefixes.has(c.uri) : listed.has(c.uri),
          ...(c.mimeType === undefined ? {} : { mimeType: c.mimeType }),
        };
      }),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  }

  /** Forgets a removed server's held entries and approvals (a re-added server starts unapproved). */
  forget(id: string): void {
    this.#held.delete(id);
    this.#refusedRoots.delete(id);
    this.#declared.delete(id);
    for (const key of [...this.#failed.keys()]) if (key.startsWith(`${id}\u0000`)) this.#failed.delete(key);
    let changed = false;
    for (const key of [...this.#approvals.keys()]) {
      if (key.startsWith(`${id}\u0000`)) {
        this.#approvals.delete(key);
        changed = true;
      }
    }
    if (changed) this.#deps.approvals.save(this.#approvals);
  }

  /** Skill files are resources: with the server's resources turned off, none is read (as the gateway serves none). */
  #resourcesOn(id: string): void {
    const config = this.#deps.config(id);
    if (!config.resources)
      throw new AppError(
        'invalid_request',
        `Resources are turned off for ${truncate(sanitizeText(config.name), 200)}, so its skill files are not read (turn resources on in its settings)`,
        { serverId: id },
      );
  }

  #capability(id: string, client: Client): { directoryRead: boolean } | undefined {
    const cap = skillsCapability(client);
    if (cap === undefined) this.#declared.delete(id);
    else this.#declared.set(id, cap);
    if (cap !== undefined && !this.#followed.has(client)) {
      this.#followed.add(client);
      client.setNotificationHandler(SKILLS_LIST_CHANGED, { params: z.looseObject({}).optional() }, () => this.#changes.notified(id));
    }
    return cap;
  }

  /** Remembers a manifest that failed (or clears the mark when the same manifest verified whole). */
  #record(id: string, s: AdmittedSkill, ok: boolean): void {
    if (s.fingerprint === undefined) return;
    const key = pinKey(id, s.uri);
    if (ok) {
      if (this.#failed.get(key) === s.fingerprint) this.#failed.delete(key);
    } else this.#failed.set(key, s.fingerprint);
  }

  #approval(id: string, s: AdmittedSkill): SkillApproval {
    if (s.fingerprint === undefined) return 'unbindable';
    const rec = this.#approvals.get(pinKey(id, s.uri));
    if (rec === undefined) return 'none';
    return rec.fingerprint === s.fingerprint ? 'approved' : 'changed';
  }

  #view(id: string, s: AdmittedSkill, label: string): SkillView {
    return {
      serverId: id,
      uri: truncate(s.uri, 8192),
      name: s.name,
      label,
      skillPath: s.skillPath,
      description: s.description,
      ...(s.license === undefined ? {} : { license: s.license }),
      ...(s.allowedTools === undefined ? {} : { allowedTools: s.allowedTools }),
      fields: s.fields,
      files: s.files === 'dynamic' ? 'dynamic' : s.files.map((f) => ({ ...f, uri: sanitizeText(f.uri), path: sanitizeText(f.path) })),
      totalBytes: s.totalBytes,
      approval: this.#approval(id, s),
    };
  }

  #label(id: string, s: AdmittedSkill): string {
    const held = this.#held.get(id);
    return held === undefined ? s.name : (disambiguate([...held.values()]).get(s.uri) ?? s.name);
  }

  /** The held entry, fetched with `skills/get` when this skill was never listed. */
  async #held1(id: string, uri: string): Promise<AdmittedSkill> {
    return this.#held.get(id)?.get(uri) ?? this.#fetch(id, uri);
  }

  /** `skills/get` for one skill; the answer replaces the held entry. */
  async #fetch(id: string, uri: string): Promise<AdmittedSkill> {
    const config = this.#deps.config(id);
    const client = await this.#deps.client(id);
    if (this.#capability(id, client) === undefined) throw new AppError('not_found', 'This server does not serve skills', { serverId: id });
    let result: z.infer<typeof GetResult>;
    try {
      result = await client.request({ method: SkillMethods.get, params: { uri } }, GetResult, {
        timeout: config.timeouts.requestSecs * 1000,
      });
    } catch (err) {
      throw requestError(err, id, 'getting a skill', config.timeouts.requestSecs);
    }
    const a = admitSkill(result.skill, config.limits);
    if ('reason' in a) throw new AppError('catalog_invalid', a.reason, { serverId: id });
    // The server must answer with the skill asked for: another uri would be a substitution.
    if (a.uri !== uri) throw new AppError('catalog_invalid', 'The server answered skills/get with another skill', { serverId: id });
    let held = this.#held.get(id);
    if (held === undefined) this.#held.set(id, (held = new Map()));
    held.set(uri, a);
    return a;
  }

  /** Reads one file with `resources/read` and checks it against its manifest entry (when there is one). */
  async #readChecked(
    id: string,
    skill: AdmittedSkill,
    file: Pick<SkillFileView, 'uri' | 'path'> & Partial<Pick<SkillFileView, 'size' | 'digest'>>,
  ): Promise<{ check: SkillFileCheck; text?: string; item?: { mimeType?: string; content: { text: string } | { blob: string } } }> {
    const config = this.#deps.config(id);
    const client = await this.#deps.client(id);
    const base = { uri: sanitizeText(file.uri), path: sanitizeText(file.path) };
    let contents: unknown[];
    try {
      const r = await client.request({ method: 'resources/read', params: { uri: file.uri } }, ReadResult, {
        timeout: config.timeouts.requestSecs * 1000,
      });
      contents = r.contents;
    } catch (err) {
      const e = requestError(err, id, 'reading a skill file', config.timeouts.requestSecs);
      return { check: { ...base, state: 'unread', reason: `it could not be read: ${e.message}` } };
    }
    // A file is one resource: the item for the asked uri (or the only item) is its content.
    const item = contents.find((c) => isObject(c) && c['uri'] === file.uri) ?? (contents.length === 1 ? contents[0] : undefined);
    const got = rawBytes(item);
    if (typeof got === 'string') return { check: { ...base, state: 'mismatch', reason: got } };
    const mt = got.mimeType === undefined ? {} : { mimeType: got.mimeType };
    const budget = Math.min(config.limits.resourceBytes, SKILL_MAX_TOTAL_BYTES);
    if (got.bytes.length > budget) {
      return {
        check: {
          ...base,
          state: 'mismatch',
          reason: `it is ${got.bytes.length} bytes (budget ${budget})`,
          readBytes: got.bytes.length,
          ...mt,
        },
      };
    }
    const dynamic = file.digest === undefined || file.size === undefined;
    const reason =
      (dynamic ? undefined : checkBytes(got.bytes, { size: file.size!, digest: file.digest! })) ??
      (file.uri === skill.uri ? checkFrontmatter(got.text ?? got.bytes.toString('utf8'), skill.frontmatter) : undefined);
    const state = reason !== undefined ? 'mismatch' : dynamic ? 'dynamic' : 'verified';
    return {
      check: { ...base, state, ...(reason === undefined ? {} : { reason }), readBytes: got.bytes.length, ...mt },
      // Unverified bytes are never handed on (the spec: a host must not use them).
      ...(state !== 'mismatch' && got.text !== undefined ? { text: got.text } : {}),
      ...(state !== 'mismatch'
        ? { item: { ...mt, content: got.text !== undefined ? { text: got.text } : { blob: got.bytes.toString('base64') } } }
        : {}),
    };
  }
}

/** The root of a skipped entry's SKILL.md uri, when it has a usable one. */
function rootOf(raw: unknown): string | undefined {
  const uri = isObject(raw) ? raw['uri'] : undefined;
  if (typeof uri !== 'string' || uri.length > 8192 || !uri.endsWith('/SKILL.md')) return undefined;
  return uri.slice(0, -'/SKILL.md'.length);
}
