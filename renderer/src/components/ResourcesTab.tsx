// Resource browser: a virtualized list of a server's resources (paged), templates with a variables form, and a
// preview pane that refreshes and marks itself when a subscribed resource changes.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResourceItem, ResourceReadResult, ResourceTemplateItem } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import { resourcesService } from '../services/resources';
import { useStore } from '../store';
import { selectResourceUpdates } from '../store/resources-slice';
import { CompletionInput } from './CompletionInput';
import { ResourcePreview } from './ResourcePreview';
import './resources.css';

function message(err: unknown): string {
  return err instanceof AppError ? err.message : 'Something went wrong';
}

type Target = { kind: 'uri'; uri: string } | { kind: 'template'; template: ResourceTemplateItem; variables: Record<string, string> };

function ResourceList(props: { items: ResourceItem[]; selected: string | undefined; onSelect: (uri: string) => void }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: props.items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 44,
    overscan: 8,
  });
  return (
    <div ref={parent} className="resource-list" role="listbox" aria-label="Resources">
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((row) => {
          const r = props.items[row.index];
          if (!r) return null;
          return (
            <div
              key={r.uri}
              role="option"
              aria-selected={props.selected === r.uri}
              className={props.selected === r.uri ? 'resource-row selected' : 'resource-row'}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)`, height: row.size }}
              tabIndex={0}
              onClick={() => props.onSelect(r.uri)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') props.onSelect(r.uri);
              }}
            >
              <div className="resource-name">{r.title ?? r.name}</div>
              <div className="resource-uri">{r.uri}</div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function TemplateForm(props: { serverId: string; template: ResourceTemplateItem; onRead: (variables: Record<string, string>) => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      className="template-form"
      aria-label={`Template ${props.template.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onRead(values);
      }}
    >
      <div className="hint">{props.template.uriTemplate}</div>
      {props.template.description && <p className="untrusted">{props.template.description}</p>}
      {props.template.variables.map((v) => (
        <CompletionInput
          key={v}
          serverId={props.serverId}
          completionRef={{ type: 'ref/resource', uri: props.template.uriTemplate }}
          name={v}
          label={v}
          value={values[v] ?? ''}
          context={values}
          onChange={(x) => setValues({ ...values, [v]: x })}
        />
      ))}
      <button type="submit">Read</button>
    </form>
  );
}

/** Resources of one server. */
export function ResourcesTab(props: { serverId: string }) {
  const id = props.serverId;
  const [items, setItems] = useState<ResourceItem[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [templates, setTemplates] = useState<ResourceTemplateItem[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const [target, setTarget] = useState<Target | undefined>();
  const [read, setRead] = useState<ResourceReadResult | undefined>();
  const [readError, setReadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [subscribed, setSubscribed] = useState<Set<string>>(new Set());
  const [updatedMark, setUpdatedMark] = useState(false);
  const [chosenTemplate, setChosenTemplate] = useState<ResourceTemplateItem | undefined>();
  const listVersion = useStore((s) => s.resourceListVersion[id] ?? 0);
  const shownUri = read?.uri ?? (target?.kind === 'uri' ? target.uri : undefined);
  const updates = useStore(selectResourceUpdates(id, shownUri ?? ''));

  const loadList = useCallback(async () => {
    setListError(null);
    try {
      const page = await resourcesService.list(id);
      setItems(page.resources);
      setCursor(page.nextCursor);
      setTemplates((await resourcesService.templates(id)).templates);
    } catch (err) {
      setListError(message(err));
    }
  }, [id]);

  useEffect(() => {
    void loadList();
  }, [loadList, listVersion]);

  const doRead = useCallback(
    async (t: Target) => {
      setLoading(true);
      setReadError(null);
      try {
        setRead(
          t.kind === 'uri'
            ? await resourcesService.read(id, t.uri)
            : await resourcesService.readTemplate(id, t.template.uriTemplate, t.variables),
        );
      } catch (err) {
        setRead(undefined);
        setReadError(message(err));
      } finally {
        setLoading(false);
      }
    },
    [id],
  );

  const seenUpdates = useRef(updates);
  useEffect(() => {
    if (updates > seenUpdates.current && target) {
      setUpdatedMark(true);
      void doRead(target);
    }
    seenUpdates.current = updates;
  }, [updates, target, doRead]);

  const open = (t: Target) => {
    setTarget(t);
    setUpdatedMark(false);
    void doRead(t);
  };

  const toggleSubscribe = async (uri: string) => {
    try {
      if (subscribed.has(uri)) {
        await resourcesService.unsubscribe(id, uri);
        const next = new Set(subscribed);
        next.delete(uri);
        setSubscribed(next);
      } else {
        await resourcesService.subscribe(id, uri);
        setSubscribed(new Set(subscribed).add(uri));
      }
    } catch (err) {
      setReadError(message(err));
    }
  };

  return (
    <section aria-label="Resources" className="resources">
      <div className="resources-side">
        <div className="row">
          <h3>Resources</h3>
          <button type="button" onClick={() => void loadList()}>
            Refresh
          </button>
        </div>
        {listError && (
          <div className="error-text" role="alert">
            {listError}
          </div>
        )}
        {items.length === 0 && !listError && <p className="hint">No resources listed.</p>}
        <ResourceList
          items={items}
          selected={target?.kind === 'uri' ? target.uri : undefined}
          onSelect={(uri) => open({ kind: 'uri', uri })}
        />
        {cursor !== undefined && (
          <button
            type="button"
            onClick={() =>
              void resourcesService
                .list(id, cursor)
                .then((p) => {
                  setItems([...items, ...p.resources]);
                  setCursor(p.nextCursor);
                })
                .catch((err: unknown) => setListError(message(err)))
            }
          >
            Load more
          </button>
        )}
        {templates.length > 0 && (
          <div className="templates">
            <h3>Templates</h3>
            <ul className="plain-list" aria-label="Resource templates">
              {templates.map((t) => (
                <li key={t.uriTemplate}>
                  <button type="button" className="link-button" onClick={() => setChosenTemplate(t)}>
                    {t.title ?? t.name}
                  </button>
                </li>
              ))}
            </ul>
            {chosenTemplate && (
              <TemplateForm
                key={chosenTemplate.uriTemplate}
                serverId={id}
                template={chosenTemplate}
                onRead={(variables) => open({ kind: 'template', template: chosenTemplate, variables })}
              />
            )}
          </div>
        )}
      </div>
      <div className="resources-preview" aria-label="Preview" role="region">
        {!target && <p className="hint">Pick a resource to preview it. Addresses inside resources are never fetched.</p>}
        {shownUri && (
          <div className="row preview-head">
            <strong className="part-uri">{shownUri}</strong>
            {updatedMark && (
              <span className="badge updated" role="status">
                Updated
              </span>
            )}
            <button type="button" onClick={() => void toggleSubscribe(shownUri)}>
              {subscribed.has(shownUri) ? 'Unsubscribe' : 'Subscribe'}
            </button>
            {target && (
              <button type="button" onClick={() => void doRead(target)}>
                Reload
              </button>
            )}
          </div>
        )}
        {loading && <p className="hint">Reading…</p>}
        {readError && (
          <div className="error-text" role="alert">
            {readError}
          </div>
        )}
        {read && <ResourcePreview parts={read.parts} />}
      </div>
    </section>
  );
}
