/** Catalog view (built by the catalog work). */
export function CatalogView() {
  return (
    <section className="page" aria-label="Catalog">
      <h1>Catalog</h1>
      <p className="hint">Not available in this build yet.</p>
    </section>
  );
}
