// The call area of a tool page: the generated form, the Call button, live progress with Cancel, and the result.
import { useStore } from '../store';
import { ResultView } from './ResultView';
import { SchemaForm } from './SchemaForm';

/** What the panel needs to know about the tool. */
export interface CallableTool {
  /** Local name `mcp__<server>__<tool>`. */
  name: string;
  /** The tool's inputSchema. */
  inputSchema: unknown;
  /** The tool has an MCP App: its results are shown in it. */
  hasApp?: boolean;
}

/** Form, progress and result for one tool. */
export function ToolCallPanel({
  tool,
  initialArgs,
  formKey,
}: {
  tool: CallableTool;
  initialArgs?: Record<string, unknown>;
  formKey?: string | number;
}) {
  const state = useStore((s) => s.callsByTool[tool.name]);
  const callTool = useStore((s) => s.callTool);
  const cancelCall = useStore((s) => s.cancelCall);
  const prefetchApp = useStore((s) => s.prefetchApp);
  const running = state?.running;
  const p = running?.progress;
  const pct = p?.progress !== undefined && p.total ? Math.min(100, Math.round((p.progress / p.total) * 100)) : undefined;
  const phase = p?.phase ?? 'queued';

  return (
    <section aria-label="Call tool" className="call-panel">
      <SchemaForm
        key={`${tool.name}:${formKey ?? ''}`}
        inputSchema={tool.inputSchema}
        {...(initialArgs ? { initial: initialArgs } : {})}
        busy={running !== undefined}
        onCall={(args) => {
          // A tool with an app: the core reads the app while the call runs, so it shows as soon as the result is in.
          if (tool.hasApp) prefetchApp(tool.name);
          void callTool(tool.name, args);
        }}
      />
      {running && (
        <div role="status" aria-label="Call progress" className="approval">
          <div className="row">
            <span>
              {phase === 'queued'
                ? 'Waiting for the server…'
                : phase === 'input'
                  ? 'Waiting for your input…'
                  : phase === 'task'
                    ? 'Task running on the server…'
                    : 'Running…'}
            </span>
            <button type="button" onClick={() => void cancelCall(tool.name)} disabled={running.cancelling}>
              {running.cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          </div>
          <progress aria-label="Progress" {...(pct !== undefined ? { value: pct, max: 100 } : {})} />
          {p?.message && (
            <p className="hint" data-testid="progress-message">
              {p.message}
            </p>
          )}
          {p?.task && (
            <p className="hint" data-testid="task-status">
              Task {p.task.id}: {p.task.status}
              {p.task.message ? ` — ${p.task.message}` : ''}
            </p>
          )}
        </div>
      )}
      {state?.error && (
        <p className="error-text" role="alert">
          {state.error}
        </p>
      )}
      {!running && state?.outcome && <ResultView outcome={state.outcome} hasApp={tool.hasApp === true} />}
    </section>
  );
}
