import { useState } from 'preact/hooks';
import { api } from '../api';
import { navigate, route, safeNext } from '../router';
import { session } from '../session';
import { ErrorBox, Field, type PageMeta, useAction } from '../ui';

export const meta: PageMeta = { title: 'Sign in', public: true };

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const login = useAction(async () => {
    session.value = await api('post', '/api/dashboard/auth/login', { body: { email, password } });
    // only a page of this app: never another origin, nor an API path, handed in by a link
    navigate(safeNext(route.value.searchParams.get('next')), true);
  });

  const submit = (e: Event) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) found.email = 'Enter the e-mail address of your account.';
    if (!password) found.password = 'Enter your password.';
    setErrors(found);
    if (Object.keys(found).length === 0) void login.run();
  };

  return (
    <>
      <h1>Sign in to Parapet</h1>
      {/* Everyone sent here by force mode sees this page: it speaks to them, not to the operator of a
          first start (whose banner in the terminal already says which account to use). */}
      <p class="muted">Use the account your organization's Parapet administrator gave you.</p>
      <form onSubmit={submit} noValidate>
        <Field label="E-mail" error={errors.email}>
          {(a) => (
            <input
              {...a}
              type="email"
              autocomplete="username"
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Password" error={errors.password}>
          {(a) => (
            <input
              {...a}
              type="password"
              autocomplete="current-password"
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorBox error={login.error} />
        <button type="submit" disabled={login.busy}>
          {login.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </>
  );
}
