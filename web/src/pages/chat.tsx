import { useRef, useState } from 'preact/hooks';
import { type Result, api, send } from '../api';
import { route, setQuery } from '../router';
import { session } from '../session';
import { Async, ErrorBox, Field, type PageMeta, Pager, fmtDate, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Protected chat', order: 15 };

type ChatResult = Result<'/api/v1/gateway/chat', 'post'>;
type Protection = ChatResult['protection'];
interface Turn {
  role: string;
  content: string;
  protection?: Protection;
  model?: string;
}
interface StreamEvent {
  type: 'token' | 'meta' | 'error';
  content?: string;
  message?: string;
  model?: string;
  conversationId?: string | null;
  protection?: Protection;
}

const LIMIT = 20;

/** Reads the chat's Server-Sent Events as they arrive: `data: {json}` blocks, then `data: [DONE]`. */
async function* sseData(res: Response): AsyncGenerator<StreamEvent> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut = buffer.search(/\r?\n\r?\n/);
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
      const data = block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data === '[DONE]') return;
      if (data) yield JSON.parse(data) as StreamEvent;
      cut = buffer.search(/\r?\n\r?\n/);
    }
  }
}

function ProtectionLine({ p, model }: { p: Protection; model?: string | undefined }) {
  return (
    <div class="protection" data-testid="protection">
      {p.pgBlocked ? 'Blocked before any provider was called' : `Model ${model || '—'}`} · injection score{' '}
      {p.pgScore} · {p.tokensDetected} personal-data token(s) placed
      {p.tokenizedFields.length ? ` in ${p.tokenizedFields.join(', ')}` : ''}
      {' · '}
      {p.rehydrated ? 'answer rehydrated' : 'nothing to rehydrate'}
    </div>
  );
}

function Conversations(props: { selected: string | null; version: number; onPick(id: string | null): void }) {
  const [offset, setOffset] = useState(0);
  const state = useLoad(
    () => api('get', '/api/v1/gateway/conversations', { query: { limit: LIMIT, offset } }),
    [offset, props.version],
  );
  return (
    <nav class="conversations" aria-label="Conversations">
      <button type="button" onClick={() => props.onPick(null)}>
        New conversation
      </button>
      <Async state={state} isEmpty={(d) => d.conversations.length === 0} empty="No conversations yet.">
        {(d) => (
          <>
            <ul>
              {d.conversations.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    class="secondary"
                    aria-current={c.id === props.selected ? 'true' : undefined}
                    onClick={() => props.onPick(c.id)}
                  >
                    {fmtDate(c.updatedAt)} · {c.messages} messages
                  </button>
                </li>
              ))}
            </ul>
            <Pager
              page={Math.floor(offset / LIMIT) + 1}
              pages={Math.max(1, Math.ceil(d.total / LIMIT))}
              total={d.total}
              onPage={(p) => setOffset((p - 1) * LIMIT)}
            />
          </>
        )}
      </Async>
    </nav>
  );
}

