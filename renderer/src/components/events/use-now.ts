// A clock that re-renders its component every `ms` (relative times: "retrying in 8 s", "advanced 2 min ago").
import { useEffect, useState } from 'react';

/** The current time, refreshed every `ms`. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
