// The add/edit dialog's editable model and its conversion to a server definition.
import { blockedPortMessage, fetchBlockedPort } from '../../../../shared/blocked-ports';
import { isSensitiveHeaderName, ServerConfigInputSchema, type ServerConfigInput } from '../../../../shared/config';
import type { ServerConfigView } from '../../../../shared/contract';

/** One environment row in the form. */
export interface EnvRow {
  key: string;
  value: string;
  secret: boolean;
  /** A stored secret exists; an empty value keeps it. */
  isSet: boolean;
}

/** The dialog's fields. */
export interface ServerFormModel {
  id: string;
  name: string;
  type: 'stdio' | 'http' | 'sse';
  command: string;
  args: string;
  cwd: string;
  env: EnvRow[];
  inheritEnv: boolean;
  url: string;
  /** Header rows; a secret one is kept in the credential store (credential-like names always are). */
  headers: EnvRow[];
  allowInsecureHttp: boolean;
  enabled: boolean;
  lifecycle: 'auto' | 'discover' | 'initialize';
  startup: 'eager' | 'background' | 'manual';
  required: boolean;
  concurrency: 'serial' | 'readOnlyParallel' | 'parallel';
  elicitation: boolean;
  resources: boolean;
  tasks: boolean;
}

/** An empty form for a new server. */
export function emptyModel(): ServerFormModel {
  return {
    id: '',
    name: '',
    type: 'stdio',
    command: '',
    args: '',
    cwd: '',
    env: [],
    inheritEnv: false,
    url: '',
    headers: [],
    allowInsecureHttp: false,
    enabled: true,
    lifecycle: 'auto',
    startup: 'eager',
    required: false,
    concurrency: 'serial',
    // Servers the person adds may ask questions; the first question asks whether to allow it (imports keep it off).
    elicitation: true,
    resources: true,
    tasks: false,
  };
}

/** The form filled from a stored (masked) definition. */
export function modelFromView(view: ServerConfigView): ServerFormModel {
  const m = emptyModel();
  const t = view.transport;
  Object.assign(m, {
    id: view.id,
    name: view.name,
    enabled: view.enabled ?? true,
    lifecycle: view.lifecycle ?? 'auto',
    startup: view.startup ?? 'eager',
    required: view.required ?? false,
    concurrency: view.concurrency ?? 'serial',
    elicitation: view.elicitation ?? false,
    resources: view.resources ?? true,
    tasks: view.tasks ?? false,
    type: t.type,
  });
  if (t.type === 'stdio') {
    m.command = t.command;
    m.args = t.args.join('\n');
    m.cwd = t.cwd ?? '';
    m.inheritEnv = t.inheritEnv;
    m.env = Object.entries(t.env).map(([key, v]) =>
      typeof v === 'string' ? { key, value: v, secret: false, isSet: false } : { key, value: '', secret: true, isSet: v.isSet },
    );
  } else {
    m.url = t.url;
    m.headers = Object.entries(t.headers).map(([key, v]) =>
      typeof v === 'string' ? { key, value: v, secret: false, isSet: false } : { key, value: '', secret: true, isSet: v.isSet },
    );
    m.allowInsecureHttp = t.allowInsecureHttp;
  }
  return m;
}

/** Builds the definition to send; `base` keeps fields the form does not edit (timeouts, limits, tool lists). */
export function modelToInput(m: ServerFormModel, base?: ServerConfigView): ServerConfigInput {
  const transport: ServerConfigInput['transport'] =
    m.type === 'stdio'
      ? {
          type: 'stdio',
          command: m.command.trim(),
          args: m.args.split('\n').filter((line) => line.length > 0),
          ...(m.cwd.trim() ? { cwd: m.cwd.trim() } : {}),
          env: Object.fromEntries(
            m.env
              .filter((r) => r.key.trim().length > 0)
              .map((r) => [
                r.key.trim(),
                r.secret ? (r.value === '' && r.isSet ? { secret: true as const } : { secret: true as const, value: r.value }) : r.value,
              ]),
          ),
          inheritEnv: m.inheritEnv,
        }
      : {
          type: m.type,
          url: m.url.trim(),
          headers: Object.fromEntries(
            m.headers
              .filter((h) => h.key.trim())
              .map((h) => [
                h.key.trim(),
                h.secret || isSensitiveHeaderName(h.key.trim())
                  ? h.value === '' && h.isSet
                    ? { secret: true as const }
                    : { secret: true as const, value: h.value }
                  : h.value,
              ]),
          ),
          allowInsecureHttp: m.allowInsecureHttp,
        };
  return {
    // Settings the form does not edit are kept (client features live in their own panel).
    ...(base
      ? {
          timeouts: base.timeouts,
          limits: base.limits,
          tools: base.tools,
          ...(base.sampling !== undefined ? { sampling: base.sampling } : {}),
          ...(base.roots !== undefined ? { roots: base.roots } : {}),
        }
      : {}),
    id: m.id.trim(),
    name: m.name.trim(),
    enabled: m.enabled,
    transport,
    lifecycle: m.lifecycle,
    startup: m.startup,
    required: m.required,
    concurrency: m.concurrency,
    elicitation: m.elicitation,
    resources: m.resources,
    tasks: m.tasks,
  };
}

/** Field name → first validation message, from the shared schema. */
export function validateModel(m: ServerFormModel, base?: ServerConfigView): Record<string, string> {
  const parsed = ServerConfigInputSchema.safeParse(modelToInput(m, base));
  const errors: Record<string, string> = {};
  // A port fetch refuses would only fail at connect with a bare "fetch failed (bad port)": said here, by number.
  const blocked = m.type === 'stdio' ? undefined : fetchBlockedPort(m.url.trim());
  if (blocked !== undefined) errors['url'] = `${blockedPortMessage(blocked)}.`;
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String);
    const field = path[0] === 'transport' ? (path[1] ?? 'type') : (path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}
