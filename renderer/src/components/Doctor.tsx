import type { AppErrorData } from '../../../shared/errors';

/** The connection doctor: the failure in plain words with its evidence. */
export function Doctor(props: { error: AppErrorData }) {
  const { error } = props;
  const ev = error.evidence;
  return (
    <section className="doctor" role="alert" aria-label="Connection problem">
      <p>
        <strong>{error.message}</strong> <span className="code">({error.code})</span>
      </p>
      {ev && (
        <dl>
          {ev.phase && (
            <>
              <dt>Phase</dt>
              <dd>{ev.phase}</dd>
            </>
          )}
          {ev.timeout && (
            <>
              <dt>Timeout</dt>
              <dd>
                {ev.timeout.name} ({ev.timeout.seconds} s)
              </dd>
            </>
          )}
          {ev.exitCode !== undefined && ev.exitCode !== null && (
            <>
              <dt>Exit code</dt>
              <dd>{ev.exitCode}</dd>
            </>
          )}
          {ev.signal && (
            <>
              <dt>Signal</dt>
              <dd>{ev.signal}</dd>
            </>
          )}
          {ev.httpStatus !== undefined && (
            <>
              <dt>HTTP status</dt>
              <dd>{ev.httpStatus}</dd>
            </>
          )}
          {ev.url && (
            <>
              <dt>URL</dt>
              <dd className="mono">{ev.url}</dd>
            </>
          )}
          {ev.searchedPath && (
            <>
              <dt>PATH searched</dt>
              <dd className="mono">{ev.searchedPath.join(':')}</dd>
            </>
          )}
          {ev.stderrTail && ev.stderrTail.length > 0 && (
            <>
              <dt>Last stderr lines</dt>
              <dd>
                <pre className="mono">{ev.stderrTail.join('\n')}</pre>
              </dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
