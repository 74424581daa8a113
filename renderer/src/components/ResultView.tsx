// Shows a call's bounded presentation: text, structured data, checked media, links, embedded resources,
// notices; errors look like errors; the full envelope is fetched only on demand.
import { useState } from 'react';
import type { CallOutcome, Presentation } from '../../../shared/domains/calls';
import { AppError } from '../../../shared/errors';
import { AppView } from '../apps/AppView';
import { saveFile } from '../lib/save-file';
import { callsService } from '../services/calls';

const FULL_VIEW_CHARS = 1024 * 1024;

/** The presentation body (also used by the history view). */
export function PresentationView({ p }: { p: Presentation }) {
  return (
    <div className={p.isError ? 'presentation presentation-error' : 'presentation'} data-testid="presentation">
      {p.isError && <strong className="error-text">The tool reported an error</strong>}
      {p.text && (
        <pre className="instructions" data-testid="result-text">
          {p.text}
        </pre>
      )}
      {p.structured !== undefined && (
        <details open>
          <summary>Structured content{p.structuredTruncated ? ' (shortened)' : ''}</summary>
          <pre className="instructions" data-testid="result-structured">
            {p.structured}
          </pre>
        </details>
      )}
      {p.media.map((m, i) =>
        m.data === '' ? (
          <p key={i} className="hint">
            {m.kind} ({m.mimeType}, {m.bytes} bytes) not kept in the history
          </p>
        ) : m.kind === 'image' ? (
          <img
            key={i}
            alt={`Image ${i + 1} from the tool`}
            src={`data:${m.mimeType};base64,${m.data}`}
            style={{ maxWidth: '100%', imageRendering: 'auto' }}
          />
        ) : (
          <audio key={i} controls aria-label={`Audio ${i + 1} from the tool`} src={`data:${m.mimeType};base64,${m.data}`} />
        ),
      )}
      {p.links.length > 0 && (
        <div>
          <strong>Resource links</strong>
          <ul aria-label="Resource links">
            {p.links.map((l, i) => (
              <li key={i}>
                <code>{l.uri}</code>
                {l.name ? ` — ${l.name}` : ''}
                {l.mimeType ? ` (${l.mimeType})` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      {p.resources.length > 0 && (
        <div>
          <strong>Embedded resources</strong>
          <ul aria-label="Embedded resources">
            {p.resources.map((r, i) => (
              <li key={i}>
                <code>{r.uri}</code>
                {r.mimeType ? ` (${r.mimeType})` : ''}
                {r.text !== undefined && <pre className="instructions">{r.text}</pre>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {p.notices.length > 0 && (
        <ul className="hint" aria-label="Result notices">
          {p.notices.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A finished call: status, error, its MCP App when the tool has one, presentation and the full result on demand. */
export function ResultView({ outcome, hasApp = false }: { outcome: CallOutcome; hasApp?: boolean }) {
  const [full, setFull] = useState<string | null>(null);
  const [fullError, setFullError] = useState<string | null>(null);
  const [signIn, setSignIn] = useState<string | null>(null);

  const openFull = async (save: boolean): Promise<void> => {
    try {
      const env = await callsService.result(outcome.callId);
      const text = JSON.stringify(env, null, 2);
      if (save) saveFile(`tool-result-${outcome.callId}.json`, text);
      else
        setFull(
          text.length > FULL_VIEW_CHARS
            ? `${text.slice(0, FULL_VIEW_CHARS)}\n… (${text.length} characters; save the file to see everything)`
            : text,
        );
    } catch (err) {
      setFullError(err instanceof AppError ? err.message : 'The full result could not be loaded');
    }
  };

  const startSignIn = async (): Promise<void> => {
    if (!outcome.serverId) return;
    try {
      const status = await callsService.signIn(outcome.serverId);
      setSignIn(
        JSON.stringify(status).includes('http') ? 'Sign-in started: finish it in your browser, then call again.' : 'Sign-in started.',
      );
    } catch (err) {
      setSignIn(err instanceof AppError ? err.message : 'Sign-in could not start');
    }
  };

  const label = { ok: 'Succeeded', error: 'Failed', cancelled: 'Cancelled', timeout: 'Timed out' }[outcome.status];
  return (
    <section className="result" aria-label="Call result">
      <div className="row">
        <strong data-testid="call-status">{label}</strong>
        <span className="hint">{outcome.durationMs} ms</span>
        {outcome.resultBytes !== undefined && <span className="hint">{outcome.resultBytes} bytes received</span>}
      </div>
      {outcome.error && outcome.status !== 'ok' && (
        <p className="error-text" role="alert">
          {outcome.error.message}
        </p>
      )}
      {outcome.error?.code === 'authorization_required' && (
        <div className="row">
          <button type="button" onClick={() => void startSignIn()}>
            Sign in
          </button>
          {signIn && <span className="hint">{signIn}</span>}
        </div>
      )}
      {hasApp && <AppView key={outcome.callId} callId={outcome.callId} />}
      <PresentationView p={outcome.presentation} />
      <div className="row actions">
        <button type="button" onClick={() => void openFull(false)}>
          Open full result
        </button>
        <button type="button" onClick={() => void openFull(true)}>
          Save full result
        </button>
      </div>
      {fullError && <p className="error-text">{fullError}</p>}
      {full !== null && (
        <pre className="log" data-testid="full-result">
          {full}
        </pre>
      )}
    </section>
  );
}
