import { useState } from 'preact/hooks';
import { api } from '../api';
import { passwordChanged, session } from '../session';
import { ErrorBox, Field, type PageMeta, useAction } from '../ui';

export const meta: PageMeta = { title: 'Your account', order: 99 };

/** The server's rule for a dashboard password (docs/auth.md), the same as when a user is created. */
const PASSWORD_MIN = 12;
const PASSWORD_MAX = 1024;

type Errors = { current?: string; next?: string; repeat?: string };

/** Checked before posting; whether the current password is right is the server's answer, shown as it comes. */
function check(current: string, next: string, repeat: string): Errors {
  const found: Errors = {};
  if (!current) found.current = 'Enter your current password.';
  if (next.length < PASSWORD_MIN) found.next = `At least ${PASSWORD_MIN} characters.`;
  else if (next.length > PASSWORD_MAX) found.next = `At most ${PASSWORD_MAX} characters.`;
  else if (next === current) found.next = 'Choose a password other than the current one.';
  if (!found.next && repeat !== next) found.repeat = 'The two new passwords differ.';
  return found;
}

export default function Account() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [done, setDone] = useState<string>();
  const change = useAction(async () => {
    const res = await api('post', '/api/dashboard/auth/me/password', {
      body: { currentPassword: current, newPassword: next },
    });
    setCurrent('');
    setNext('');
    setRepeat('');
    passwordChanged();
    setDone(
      res.otherSessionsEnded > 0
        ? `Password changed; ${res.otherSessionsEnded} other session${res.otherSessionsEnded === 1 ? '' : 's'} signed out.`
        : 'Password changed.',
    );
  });
  const user = session.value?.user;
  return (
    <>
      <h1>Your account</h1>
      {user && (
        <p class="muted">
          Signed in as {user.email} ({user.role}).
        </p>
      )}
      {user?.mustChangePassword && (
        <div class="note" role="alert">
          <p>
            <strong>Choose your own password to continue.</strong> The password you signed in with was set by
            an administrator (or printed when Parapet first started), so someone else has seen it. The other
            pages of the dashboard open once you have changed it below.
          </p>
        </div>
      )}
      <form
        class="form"
        noValidate
        aria-label="Change your password"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(undefined);
          const found = check(current, next, repeat);
          setErrors(found);
          if (Object.keys(found).length === 0) void change.run();
        }}
      >
        <h2>Change your password</h2>
        <p class="muted">Your other sessions are signed out; this one stays.</p>
        <Field label="Current password" error={errors.current}>
          {(a) => (
            <input
              {...a}
              type="password"
              autocomplete="current-password"
              value={current}
              onInput={(e) => setCurrent(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="New password" error={errors.next} hint={`At least ${PASSWORD_MIN} characters`}>
          {(a) => (
            <input
              {...a}
              type="password"
              autocomplete="new-password"
              value={next}
              onInput={(e) => setNext(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="New password again" error={errors.repeat}>
          {(a) => (
            <input
              {...a}
              type="password"
              autocomplete="new-password"
              value={repeat}
              onInput={(e) => setRepeat(e.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorBox error={change.error} />
        {done && (
          <p class="ok" role="status">
            {done}
          </p>
        )}
        <button type="submit" disabled={change.busy}>
          Change password
        </button>
      </form>
    </>
  );
}
