// A small Markdown renderer that builds React elements only: no HTML is parsed or injected, links are shown
// as text with their address (never followed from here), images are never loaded.
import type { ReactNode } from 'react';

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`)|(!\[([^\]]*)\]\(([^)\s]*)[^)]*\))|(\[([^\]]+)\]\(([^)\s]*)[^)]*\))|(\*\*([^*]+)\*\*)|(\*([^*]+)\*)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}-${i++}`;
    if (m[1]) out.push(<code key={k}>{m[1].slice(1, -1)}</code>);
    else if (m[2]) out.push(<span key={k} className="md-image">{`[image not loaded: ${m[3] || 'untitled'} — ${m[4] ?? ''}]`}</span>);
    else if (m[5])
      out.push(<span key={k} className="md-link" title="Links in resources are not followed">{`${m[6] ?? ''} (${m[7] ?? ''})`}</span>);
    else if (m[8]) out.push(<strong key={k}>{m[9]}</strong>);
    else if (m[10]) out.push(<em key={k}>{m[11]}</em>);
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Renders Markdown text as inert React elements. */
export function Markdown(props: { text: string }) {
  const lines = props.text.split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  let n = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const key = `b${n++}`;
    if (line.startsWith('```')) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').startsWith('```')) body.push(lines[i++] ?? '');
      i++;
      blocks.push(
        <pre key={key} className="source">
          {body.join('\n')}
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, (heading[1] ?? '#').length + 2);
      const Tag = `h${level}` as 'h3';
      blocks.push(<Tag key={key}>{inline(heading[2] ?? '', key)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const items: ReactNode[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i] ?? '')) {
        const t = (lines[i] ?? '').replace(/^\s*([-*+]|\d+\.)\s+/, '');
        items.push(<li key={`${key}-${items.length}`}>{inline(t, `${key}-${items.length}`)}</li>);
        i++;
      }
      blocks.push(<ul key={key}>{items}</ul>);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && (lines[i] ?? '').trim() !== '' && !/^(#{1,6}\s|```|\s*([-*+]|\d+\.)\s)/.test(lines[i] ?? ''))
      para.push(lines[i++] ?? '');
    blocks.push(<p key={key}>{inline(para.join(' '), key)}</p>);
  }
  return <div className="markdown">{blocks}</div>;
}
