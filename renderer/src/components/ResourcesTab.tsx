/** Resources of one server (built by the resources work). */
export function ResourcesTab(_props: { serverId: string }) {
  return (
    <section aria-label="Resources">
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
