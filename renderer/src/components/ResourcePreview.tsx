// Shows read resource parts safely: text views are text, HTML and SVG are source, images only after the
// core's magic-byte and size checks, other blobs as size + MIME with a Save button.
import { useState } from 'react';
import type { ResourcePart } from '../../../shared/domains/resources';
import { Markdown } from './Markdown';
import { saveFile } from '../lib/save-file';

function size(n: number | undefined): string {
  if (n === undefined) return 'unknown size';
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

function save(part: ResourcePart): void {
  const bytes = Uint8Array.from(atob(part.blobData ?? part.imageData ?? ''), (c) => c.charCodeAt(0));
  const name = (part.uri.split(/[/?#]/).filter(Boolean).pop() ?? 'resource').replace(/[^\w.-]/g, '_');
  saveFile(name, bytes, 'application/octet-stream');
}

function Part(props: { part: ResourcePart }) {
  const p = props.part;
  const [raw, setRaw] = useState(false);
  const label = {
    text: 'Text',
    json: 'JSON',
    markdown: 'Markdown',
    html: 'HTML source',
    svg: 'SVG source',
    image: 'Image',
    blob: 'Binary',
  }[p.kind];
  return (
    <article className="part" aria-label={`${label}: ${p.uri}`}>
      <div className="part-head">
        <span className="badge">{label}</span>
        <span className="part-uri">{p.uri}</span>
        {p.mimeType && <span className="badge">{p.mimeType}</span>}
        {p.kind === 'markdown' && (
          <button type="button" onClick={() => setRaw(!raw)}>
            {raw ? 'Formatted' : 'Source'}
          </button>
        )}
      </div>
      {(p.kind === 'html' || p.kind === 'svg') && <p className="hint">Shown as source: markup from a server is never rendered or run.</p>}
      {p.kind === 'markdown' && !raw && <Markdown text={p.text ?? ''} />}
      {(p.kind === 'text' || p.kind === 'json' || p.kind === 'html' || p.kind === 'svg' || (p.kind === 'markdown' && raw)) && (
        <pre className="source" data-testid="resource-text">
          {p.text}
        </pre>
      )}
      {p.kind === 'image' && p.imageData && p.imageMime && (
        <figure>
          <img className="preview-image" alt={`Image ${p.uri}`} src={`data:${p.imageMime};base64,${p.imageData}`} />
          <figcaption className="hint">
            {p.imageMime}, {p.imageSize ? `${p.imageSize.width}×${p.imageSize.height}, ` : ''}
            {size(p.blobBytes)}
          </figcaption>
        </figure>
      )}
      {p.kind === 'blob' && (
        <div className="blob">
          <div className="image-placeholder" role="img" aria-label="Not shown">
            {p.notice ?? `Binary content, ${size(p.blobBytes)}`}
          </div>
          <div className="row">
            <span>
              {p.mimeType ?? 'unknown type'}, {size(p.blobBytes)}
            </span>
            {p.blobData !== undefined && (
              <button type="button" onClick={() => save(p)}>
                Save to file
              </button>
            )}
          </div>
        </div>
      )}
    </article>
  );
}

/** All parts of one read. */
export function ResourcePreview(props: { parts: ResourcePart[] }) {
  return (
    <div className="parts">
      {props.parts.map((p, i) => (
        <Part key={`${p.uri}-${i}`} part={p} />
      ))}
    </div>
  );
}