export default function Chat() {
  const selected = route.value.searchParams.get('c');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState('');
  const [model, setModel] = useState('');
  const [auto, setAuto] = useState(false);
  const [inputError, setInputError] = useState<string>();
  const [version, setVersion] = useState(0);
  const conversation = useRef<string | null>(selected);
  // The conversation this page is answering in: when the first answer names it, the address changes but
  // the live (rehydrated) turns stay on screen instead of being replaced by the stored, tokenized ones.
  const live = useRef<string | null>(null);
  const history = useLoad(async () => {
    conversation.current = selected;
    if (selected && selected === live.current) return null;
    live.current = null;
    if (!selected) {
      setTurns([]);
      return null;
    }
    const c = await api('get', '/api/v1/gateway/conversations/{id}', { path: { id: selected } });
    setTurns(c.messages.map((m) => ({ role: m.role, content: m.content })));
    return c;
  }, [selected]);

  const ask = useAction(async (text: string) => {
    const body = {
      message: text,
      stream: true,
      ...(auto ? { autoSelect: true } : {}),
      ...(model.trim() && !auto ? { routing: { preferredModel: model.trim() } } : {}),
      ...(conversation.current ? { conversationId: conversation.current } : {}),
    };
    setTurns((t) => [...t, { role: 'user', content: text }, { role: 'assistant', content: '' }]);
    const res = await send('post', '/api/v1/gateway/chat', body, {
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    });
    const update = (f: (t: Turn) => Turn) =>
      setTurns((all) => [...all.slice(0, -1), f(all[all.length - 1]!)]);
    for await (const ev of sseData(res)) {
      if (ev.type === 'token') update((t) => ({ ...t, content: t.content + (ev.content ?? '') }));
      else if (ev.type === 'error') throw new Error(ev.message ?? 'The provider failed during the answer.');
      else if (ev.type === 'meta') {
        update((t) => ({
          ...t,
          ...(ev.protection ? { protection: ev.protection } : {}),
          ...(ev.model ? { model: ev.model } : {}),
        }));
        if (ev.conversationId && ev.conversationId !== conversation.current) {
          conversation.current = ev.conversationId;
          live.current = ev.conversationId;
          setQuery({ c: ev.conversationId });
        }
      }
    }
    setVersion((v) => v + 1);
  });

  return (
    <>
      <h1>Protected chat</h1>
      <p class="muted">
        Messages are checked for prompt injection and personal data is replaced by tokens before a provider
        sees it; answers are restored for you. Stored history stays tokenized, and lists only the
        conversations you started.
      </p>
      <div class="chat">
        <Conversations
          selected={selected}
          version={version}
          onPick={(id) => setQuery({ c: id ?? undefined })}
        />
        <section aria-label="Conversation">
          <div class="messages" aria-live="polite" data-testid="messages">
            {history.error !== undefined && <ErrorBox error={history.error} />}
            {history.loading && selected && <p class="loading">Loading the conversation…</p>}
            {turns.length === 0 && !history.loading && (
              <p class="empty">Ask something to start a conversation.</p>
            )}
            {turns.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: turns only grow at the end
              <div class="msg" key={i}>
                <span class="role">{t.role === 'user' ? 'You' : 'Assistant'}</span>
                <span data-testid={t.role === 'user' ? undefined : 'answer'}>{t.content}</span>
                {t.protection && <ProtectionLine p={t.protection} model={t.model} />}
              </div>
            ))}
          </div>
          {session.value?.user.role === 'viewer' ? (
            <p class="muted">Viewers read only: an owner or admin can make you a member to chat.</p>
          ) : (
            <form
              class="form"
              noValidate
              aria-label="Send a message"
              onSubmit={(e) => {
                e.preventDefault();
                const text = message.trim();
                const bad = text
                  ? text.length > 100_000
                    ? 'At most 100,000 characters.'
                    : undefined
                  : 'Write a message first.';
                setInputError(bad);
                if (bad) return;
                setMessage('');
                void ask.run(text);
              }}
            >
              <Field label="Message" error={inputError}>
                {(a) => (
                  <textarea {...a} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
                )}
              </Field>
              <div class="grid2">
                <Field label="Model (optional)" hint="catalog key such as openai/gpt-4o-mini">
                  {(a) => (
                    <input
                      {...a}
                      value={model}
                      disabled={auto}
                      onInput={(e) => setModel(e.currentTarget.value)}
                    />
                  )}
                </Field>
                <div class="field">
                  <label>
                    <input
                      type="checkbox"
                      checked={auto}
                      onChange={(e) => setAuto(e.currentTarget.checked)}
                    />{' '}
                    Pick the cheapest adequate model
                  </label>
                </div>
              </div>
              <ErrorBox error={ask.error} />
              <button type="submit" disabled={ask.busy}>
                {ask.busy ? 'Answering…' : 'Send'}
              </button>
            </form>
          )}
        </section>
      </div>
    </>
  );
}
