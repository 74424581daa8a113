// The connection doctor's walk (servers.test): nothing is saved; a stdio walk spawns only an approved trial launch.
import type { ServerConfigInput } from '../../../shared/config';
import { bridge } from '../bridge';

export const doctorService = {
  walk: (args: { config?: ServerConfigInput; id?: string; approvedLaunch?: string }) => bridge().api['servers.test'](args),
};
