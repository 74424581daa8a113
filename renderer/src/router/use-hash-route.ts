// Keeps the store's route in step with the URL fragment (links, back/forward, a pasted deep link).
import { useEffect } from 'react';
import { useStore } from '../store';
import { parseHash } from './route';

/** Follows `hashchange` for the app's lifetime. */
export function useHashRoute(): void {
  const applyRoute = useStore((s) => s.applyRoute);
  useEffect(() => {
    const onChange = () => applyRoute(parseHash(window.location.hash));
    onChange();
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, [applyRoute]);
}
