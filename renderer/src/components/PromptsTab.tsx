/** Prompts of one server (built by the resources work). */
export function PromptsTab(_props: { serverId: string }) {
  return (
    <section aria-label="Prompts">
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
