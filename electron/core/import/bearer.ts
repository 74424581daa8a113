// Bearer tokens that arrive with a server definition: an `Authorization: Bearer …` header in an imported config, or
// the token typed in the Add dialog. Switchboard owns the Authorization header, so the token is never kept as a
// header: it goes to the credential store (the same account the auth contract's setBearer uses) before the server
// is registered, so its first connect already carries it.
import type { ServerConfig, ServerConfigInput } from '../../../shared/config.js';
import type { ServerDetail } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { AuthCredentials } from '../auth/credentials.js';
import type { CredentialStore } from '../ports.js';

/** What an Authorization header value means for an import. */
export type AuthorizationValue =
  { kind: 'bearer'; token: string } | { kind: 'prompted'; inputId: string } | { kind: 'unsupported'; reason: string };

/** Longest bearer token accepted (a JWT with many claims stays far below). */
export const MAX_BEARER_CHARS = 16 * 1024;

const INPUT_REF = /^\$\{input:([^}]+)\}$/;
/** Visible ASCII without spaces: a token can never add a header line or a second credential. */
const TOKEN = /^[\x21-\x7e]+$/;

/** Why a bearer token is refused, or null when it can be stored. */
export function bearerTokenProblem(token: string): string | null {
  if (token.length === 0) return 'The bearer token is empty';
  if (token.length > MAX_BEARER_CHARS) return `The bearer token is longer than ${MAX_BEARER_CHARS} characters`;
  if (!TOKEN.test(token)) return 'The bearer token may only contain visible ASCII characters (no spaces or line breaks)';
  return null;
}

/** The token of a pasted value: "Bearer abc" and "abc" both give "abc". */
export function stripBearerScheme(value: string): string {
  return value.trim().replace(/^bearer\s+/i, '');
}

/** Reads an imported Authorization header: a Bearer token, a VS Code prompted secret, or something we cannot keep. */
export function readAuthorizationValue(raw: string): AuthorizationValue {
  const value = raw.trim();
  const scheme = /^(\S+)\s+(.+)$/.exec(value);
  const prompted = INPUT_REF.exec(scheme ? (scheme[1]!.toLowerCase() === 'bearer' ? scheme[2]!.trim() : '') : value);
  if (prompted) return { kind: 'prompted', inputId: prompted[1]! };
  if (!scheme || scheme[1]!.toLowerCase() !== 'bearer') {
    const name = scheme ? scheme[1]! : 'no';
    return {
      kind: 'unsupported',
      reason: `header Authorization uses the ${name.slice(0, 40)} scheme; only Bearer tokens can be imported (add other credentials in the server's Sign-in tab)`,
    };
  }
  const token = scheme[2]!.trim();
  const problem = bearerTokenProblem(token);
  return problem ? { kind: 'unsupported', reason: `header Authorization: ${problem}` } : { kind: 'bearer', token };
}

/** What adding a server with a bearer token needs from the host. */
export interface BearerHost {
  /** Current definitions. */
  configs(): readonly ServerConfig[];
  /** The credential store the auth contract reads. */
  readonly credentials: CredentialStore;
  /** Registers a definition (and starts its first connect). */
  add(input: ServerConfigInput): Promise<ServerDetail>;
}

/**
 * Adds a server whose bearer token is stored first. The id is checked before anything is stored, so an existing
 * server's token is never replaced; a failed add removes the token again.
 */
export async function addWithBearer(host: BearerHost, input: ServerConfigInput, token: string | undefined): Promise<ServerDetail> {
  if (token === undefined) return host.add(input);
  if (input.transport.type === 'stdio')
    throw new AppError('config_invalid', 'A bearer token is only for HTTP and SSE servers', { serverId: input.id });
  const problem = bearerTokenProblem(token);
  if (problem) throw new AppError('config_invalid', problem, { serverId: input.id });
  if (host.configs().some((s) => s.id === input.id))
    throw new AppError('id_conflict', `A server with id "${input.id}" already exists`, { serverId: input.id });
  const creds = new AuthCredentials(host.credentials);
  await creds.setBearer(input.id, token);
  try {
    return await host.add(input);
  } catch (err) {
    await creds.setBearer(input.id, null);
    throw err;
  }
}
