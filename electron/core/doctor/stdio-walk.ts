// The doctor walk for a stdio server: command resolved (the PATH the child gets, PATHEXT on Windows) → executable →
// spawned → first bytes on stdout are JSON-RPC (non-JSON noise named) → handshake → tools listed. The process is
// spawned only for an approved launch (the walk request carrying the fingerprint of the argv the person was shown
// is the approval of that one trial run), and it is released, with its whole process group, when the walk ends.
import type { Implementation, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { DoctorWalk, StdioStepId, TrialLaunch } from '../../../shared/domains/doctor.js';
import { AppError } from '../../../shared/errors.js';
import { shownLaunchFingerprint } from '../servers/approval.js';
import { establish, type Established } from '../sessions/lifecycle.js';
import { buildChildEnv } from '../transports/child-env.js';
import { openStdioTransport } from '../transports/stdio-transport.js';
import type { OpenedTransport } from '../transports/transport-factory.js';
import { isPathLike, lookupCommand } from './command-lookup.js';
import { fact, negotiatedOutcome, WalkRecorder } from './walk-steps.js';

/** What the stdio walk needs. */
export interface StdioWalkInput {
  /** The definition (stdio). */
  config: ServerConfig;
  /** Environment values, secrets resolved (missing secrets simply absent). */
  env: Record<string, string>;
  /** Env names whose secret has no value (for the evidence). */
  missingSecrets: string[];
  /** The login-shell PATH. */
  loginPath?: string;
  /** Whether this exact launch may be spawned once. */
  approved: boolean;
  /** Client identity. */
  clientInfo: Implementation;
  /** The definition as launched (a server without a cwd runs in its own folder); the approval covers the shown one. */
  launchConfig?: (config: ServerConfig) => Promise<ServerConfig>;
  /** Where the process would run (its own cwd, else its folder in the data folder), shown before the trial run. */
  workDir?: (config: ServerConfig) => string | undefined;
}

/** The launch shown to the person before a trial run. */
export function trialLaunch(config: ServerConfig): TrialLaunch {
  const t = config.transport;
  if (t.type !== 'stdio') throw new AppError('internal', 'trialLaunch needs a stdio server');
  return {
    command: t.command,
    args: [...t.args],
    ...(t.cwd !== undefined ? { cwd: t.cwd } : {}),
    envKeys: Object.keys(t.env).sort(),
    fingerprint: shownLaunchFingerprint(t),
  };
}

/** What the spawned process did, watched through the transport. */
interface Observed {
  pid?: number;
  /** When the process was running (ms since epoch). */
  spawnedAt?: number;
  /** When the first stdout line (message or noise) arrived. */
  firstAt?: number;
  spawnError?: AppError;
  first?: { kind: 'message'; method?: string } | { kind: 'noise'; text: string };
  stderr: string[];
}

/** Walks a stdio server. */
export async function walkStdio(input: StdioWalkInput): Promise<DoctorWalk> {
  const { config } = input;
  const t = config.transport;
  if (t.type !== 'stdio') throw new AppError('internal', 'walkStdio needs a stdio server');
  const walk = new WalkRecorder<StdioStepId>('stdio');
  const childEnv = buildChildEnv({ configured: input.env, inheritEnv: t.inheritEnv, loginPath: input.loginPath });
  const pathEnv = childEnv['PATH'] ?? childEnv['Path'] ?? '';
  const lookup = await lookupCommand(t.command, { pathEnv, ...(t.cwd !== undefined ? { cwd: t.cwd } : {}) });

  await walk.step('command', 'Command found', async () => {
    if (lookup.path === undefined) {
      const where = isPathLike(t.command) ? `${t.command} does not exist` : `${t.command} was not found on the PATH the server gets`;
      return {
        status: 'failed',
        summary: where,
        evidence: [['Searched', lookup.searched.join(process.platform === 'win32' ? ';' : ':') || undefined]],
        advice: isPathLike(t.command)
          ? 'Check the path to the program.'
          : `Install ${t.command} (for npx: Node.js; for uvx: uv; for docker: Docker), or give the program’s full path. Switchboard uses your login shell’s PATH.`,
      };
    }
    return {
      summary: isPathLike(t.command) ? `Found ${lookup.path}` : `${t.command} is ${lookup.path}`,
      evidence: [
        ['Resolved to', lookup.path],
        ['PATH directories searched', lookup.searched.length || undefined],
      ],
    };
  });

  await walk.step('executable', 'Executable', async () => {
    if (!lookup.executable) {
      return {
        status: 'failed',
        summary: `${lookup.path ?? t.command} cannot be run: ${lookup.problem ?? 'it is not executable'}`,
        evidence: [['File', lookup.path]],
        advice: lookup.problem?.includes('directory')
          ? 'Point the command at the program inside that folder.'
          : `Make it executable (chmod +x ${lookup.path ?? t.command}), or run it through its interpreter (for example node or python with the file as the first argument).`,
      };
    }
    return { summary: `${lookup.path} can be executed` };
  });

  if (walk.blocked) {
    for (const [id, title] of [
      ['spawn', 'Started'],
      ['stdout', 'First output is JSON-RPC'],
      ['handshake', 'Handshake'],
      ['tools', 'Tools listed'],
    ] as const)
      walk.skip(id, title, 'Not run: the command cannot be started');
    return walk.result();
  }

  if (!input.approved) {
    const trial = trialLaunch(config);
    walk.setTrial(trial);
    await walk.step('spawn', 'Started', async () => ({
      status: 'needs-approval',
      summary: 'Testing runs this exact command once; approve it to continue',
      evidence: [
        ['Command', trial.command],
        ['Arguments', JSON.stringify(trial.args)],
        ['Working directory', trial.cwd ?? input.workDir?.(config)],
        ['Environment names', trial.envKeys.join(', ') || undefined],
      ],
      advice: 'Check the command and its arguments, then approve this one test run. Nothing has been started.',
    }));
    for (const [id, title] of [
      ['stdout', 'First output is JSON-RPC'],
      ['handshake', 'Handshake'],
      ['tools', 'Tools listed'],
    ] as const)
      walk.skip(id, title, 'Waits for the test run to be approved');
    return walk.result();
  }

  const observed: Observed = { stderr: [] };
  const startedAt = Date.now();
  const opened: OpenedTransport[] = [];
  let established: Established | undefined;
  let failure: AppError | undefined;
  try {
    const launched = input.launchConfig !== undefined ? await input.launchConfig(config) : config;
    established = await establish({
      config: {
        ...launched,
        timeouts: {
          ...config.timeouts,
          setupSecs: Math.min(config.timeouts.setupSecs, 60),
          connectSecs: Math.min(config.timeouts.connectSecs, 45),
        },
      },
      env: input.env,
      ...(input.loginPath !== undefined ? { loginPath: input.loginPath } : {}),
      factory: (ctx) => {
        const o = openStdioTransport(ctx);
        opened.push(o);
        watch(o, observed, opened.length === 1);
        return o;
      },
      log: (source, _level, text) => {
        if (source === 'stderr' && observed.stderr.length < 20) observed.stderr.push(text);
        if (source === 'stdout' && observed.first === undefined) {
          observed.first = { kind: 'noise', text: text.replace(/^Skipped a stdout line that is not a JSON-RPC message: /, '') };
          observed.firstAt = Date.now();
        }
      },
      clientInfo: input.clientInfo,
      signal: new AbortController().signal,
    });
  } catch (err) {
    failure = err instanceof AppError ? err : new AppError('connect_failed', (err as Error).message);
  }
  const endedAt = Date.now();
  const spawnedAt = observed.spawnedAt ?? startedAt;

  try {
    await walk.step('spawn', 'Started', async () => {
      if (observed.spawnError !== undefined || observed.pid === undefined) {
        const error = observed.spawnError ?? failure;
        return {
          status: 'failed',
          summary: error?.message ?? 'The process did not start',
          evidence: [['Searched', error?.evidence?.searchedPath?.join(':')]],
          advice: 'Check the command, the working directory and the permissions of the program.',
        };
      }
      return {
        elapsedMs: spawnedAt - startedAt,
        summary: `Running as process ${observed.pid}`,
        evidence: [
          ['Process id', observed.pid],
          ['Secrets without a value', input.missingSecrets.join(', ') || undefined],
        ],
      };
    });

    await walk.step(
      'stdout',
      'First output is JSON-RPC',
      async () => {
        const first = observed.first;
        if (first === undefined) return { status: 'warning', summary: 'Nothing was written to stdout' };
        const elapsedMs = (observed.firstAt ?? endedAt) - spawnedAt;
        if (first.kind === 'noise') {
          return {
            elapsedMs,
            status: 'failed',
            summary: `The server wrote text that is not JSON-RPC to stdout: "${fact(first.text, 200)}"`,
            evidence: [['First line', first.text]],
            advice:
              'stdout is reserved for MCP messages: the server must write its logs and banners to stderr. Switchboard skips such lines, but other clients fail on them.',
          };
        }
        return {
          elapsedMs,
          summary: 'The first line on stdout is a JSON-RPC message',
          evidence: [['First message', first.method ?? 'a response']],
        };
      },
      { blocks: false },
    );

    await walk.step('handshake', 'Handshake', async () => {
      if (established === undefined) {
        const error = failure ?? new AppError('connect_failed', 'The handshake did not complete');
        const tail = error.evidence?.stderrTail?.filter((l) => l.trim() !== '') ?? observed.stderr;
        return {
          elapsedMs: endedAt - spawnedAt,
          status: 'failed',
          summary: error.message,
          evidence: [
            ['Exit code', error.evidence?.exitCode ?? undefined],
            ['Signal', error.evidence?.signal ?? undefined],
            [
              'Timeout',
              error.evidence?.timeout !== undefined ? `${error.evidence.timeout.name} (${error.evidence.timeout.seconds} s)` : undefined,
            ],
            ['Last stderr', tail.slice(-10).join('\n') || undefined],
          ],
          advice:
            error.code === 'process_exited'
              ? 'The server stopped before the handshake. Its stderr (above) usually says why: a missing setting, argument or dependency.'
              : error.code === 'timeout'
                ? 'The server started but did not answer the handshake: is it an MCP server speaking stdio? Check its arguments.'
                : 'Check the server’s stderr and arguments.',
        };
      }
      return { ...negotiatedOutcome(established), elapsedMs: endedAt - spawnedAt };
    });

    await walk.step('tools', 'Tools listed', async () => {
      const live = established!;
      if (live.client.getServerCapabilities()?.tools === undefined) return { status: 'warning', summary: 'The server offers no tools' };
      const listed = await live.client.listTools();
      return {
        summary: `${listed.tools.length} tool(s)`,
        evidence: [
          [
            'Tools',
            listed.tools
              .slice(0, 10)
              .map((x) => x.name)
              .join(', ') || '(none)',
          ],
        ],
      };
    });
  } finally {
    const live = established as Established | undefined;
    await live?.client.close().catch(() => undefined);
    await Promise.all(opened.map((o) => o.release().catch(() => undefined)));
  }
  return walk.result();
}

/** Watches a transport: its spawn, and (for the first one) which came first on stdout. */
function watch(o: OpenedTransport, observed: Observed, first: boolean): void {
  const transport = o.transport as OpenedTransport['transport'] & { pid?: number | null };
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
      if (transport.pid !== null && transport.pid !== undefined) observed.pid ??= transport.pid;
      observed.spawnedAt ??= Date.now();
    } catch (err) {
      if (err instanceof AppError && (err.code === 'command_not_found' || err.code === 'spawn_failed')) observed.spawnError ??= err;
      throw err;
    }
  };
  if (!first) return;
  let handler: ((message: JSONRPCMessage) => void) | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (fn: ((message: JSONRPCMessage) => void) | undefined) => {
      handler =
        fn === undefined
          ? undefined
          : (message: JSONRPCMessage) => {
              if (observed.first === undefined) {
                observed.first = { kind: 'message', ...('method' in message ? { method: message.method } : {}) };
                observed.firstAt = Date.now();
              }
              fn(message);
            };
    },
  });
}
