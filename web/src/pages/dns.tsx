import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage } from '../session';
import {
  Async,
  ErrorBox,
  Field,
  type PageMeta,
  ReadOnlyNote,
  HOST_NAME,
  fmtDate,
  lines,
  useAction,
  useLoad,
} from '../ui';

export const meta: PageMeta = { title: 'DNS filtering', order: 83 };

type DnsConfig = Result<'/api/saas/endpoint/dns-config', 'get'>;
type Integration = 'dns_forwarder' | 'proxy' | 'firewall';

const FORWARDER = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:]+:[0-9A-Fa-f:.]*)(:\d{1,5})?$/;
const EXPORTS = [
  { format: 'rpz', label: 'RPZ zone (BIND, Unbound, PowerDNS)' },
  { format: 'hosts', label: 'hosts file' },
  { format: 'adguard', label: 'AdGuard list' },
  { format: 'domains', label: 'plain domain list (firewalls)' },
] as const;

type Errors = Partial<Record<'blocked' | 'allowed' | 'message' | 'contact' | 'forwarders', string>>;

function DnsForm(props: { config: DnsConfig | null; manage: boolean; onSaved(): void }) {
  const c = props.config;
  const [enabled, setEnabled] = useState(c?.enabled ?? true);
  const [blocked, setBlocked] = useState((c?.blockedDomains ?? []).join('\n'));
  const [allowed, setAllowed] = useState((c?.allowedDomains ?? []).join('\n'));
  const [pageOn, setPageOn] = useState(c?.blockPage.enabled ?? true);
  const [message, setMessage] = useState(
    c?.blockPage.message ?? 'This AI service is not approved by your organization.',
  );
  const [contact, setContact] = useState(c?.blockPage.contactEmail ?? '');
  const [integration, setIntegration] = useState<Integration>(
    (c?.integration.type as Integration | undefined) ?? 'dns_forwarder',
  );
  const [forwarders, setForwarders] = useState(
    (c?.integration.forwarders ?? ['1.1.1.1', '9.9.9.9']).join('\n'),
  );
  const [errors, setErrors] = useState<Errors>({});
  const save = useAction(async () => {
    await api('post', '/api/saas/endpoint/dns-config', {
      body: {
        enabled,
        mode: 'blocklist',
        blockedDomains: lines(blocked),
        allowedDomains: lines(allowed),
        blockPage: { enabled: pageOn, message, contactEmail: contact.trim() },
        integration: { type: integration, forwarders: lines(forwarders) },
      },
    });
    props.onSaved();
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found: Errors = {};
    const badBlocked = lines(blocked).find((x) => !HOST_NAME.test(x));
    if (badBlocked)
      found.blocked = `"${badBlocked}" is not a host name; a wildcard may only lead, as in *.example.com.`;
    const badAllowed = lines(allowed).find((x) => !HOST_NAME.test(x));
    if (badAllowed) found.allowed = `"${badAllowed}" is not a host name.`;
    if (message.length > 1000) found.message = 'At most 1,000 characters.';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact.trim()))
      found.contact = 'Enter the e-mail address users should write to.';
    const fw = lines(forwarders);
    const badFw = fw.find((x) => !FORWARDER.test(x));
    if (badFw) found.forwarders = `"${badFw}" is not an IP address (with an optional :port).`;
    else if (fw.length > 10) found.forwarders = 'At most 10 forwarders.';
    setErrors(found);
    if (Object.keys(found).length === 0) void save.run();
  };
  return (
    <form class="form" onSubmit={submit} noValidate aria-label="DNS filtering configuration">
      {c && <p class="muted">Last changed {fmtDate(c.updatedAt)}.</p>}
      <fieldset disabled={!props.manage}>
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />{' '}
          Filtering on
        </label>
        <div class="grid2">
          <Field
            label="Blocked AI domains (one per line)"
            error={errors.blocked}
            hint="a name also blocks its subdomains"
          >
            {(a) => (
              <textarea {...a} rows={8} value={blocked} onInput={(e) => setBlocked(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Always allowed (one per line)" error={errors.allowed} hint="wins over the block list">
            {(a) => (
              <textarea {...a} rows={8} value={allowed} onInput={(e) => setAllowed(e.currentTarget.value)} />
            )}
          </Field>
        </div>
        <fieldset>
          <legend>Block page</legend>
          <label class="check">
            <input type="checkbox" checked={pageOn} onChange={(e) => setPageOn(e.currentTarget.checked)} />{' '}
            Answer blocked names with the block page
          </label>
          <div class="grid2">
            <Field label="Message" error={errors.message}>
              {(a) => (
                <textarea
                  {...a}
                  rows={3}
                  value={message}
                  onInput={(e) => setMessage(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Contact e-mail" error={errors.contact}>
              {(a) => (
                <input
                  {...a}
                  type="email"
                  value={contact}
                  onInput={(e) => setContact(e.currentTarget.value)}
                />
              )}
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>Integration</legend>
          <div class="grid2">
            <Field label="How the filter is deployed">
              {(a) => (
                <select
                  {...a}
                  value={integration}
                  onChange={(e) => setIntegration(e.currentTarget.value as Integration)}
                >
                  <option value="dns_forwarder">parapet dns forwarder</option>
                  <option value="proxy">your DNS server (RPZ, hosts, AdGuard export)</option>
                  <option value="firewall">firewall domain lists</option>
                </select>
              )}
            </Field>
            <Field
              label="Upstream forwarders (one per line)"
              error={errors.forwarders}
              hint="e.g. 10.0.0.53 or [2001:db8::53]:53"
            >
              {(a) => (
                <textarea
                  {...a}
                  rows={3}
                  value={forwarders}
                  onInput={(e) => setForwarders(e.currentTarget.value)}
                />
              )}
            </Field>
          </div>
        </fieldset>
        <ErrorBox error={save.error} />
        {props.manage && (
          <button type="submit" disabled={save.busy}>
            Save DNS filtering
          </button>
        )}
      </fieldset>
    </form>
  );
}

export default function Dns() {
  // Before a first save the server answers its default (filtering off, updatedAt null): the empty state.
  const state = useLoad(async () => {
    const cfg = await api('get', '/api/saas/endpoint/dns-config');
    return cfg.updatedAt === null ? null : cfg;
  }, []);
  const manage = canManage();
  return (
    <>
      <h1>DNS filtering</h1>
      <p>
        <code>parapet dns</code> answers blocked AI services with the block page's address and forwards every
        other name (docs/endpoint.md). Other DNS servers and firewalls take one of the exports below.
      </p>
      {!manage && <ReadOnlyNote />}
      <Async state={state}>
        {(cfg) => (
          <>
            {cfg === null && <p class="empty">No DNS filtering configured yet: save the form to start.</p>}
            <DnsForm config={cfg} manage={manage} onSaved={state.reload} />
            {cfg !== null && (
              <section aria-label="Exports">
                <h2>Exports</h2>
                <ul>
                  {EXPORTS.map((x) => (
                    <li key={x.format}>
                      <a href={`/api/saas/endpoint/dns-config/export?format=${x.format}`} download>
                        {x.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </Async>
    </>
  );
}
