// Prompt page: list a server's prompts, fill arguments (with completion suggestions), render the returned
// messages by role and copy them as text.
import { useEffect, useState } from 'react';
import type { PromptItem, PromptMessageView } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import { resourcesService } from '../services/resources';
import { useStore } from '../store';
import { CompletionInput } from './CompletionInput';
import './resources.css';

function asText(messages: PromptMessageView[]): string {
  return messages
    .map((m) => {
      const body =
        m.text ??
        (m.resource
          ? `[resource ${m.resource.uri}]${m.resource.text ? `\n${m.resource.text}` : ''}`
          : m.image
            ? `[image ${m.image.mimeType}]`
            : (m.notice ?? ''));
      return `${m.role}: ${body}`;
    })
    .join('\n\n');
}

function Message(props: { m: PromptMessageView }) {
  const { m } = props;
  return (
    <article className={`message message-${m.role}`} aria-label={`${m.role} message`}>
      <div className="role">{m.role}</div>
      {m.text !== undefined && <pre className="source">{m.text}</pre>}
      {m.image && <img className="preview-image" alt="Prompt image" src={`data:${m.image.mimeType};base64,${m.image.data}`} />}
      {m.resource && (
        <div>
          <div className="part-uri">
            {m.resource.link ? 'Resource link (not fetched): ' : 'Embedded resource: '}
            {m.resource.uri}
          </div>
          {m.resource.text !== undefined && <pre className="source">{m.resource.text}</pre>}
        </div>
      )}
      {m.notice && <div className="image-placeholder">{m.notice}</div>}
    </article>
  );
}

/** Prompts of one server. */
export function PromptsTab(props: { serverId: string }) {
  const id = props.serverId;
  const [prompts, setPrompts] = useState<PromptItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<PromptItem | undefined>();
  const [args, setArgs] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ description?: string; messages: PromptMessageView[] } | undefined>();
  const [copied, setCopied] = useState(false);
  const version = useStore((s) => s.promptListVersion[id] ?? 0);

  useEffect(() => {
    resourcesService
      .prompts(id)
      .then((r) => {
        setPrompts(r.prompts);
        setError(null);
      })
      .catch((err: unknown) => setError(err instanceof AppError ? err.message : 'Could not list prompts'));
  }, [id, version]);

  const run = async () => {
    if (!chosen) return;
    setError(null);
    setCopied(false);
    const filled = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== ''));
    try {
      setResult(await resourcesService.getPrompt(id, chosen.name, filled));
    } catch (err) {
      setResult(undefined);
      setError(err instanceof AppError ? err.message : 'The prompt failed');
    }
  };

  return (
    <section aria-label="Prompts" className="prompts">
      <div className="resources-side">
        <h3>Prompts</h3>
        {prompts.length === 0 && !error && <p className="hint">No prompts listed.</p>}
        <ul className="plain-list" aria-label="Prompt list">
          {prompts.map((p) => (
            <li key={p.name}>
              <button
                type="button"
                className="link-button"
                aria-pressed={chosen?.name === p.name}
                onClick={() => {
                  setChosen(p);
                  setArgs({});
                  setResult(undefined);
                }}
              >
                {p.title ?? p.name}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="resources-preview">
        {error && (
          <div className="error-text" role="alert">
            {error}
          </div>
        )}
        {chosen && (
          <form
            aria-label={`Prompt ${chosen.name}`}
            onSubmit={(e) => {
              e.preventDefault();
              void run();
            }}
          >
            <h3>{chosen.title ?? chosen.name}</h3>
            {chosen.description && <p className="untrusted">{chosen.description}</p>}
            {chosen.arguments.map((a) => (
              <CompletionInput
                key={a.name}
                serverId={id}
                completionRef={{ type: 'ref/prompt', name: chosen.name }}
                name={a.name}
                label={a.name}
                required={a.required}
                {...(a.description !== undefined ? { description: a.description } : {})}
                value={args[a.name] ?? ''}
                context={args}
                onChange={(v) => setArgs({ ...args, [a.name]: v })}
              />
            ))}
            <button type="submit">Run prompt</button>
          </form>
        )}
        {result && (
          <div className="result" role="region" aria-label="Prompt messages">
            {result.description && <p className="untrusted">{result.description}</p>}
            <div className="row">
              <button
                type="button"
                onClick={() =>
                  void navigator.clipboard
                    .writeText(asText(result.messages))
                    .then(() => setCopied(true))
                    .catch(() => setCopied(false))
                }
              >
                Copy as text
              </button>
              {copied && <span role="status">Copied</span>}
            </div>
            <div className="messages">
              {result.messages.map((m, i) => (
                <Message key={i} m={m} />
              ))}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
