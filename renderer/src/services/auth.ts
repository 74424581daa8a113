// Authorization calls into the core; the only place auth.* reaches the bridge. Tokens never come back.
import type { EventKey, EventMap } from '../../../shared/contract';
import type { ClientSettingsInput } from '../../../shared/domains/auth';
import { bridge } from '../bridge';

export const authService = {
  status: (id: string) => bridge().api['auth.status']({ id }),
  begin: (id: string) => bridge().api['auth.begin']({ id }),
  complete: (id: string, redirectUrl: string) => bridge().api['auth.complete']({ id, redirectUrl }),
  signOut: (id: string) => bridge().api['auth.signOut']({ id }),
  deviceStart: (id: string) => bridge().api['auth.deviceStart']({ id }),
  deviceCancel: (id: string) => bridge().api['auth.deviceCancel']({ id }),
  deviceOpen: (id: string) => bridge().api['auth.deviceOpen']({ id }),
  setBearer: (id: string, token: string | null) => bridge().api['auth.setBearer']({ id, token }),
  setClient: (id: string, client: ClientSettingsInput | null) => bridge().api['auth.setClient']({ id, client }),
  on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => bridge().on(event, listener),
};
