import { useStore } from '../store';
import { selectNotices } from '../store/app-slice';

/** App notices (corrupt settings moved aside, memory-only credentials, ...). */
export function Notices() {
  const notices = useStore(selectNotices);
  const dismiss = useStore((s) => s.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="region" aria-label="Notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <span>{n.message}</span>
          <button type="button" className="link" aria-label={`Dismiss notice: ${n.message}`} onClick={() => void dismiss(n.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
