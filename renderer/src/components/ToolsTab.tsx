/** Tools of one server (built by the catalog/calls work). */
export function ToolsTab(_props: { serverId: string }) {
  return (
    <section aria-label="Tools">
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
