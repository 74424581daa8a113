/** Sign-in of one server (built by the auth work). */
export function AuthPanel(_props: { serverId: string }) {
  return (
    <section aria-label="Sign-in">
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
