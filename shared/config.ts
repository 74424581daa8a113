import { z } from 'zod';

/** Header names a user may not set on an HTTP/SSE server: the app owns them. */
export const FORBIDDEN_HEADERS: readonly string[] = [
  'authorization',
  'host',
  'content-length',
  'mcp-session-id',
  'mcp-protocol-version',
  'connection',
  'transfer-encoding',
  'cookie',
];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True when a hostname names this machine's loopback interface. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Schema for a server id: a short lowercase slug chosen by the user. */
export const ServerIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use 1–64 lowercase letters, digits, "-" or "_", starting with a letter or digit');

/** Schema for an environment value as stored: plain text, or a reference to a secret held in the credential store. */
export const EnvValueSchema = z.union([z.string(), z.object({ secret: z.literal(true) }).strict()]);

/** Schema for an environment value as entered by the user: a secret may carry a new value, or none to keep the stored one. */
export const EnvValueInputSchema = z.union([z.string(), z.object({ secret: z.literal(true), value: z.string().optional() }).strict()]);

const envKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Environment names use letters, digits and "_"');

function stdioShape<V extends z.ZodTypeAny>(value: V) {
  return z
    .object({
      type: z.literal('stdio'),
      command: z.string().trim().min(1, 'A command is required'),
      args: z.array(z.string()).default([]),
      cwd: z.string().min(1).optional(),
      env: z.record(envKey, value).default({}),
      inheritEnv: z.boolean().default(false),
    })
    .strict();
}

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'Not a valid header name');

/**
 * True for header names that carry credentials by convention (X-Api-Key, *-Token, *-Secret, *-Session, …): their
 * values are kept in the credential store like secret env values, whatever the person or an imported file says.
 */
export function isSensitiveHeaderName(name: string): boolean {
  return /key|token|secret|passw|cookie|session|credential|signature|auth/i.test(name);
}

/** Schema for a header value as stored: plain text, or a reference to a secret held in the credential store. */
export const HeaderValueSchema = z.union([z.string(), z.object({ secret: z.literal(true) }).strict()]);

/** Schema for a header value as entered: a secret may carry a new value, or none to keep the stored one. */
export const HeaderValueInputSchema = z.union([z.string(), z.object({ secret: z.literal(true), value: z.string().optional() }).strict()]);

function headersShape<V extends z.ZodTypeAny>(value: V) {
  return z.record(headerName, value).superRefine((headers, ctx) => {
    for (const [name, raw] of Object.entries(headers as Record<string, string | { secret: true; value?: string }>)) {
      if (FORBIDDEN_HEADERS.includes(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: [name], message: `The ${name} header is set by Switchboard and cannot be overridden` });
      }
      const value = typeof raw === 'string' ? raw : raw.value;
      if (value !== undefined && /[\r\n\0]/.test(value)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `The ${name} header contains a line break or NUL` });
      }
    }
  });
}

/** Schema for custom HTTP headers as sent (all values resolved): no CR/LF, none of the headers the app owns. */
export const HeadersSchema = headersShape(z.string());
/** Schema for custom HTTP headers as stored: secret values are references to the credential store. */
export const StoredHeadersSchema = headersShape(HeaderValueSchema);
/** Schema for custom HTTP headers as entered: secret values may carry their value. */
export const HeadersInputSchema = headersShape(HeaderValueInputSchema);

function remoteShape<T extends 'http' | 'sse', H extends z.ZodTypeAny>(type: T, headers: H) {
  return z
    .object({
      type: z.literal(type),
      url: z.string().min(1, 'A URL is required'),
      headers: headers.default({} as never),
      allowInsecureHttp: z.boolean().default(false),
    })
    .strict()
    .superRefine((t, ctx) => {
      const problem = checkServerUrl(t.url, t.allowInsecureHttp);
      if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    });
}

