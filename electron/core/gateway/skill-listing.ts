// The skills a profile's gateway clients get (io.modelcontextprotocol/skills): the approved, verified skills of the
// connected servers the profile sees, under wrapped uris (`switchboard://<server id>/<uri>`, so identity stays
// (server, uri) for the client too), their files through `resources/read` verified against the held manifest, and
// directory reads answered from that manifest (forwarded only to servers that declare `directoryRead`).
// Nothing here approves, verifies on the client's behalf beyond the digests, or serves a skill that failed.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { sanitizeText, truncate } from '../text.js';
import { SKILLS_EXTENSION, type AdmittedSkill } from '../skills/skill-entry.js';
import type { DirectoryChild, VerifiedFile } from '../skills/skills-service.js';
import { unwrapUri, wrapUri } from './namespacing.js';
import type { ProfileView } from './profile.js';

/** Skills per `skills/list` page and bytes per page. */
export const SKILLS_PAGE = 100;
const SKILLS_PAGE_BYTES = 2 * 1024 * 1024;
/** How long a client may treat a listing or an entry as current. */
const TTL_MS = 60_000;
const DIRECTORY = 'inode/directory';

/** What the gateway uses of the core's skills client. */
export interface GatewaySkills {
  hasApprovals(id: string): boolean;
  served(id: string): Promise<AdmittedSkill[]>;
  servedOne(id: string, uri: string): Promise<AdmittedSkill | undefined>;
  isServed(id: string, s: AdmittedSkill): boolean;
  skillsHolding(id: string, fileUri: string): Promise<AdmittedSkill[]>;
  current(id: string): Promise<AdmittedSkill[] | undefined>;
  refusedRoots(id: string): string[];
  readVerified(id: string, skill: AdmittedSkill, fileUri: string): Promise<VerifiedFile>;
  declared(id: string): { directoryRead: boolean } | undefined;
  readDirectory(id: string, dirUri: string, cursor?: string): Promise<{ children: DirectoryChild[]; nextCursor?: string }>;
  /** Calls `fn(serverId)` when a server's skills changed; returns the unsubscribe (absent: changes are not told). */
  onChanged?(fn: (id: string) => void): () => void;
}

/** A `Skill` entry as sent to a gateway client. */
export interface GatewaySkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

const invalid = (message: string): ProtocolError => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^s(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (n === undefined) throw invalid('Invalid cursor');
  return Number(n);
}

const encodeCursor = (offset: number): string => Buffer.from(`s${offset}`, 'utf8').toString('base64url');

/** The skills side of the gateway surface. */
export class SkillListing {
  readonly #skills: GatewaySkills;
  readonly #reachable: (id: string) => boolean;

  /** `reachable`: the server is connected and the person has not turned its resources off (skill files are resources). */
  constructor(skills: GatewaySkills, reachable: (id: string) => boolean) {
    this.#skills = skills;
    this.#reachable = reachable;
  }

  /** The servers whose skills may be served to this profile now (reachable, with an approval). */
  #servers(view: ProfileView): string[] {
    return view.servers().filter((id) => this.#reachable(id) && this.#skills.hasApprovals(id));
  }

  /**
   * The extension's declaration for a surface, or undefined when there is nothing to serve. `directoryRead` is always
   * on: a directory within a served skill can be answered from its manifest even when the server cannot.
   */
  declaration(view: ProfileView | undefined): Record<string, { directoryRead: boolean }> | undefined {
    if (view === undefined || this.#servers(view).length === 0) return undefined;
    return { [SKILLS_EXTENSION]: { directoryRead: true } };
  }

  #entry(serverId: string, s: AdmittedSkill, original: boolean): GatewaySkillEntry {
    const files = s.files === 'dynamic' ? [] : s.files;
    return {
      uri: wrapUri(serverId, s.uri, original),
      // Verbatim (bounded at admission): the client compares it with the SKILL.md it reads.
      frontmatter: s.frontmatter,
      resources: files.map((f) => ({ uri: wrapUri(serverId, f.uri, original), digest: f.digest, size: f.size })),
    };
  }

