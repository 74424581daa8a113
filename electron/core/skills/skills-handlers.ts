// Contract handlers for the skills domain: thin calls into the core's SkillsService.
import type { SkillsInvokeMap } from '../../../shared/domains/skills.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The skills domain's handlers. */
export function skillsHandlers(host: Host): Pick<Handlers, keyof SkillsInvokeMap> {
  return {
    'skills.list': ({ id }) => host.skills.list(id),
    'skills.get': ({ id, uri }) => host.skills.get(id, uri),
    'skills.verify': ({ id, uri }) => host.skills.verify(id, uri),
    'skills.readFile': ({ id, uri, fileUri }) => host.skills.readFile(id, uri, fileUri),
    'skills.approve': ({ id, uri }) => host.skills.approve(id, uri),
    'skills.readDirectory': ({ id, uri, dirUri, cursor }) => host.skills.listDirectory(id, uri, dirUri, cursor),
  };
}
