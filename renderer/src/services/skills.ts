// Skills extension calls into the core; the only place the skills domain reaches the bridge.
import { bridge } from '../bridge';

export const skillsService = {
  list: (id: string) => bridge().api['skills.list']({ id }),
  get: (id: string, uri: string) => bridge().api['skills.get']({ id, uri }),
  verify: (id: string, uri: string) => bridge().api['skills.verify']({ id, uri }),
  readFile: (id: string, uri: string, fileUri: string) => bridge().api['skills.readFile']({ id, uri, fileUri }),
  approve: (id: string, uri: string) => bridge().api['skills.approve']({ id, uri }),
  readDirectory: (id: string, uri: string, dirUri: string, cursor?: string) =>
    bridge().api['skills.readDirectory']({ id, uri, dirUri, ...(cursor === undefined ? {} : { cursor }) }),
};
