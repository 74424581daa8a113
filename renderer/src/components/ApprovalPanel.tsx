import type { LaunchApproval } from '../../../shared/contract';
import { useStore } from '../store';

/** Shows the exact launch, untruncated, and asks for consent before anything is spawned. */
export function ApprovalPanel(props: { id: string; approval: LaunchApproval }) {
  const approve = useStore((s) => s.approve);
  const a = props.approval;
  return (
    <section className="approval" aria-label="Launch approval">
      <h3>Approve this command before it runs</h3>
      <p>Switchboard will start this program on your computer. Nothing runs until you approve it, and any change needs approval again.</p>
      <dl>
        <dt>Command</dt>
        <dd className="mono" data-testid="approval-command">
          {a.command}
        </dd>
        <dt>Arguments</dt>
        <dd>
          <ol className="mono" aria-label="Arguments">
            {a.args.map((arg, i) => (
              <li key={i}>{arg}</li>
            ))}
          </ol>
        </dd>
        {a.cwd && (
          <>
            <dt>Working directory</dt>
            <dd className="mono">{a.cwd}</dd>
          </>
        )}
        <dt>Environment variables</dt>
        <dd className="mono">
          {a.envKeys.length ? a.envKeys.join(', ') : 'none'}
          {a.inheritEnv ? ' (plus the whole inherited environment)' : ''}
        </dd>
      </dl>
      <button type="button" onClick={() => void approve(props.id, a.fingerprint)}>
        Approve and allow to run
      </button>
    </section>
  );
}