/** Returns why a server URL is refused, or null when it is acceptable. */
export function checkServerUrl(raw: string, allowInsecureHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs are allowed';
  if (url.username || url.password) return 'URLs with a user name or password are not allowed';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return 'Plain http is only allowed for 127.0.0.1/localhost (turn on "allow insecure http" to override)';
  }
  return null;
}

/** Schema for a stdio transport as stored. */
export const StdioTransportSchema = stdioShape(EnvValueSchema);
/** Schema for a Streamable HTTP transport. */
export const HttpTransportSchema = remoteShape('http', StoredHeadersSchema);
/** Schema for a legacy HTTP+SSE transport. */
export const SseTransportSchema = remoteShape('sse', StoredHeadersSchema);
/** Schema for any transport as stored. */
export const TransportSchema = z.discriminatedUnion('type', [StdioTransportSchema, HttpTransportSchema, SseTransportSchema]);
/** Schema for any transport as entered (secret env values may carry a value). */
export const TransportInputSchema = z.discriminatedUnion('type', [
  stdioShape(EnvValueInputSchema),
  remoteShape('http', HeadersInputSchema),
  remoteShape('sse', HeadersInputSchema),
]);

const secs = (def: number, max: number) => z.number().positive().max(max).default(def);
const bytes = (def: number) =>
  z
    .number()
    .int()
    .positive()
    .max(1024 * 1024 * 1024)
    .default(def);

/** Schema for per-server timeouts in seconds (seed 000 McpTimeouts). */
export const TimeoutsSchema = z
  .object({
    setupSecs: secs(90, 3600),
    connectSecs: secs(45, 3600),
    probeSecs: secs(10, 600),
    listSecs: secs(30, 3600),
    requestSecs: secs(180, 86400),
    callSecs: secs(600, 86400),
    elicitationSecs: secs(300, 86400),
    taskMaxWaitSecs: secs(300, 86400),
  })
  .strict();

/** Schema for per-server byte and count budgets (seed 000 McpLimits). */
export const LimitsSchema = z
  .object({
    catalogPages: z.number().int().positive().max(100000).default(100),
    catalogItems: z.number().int().positive().max(1000000).default(2048),
    cursorBytes: bytes(64 * 1024),
    schemaBytes: bytes(64 * 1024),
    descriptionBytes: bytes(8 * 1024),
    titleBytes: bytes(8 * 1024),
    serverMetadataBytes: bytes(32 * 1024),
    messageBytes: bytes(8 * 1024 * 1024),
    resultTextBytes: bytes(32 * 1024),
    mediaBytes: bytes(5 * 1024 * 1024),
    mediaBlocks: z.number().int().min(0).max(1000).default(8),
    resourceBytes: bytes(16 * 1024 * 1024),
  })
  .strict();

/** Schema for per-server tool allow and deny lists (exact original MCP tool names). */
export const ToolFilterSchema = z.object({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).default([]) }).strict();

function serverShape<T extends z.ZodTypeAny>(transport: T) {
  return z
    .object({
      id: ServerIdSchema,
      name: z.string().trim().min(1, 'A name is required').max(200),
      enabled: z.boolean().default(true),
      transport,
      lifecycle: z.enum(['auto', 'discover', 'initialize']).default('auto'),
      startup: z.enum(['eager', 'background', 'manual']).default('eager'),
      required: z.boolean().default(false),
      timeouts: TimeoutsSchema.default(TimeoutsSchema.parse({})),
      limits: LimitsSchema.default(LimitsSchema.parse({})),
      concurrency: z.enum(['serial', 'readOnlyParallel', 'parallel']).default('serial'),
      tools: ToolFilterSchema.default({ deny: [] }),
      elicitation: z.boolean().default(false),
      resources: z.boolean().default(true),
      tasks: z.boolean().default(false),
      /** Answer the server's sampling requests by hand (advertised on 2025-11-25 sessions only when on). */
      sampling: z.boolean().default(false),
      /** Share folders with the server through roots/list (advertised only when on). */
      roots: z.boolean().default(false),
    })
    .strict();
}

