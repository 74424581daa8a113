// The numbers of a call's progress as words: "n of N (p %)" when the server gives a total.

const number = (n: number): string => n.toLocaleString('en', { maximumFractionDigits: 2 });

/** "3 of 10 (30 %)" with a positive total, "3" without one, undefined without progress. */
export function progressText(progress: number | undefined, total: number | undefined): string | undefined {
  if (progress === undefined || !Number.isFinite(progress)) return undefined;
  if (total === undefined || !Number.isFinite(total) || total <= 0) return number(progress);
  const pct = Math.max(0, Math.min(100, Math.round((progress / total) * 100)));
  return `${number(progress)} of ${number(total)} (${pct} %)`;
}
