/** Call history view (built by the calls work). */
export function HistoryView() {
  return (
    <section className="page" aria-label="Call history">
      <h1>Call history</h1>
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
