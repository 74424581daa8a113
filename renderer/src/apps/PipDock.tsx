// The picture-in-picture dock: the one app shown picture-in-picture, in a small frame at the bottom right of every
// view, with its controls to return inline and to close.
import { AppView } from './AppView';
import { usePip } from './pip-store';

/** Shows the picture-in-picture app, if there is one. */
export function PipDock() {
  const app = usePip((s) => s.pip);
  if (!app) return null;
  return (
    <div className="sb-pip-dock">
      <AppView key={app.launch.launchId} callId={app.callId} pip />
    </div>
  );
}