  /** `skills/list`: every served skill of every visible server, paged by offset. A server that fails is left out. */
  async list(
    view: ProfileView,
    cursor?: string,
  ): Promise<{ skills: GatewaySkillEntry[]; nextCursor?: string; ttlMs: number; cacheScope: 'private' }> {
    const start = decodeCursor(cursor);
    const all: GatewaySkillEntry[] = [];
    for (const id of this.#servers(view)) {
      let served: AdmittedSkill[];
      try {
        served = await this.#skills.served(id);
      } catch {
        // One server's failed listing must not hide the others' skills (as with prompts and resources).
        continue;
      }
      for (const s of served) all.push(this.#entry(id, s, view.original));
    }
    const page: GatewaySkillEntry[] = [];
    let bytes = 0;
    let i = start;
    for (; i < all.length && page.length < SKILLS_PAGE; i++) {
      const size = Buffer.byteLength(JSON.stringify(all[i]), 'utf8');
      if (page.length > 0 && bytes + size > SKILLS_PAGE_BYTES) break;
      bytes += size;
      page.push(all[i]!);
    }
    return { skills: page, ...(i < all.length ? { nextCursor: encodeCursor(i) } : {}), ttlMs: TTL_MS, cacheScope: 'private' };
  }

  /** The server and original uri of a wrapped uri among the servers whose skills may be served. */
  #target(view: ProfileView, uri: string): { serverId: string; uri: string } | undefined {
    return unwrapUri(uri, this.#servers(view), view.original);
  }

  /** `skills/get` on a wrapped uri: the refreshed entry, or invalid params when it is not served. */
  async get(view: ProfileView, uri: string): Promise<{ skill: GatewaySkillEntry; ttlMs: number; cacheScope: 'private' }> {
    const target = this.#target(view, uri);
    const refused = invalid(`No skill is served at ${shown(uri)} (only approved, verified skills are served)`);
    if (target === undefined) throw refused;
    let skill: AdmittedSkill | undefined;
    try {
      skill = await this.#skills.servedOne(target.serverId, target.uri);
    } catch (err) {
      throw invalid(`No skill is served at ${shown(uri)}: ${errText(err)}`);
    }
    if (skill === undefined) throw refused;
    return { skill: this.#entry(target.serverId, skill, view.original), ttlMs: TTL_MS, cacheScope: 'private' };
  }

  /**
   * `resources/read` of a file within a skill the server listed: verified content when a served skill's manifest lists
   * it, refused otherwise, and undefined (an ordinary resource, forwarded as usual) when it is within no skill.
   */
  async read(view: ProfileView, uri: string): Promise<{ contents: VerifiedFile[] } | undefined> {
    // Every reachable server, approved skills or not: a skill's files are only ever served verified and approved
    // (and then byte for byte, unsanitized, since the client checks the same digests).
    const target = unwrapUri(
      uri,
      view.servers().filter((id) => this.#reachable(id)),
      view.original,
    );
    if (target === undefined) return undefined;
    let owners: AdmittedSkill[];
    try {
      owners = await this.#skills.skillsHolding(target.serverId, target.uri);
    } catch {
      // A server that declares skills but cannot be listed now: its skill files cannot be told apart, so none is forwarded.
      if (this.#skills.declared(target.serverId) !== undefined)
        throw invalid(`${shown(uri)} could not be checked against the server's skills, so it is not served`);
      return undefined;
    }
    if (owners.length === 0) {
      // A skipped entry's files are still a skill's: never forwarded as ordinary resources.
      if (this.#skills.refusedRoots(target.serverId).some((root) => target.uri.startsWith(`${root}/`)))
        throw invalid(`${shown(uri)} belongs to a skill that was skipped (malformed or over budget), so it is not served`);
      return undefined;
    }
    const served = owners.filter((s) => this.#skills.isServed(target.serverId, s));
    if (served.length === 0) throw invalid(`${shown(uri)} belongs to a skill that is not approved in Switchboard`);
    const skill = served.find((s) => s.files !== 'dynamic' && s.files.some((f) => f.uri === target.uri));
    // An unlisted file within a skill is a change to it (the spec treats reading one like a digest mismatch).
    if (skill === undefined)
      throw invalid(`${shown(uri)} is not in its skill's manifest; the skill changed and must be approved again in Switchboard`);
    let file: VerifiedFile;
    try {
      file = await this.#skills.readVerified(target.serverId, skill, target.uri);
    } catch (err) {
      throw invalid(`${shown(uri)} did not verify against its skill's manifest, so it is not served (${errText(err)})`);
    }
    return { contents: [{ ...file, uri }] };
  }

  /**
   * A forwarded `resources/list` with the files of skills that are not served left out: a file lies within a skill
   * when it is under its root (admitted or skipped), and is listed only when a served skill's manifest lists it (the same
   * rule `read` applies, so nothing is listed that would be refused). A server that declares skills but cannot be
   * listed now has none of its resources listed, as `read` refuses them all.
   */
  async filterResources(view: ProfileView, listed: { resources: { uri: string }[] }): Promise<{ resources: { uri: string }[] }> {
    const servers = view.servers().filter((id) => this.#reachable(id));
    const byServer = new Map<string, { serverId: string; uri: string }[]>();
    const targets = listed.resources.map((r) => {
      const t = unwrapUri(r.uri, servers, view.original);
      if (t !== undefined) byServer.set(t.serverId, [...(byServer.get(t.serverId) ?? []), t]);
      return t;
    });
    // Per server: absent when it declares no skills (everything passes), 'none' when it cannot be checked now.
    const allowed = new Map<string, { roots: string[]; listable: Set<string> } | 'none'>();
    for (const id of byServer.keys()) {
      let skills: AdmittedSkill[] | undefined;
      try {
        skills = await this.#skills.current(id);
      } catch {
        allowed.set(id, 'none');
        continue;
      }
      if (skills === undefined) continue;
      const listable = new Set<string>();
      for (const s of skills) if (s.files !== 'dynamic' && this.#skills.isServed(id, s)) for (const f of s.files) listable.add(f.uri);
      const roots = [...skills.map((s) => s.root), ...this.#skills.refusedRoots(id)];
      allowed.set(id, { roots, listable });
    }
    const resources = listed.resources.filter((_, i) => {
      const t = targets[i];
      if (t === undefined) return true;
      const rule = allowed.get(t.serverId);
      if (rule === undefined) return true;
      if (rule === 'none') return false;
      const within = rule.roots.some((root) => t.uri.startsWith(`${root}/`));
      return !within || rule.listable.has(t.uri);
    });
    return { ...listed, resources };
  }

  /**
   * `resources/directory/read` of a directory within a served skill. The held manifest is what the client may read,
   * so children are the manifest's; a server declaring `directoryRead` is asked too, and children it no longer lists
   * are left out (a directory read never extends the manifest).
   */
  async readDirectory(view: ProfileView, uri: string): Promise<{ resources: DirectoryChild[] }> {
    const target = this.#target(view, uri);
    const refused = invalid(`${shown(uri)} is not a directory of a skill served here`);
    if (target === undefined) throw refused;
    let served: AdmittedSkill[];
    try {
      served = await this.#skills.served(target.serverId);
    } catch {
      throw refused;
    }
    const dir = target.uri.replace(/\/+$/, '');
    const skill = served.find((s) => dir === s.root || dir.startsWith(`${s.root}/`));
    if (skill === undefined || skill.files === 'dynamic') throw refused;
    const children = new Map<string, boolean>();
    for (const f of skill.files) {
      if (!f.uri.startsWith(`${dir}/`)) continue;
      const [head, ...rest] = f.uri.slice(dir.length + 1).split('/');
      if (head !== undefined && head.length > 0) children.set(head, rest.length > 0 || (children.get(head) ?? false));
    }
    if (children.size === 0) throw refused;
    if (this.#skills.declared(target.serverId)?.directoryRead === true) {
      const live = new Set<string>();
      let cursor: string | undefined;
      // Bounded: the manifest has at most 512 files, so a few pages cover any directory of it.
      for (let pages = 0; pages < 10; pages++) {
        const page = await this.#skills.readDirectory(target.serverId, dir, cursor).catch(() => undefined);
        if (page === undefined) throw invalid(`${shown(uri)} could not be read from its server`);
        for (const c of page.children) live.add(c.uri);
        if (page.nextCursor === undefined) break;
        cursor = page.nextCursor;
      }
      for (const name of [...children.keys()]) if (!live.has(`${dir}/${name}`)) children.delete(name);
    }
    const resources = [...children].map(([name, isDir]) => {
      const child = `${dir}/${name}`;
      const mimeType = isDir ? DIRECTORY : skill.files === 'dynamic' ? undefined : mimeOf(name);
      return { uri: wrapUri(target.serverId, child, view.original), name, ...(mimeType === undefined ? {} : { mimeType }) };
    });
    return { resources };
  }
}

/** A client-sent uri echoed in an error: bounded and without control or bidi characters. */
function shown(uri: string): string {
  return truncate(sanitizeText(uri), 200);
}

function mimeOf(name: string): string | undefined {
  return name.endsWith('.md') ? 'text/markdown' : undefined;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message.slice(0, 300) : 'unknown error';
}