/** Schema for a server definition as stored in the settings file. */
export const ServerConfigSchema = serverShape(TransportSchema);
/** Schema for a server definition as entered by the user or an import. */
export const ServerConfigInputSchema = serverShape(TransportInputSchema);

/** A server definition as stored: secret env values are references only. */
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
/** A server definition as entered: secret env values may carry their value on the way in. */
export type ServerConfigInput = z.input<typeof ServerConfigInputSchema>;
/** Any transport as stored. */
export type TransportConfig = z.infer<typeof TransportSchema>;
/** The stdio transport as stored. */
export type StdioTransportConfig = z.infer<typeof StdioTransportSchema>;
/** Per-server timeouts in seconds. */
export type Timeouts = z.infer<typeof TimeoutsSchema>;
/** Per-server budgets. */
export type Limits = z.infer<typeof LimitsSchema>;
/** The three transport kinds. */
export type TransportKind = TransportConfig['type'];

/** Schema for one environment variable of an approved launch: whether it was secret, and a digest of its value. */
export const ApprovedEnvSchema = z.object({ secret: z.boolean(), digest: z.string().max(128) }).strict();

/** Schema for the launch a user approved, kept to show what changed since (values only as digests). */
export const ApprovedLaunchSchema = z
  .object({
    command: z.string(),
    args: z.array(z.string()),
    cwd: z.string().optional(),
    inheritEnv: z.boolean(),
    env: z.record(z.string(), ApprovedEnvSchema),
  })
  .strict();

/** Schema for a stored launch approval: its fingerprint, the launch approved and when. */
export const ApprovalRecordSchema = z
  .object({ fingerprint: z.string().max(200), launch: ApprovedLaunchSchema, approvedAt: z.number() })
  .strict();

/** A launch as approved (env values as digests: keyed for secrets). */
export type ApprovedLaunch = z.infer<typeof ApprovedLaunchSchema>;
/** A stored launch approval. */
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>;

/** Schema for the tracing settings: the OTLP/HTTP collector traces are sent to (absent: tracing off). */
export const TelemetrySettingsSchema = z
  .object({
    otlpEndpoint: z.string().url().max(2048).optional(),
    /** False: the endpoint is kept but nothing is sent; absent or true: traces go to the endpoint when one is set. */
    enabled: z.boolean().optional(),
  })
  .strict();

/** The tracing settings. */
export type TelemetrySettings = z.infer<typeof TelemetrySettingsSchema>;

/** Current version of the settings file's schema. */
export const SETTINGS_SCHEMA_VERSION = 1;

/** Schema for the whole settings file. */
export const SettingsSchema = z
  .object({
    schemaVersion: z.literal(SETTINGS_SCHEMA_VERSION),
    servers: z.array(ServerConfigSchema).default([]),
    /**
     * Approved stdio launches, by server id: a record, or a bare fingerprint (a "v2:" one covers env values; an older
     * one, which covered env names only, is no longer honoured and the launch is asked for again).
     */
    approvals: z.record(z.string(), z.union([z.string().max(200), ApprovalRecordSchema])).default({}),
    /** Whether the first-run demo offer was dismissed. */
    demoOffered: z.boolean().default(false),
    /** OpenTelemetry traces: off unless an OTLP/HTTP endpoint is set. */
    telemetry: TelemetrySettingsSchema.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.servers.forEach((srv, i) => {
      if (seen.has(srv.id)) ctx.addIssue({ code: 'custom', path: ['servers', i, 'id'], message: `Duplicate server id ${srv.id}` });
      seen.add(srv.id);
    });
  });

/** The whole settings file after validation. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Settings used when there is no file or the file had to be moved aside. */
export function defaultSettings(): Settings {
  return SettingsSchema.parse({ schemaVersion: SETTINGS_SCHEMA_VERSION });
}
