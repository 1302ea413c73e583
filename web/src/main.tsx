import 'uplot/dist/uPlot.min.css';
import './styles.css';
import type { ComponentType } from 'preact';
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { send, setUnauthorizedHandler } from './api';
import { navigate, onLinkClick, registerPages, route } from './router';
import { ACCOUNT_PATH, loadSession, session } from './session';
import type { PageMeta } from './ui';
import { Loading } from './ui';

interface PageModule {
  meta: PageMeta;
  default: ComponentType;
}

// Every file in pages/ is a page: its name is its path (overview.tsx is `/`), its `meta` its nav entry.
const modules = import.meta.glob<PageModule>('./pages/*.tsx', { eager: true });
const pages = Object.entries(modules).map(([file, mod]) => {
  const name = file.slice('./pages/'.length, -'.tsx'.length);
  return { path: name === 'overview' ? '/' : `/${name}`, ...mod };
});
registerPages(pages.map((p) => p.path));
const navPages = pages
  .filter((p) => p.meta.order !== undefined)
  .sort((a, b) => (a.meta.order ?? 0) - (b.meta.order ?? 0));

setUnauthorizedHandler(() => {
  session.value = null;
});

function Nav() {
  const here = route.value.pathname;
  return (
    <nav class="side" aria-label="Dashboard">
      <ul>
        {navPages.map((p) => (
          <li key={p.path}>
            <a href={p.path} aria-current={here === p.path ? 'page' : undefined}>
              {p.meta.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function App() {
  useEffect(() => {
    void loadSession();
  }, []);
  const s = session.value;
  const url = route.value;
  const page = pages.find((p) => p.path === url.pathname);
  // A password given by an administrator (or printed at the first start) is changed before anything else:
  // the server answers every other dashboard call with 403 password_change_required meanwhile.
  const changeDue = s?.user.mustChangePassword === true && url.pathname !== ACCOUNT_PATH;

  useEffect(() => {
    if (s === null && !page?.meta.public) {
      navigate(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, true);
    } else if (changeDue) {
      navigate(ACCOUNT_PATH, true);
    }
    document.title = `${page?.meta.title ?? 'Not found'} · Parapet`;
  }, [s, page, url, changeDue]);

  if (s === undefined) return <Loading label="Checking your session…" />;
  if (changeDue) return <Loading label="Opening your account to change your password…" />;
  if (page?.meta.public || s === null) {
    const Public = page?.meta.public ? page.default : null;
    return <main class="public">{Public ? <Public /> : <Loading label="Redirecting to sign in…" />}</main>;
  }
  const Page = page?.default;
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="/">
          Parapet
        </a>
        <span class="who">
          {s.user.email} · {s.user.role} · {s.organization.name}
        </span>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await send('post', '/api/dashboard/auth/logout').catch(() => undefined);
            session.value = null;
          }}
        >
          Sign out
        </button>
      </header>
      <Nav />
      <main id="main" class="content">
        {Page ? (
          <Page key={url.pathname} />
        ) : (
          <>
            <h1>Not found</h1>
            <p>
              No page at {url.pathname}. <a href="/">Go to the overview</a>.
            </p>
          </>
        )}
      </main>
    </div>
  );
}

const root = document.getElementById('app')!;
root.addEventListener('click', onLinkClick);
render(<App />, root);
