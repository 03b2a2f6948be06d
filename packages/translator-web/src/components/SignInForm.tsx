import { Alert, Button } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '@app/web-kit';

/** Where to go after signing in: the page asked for, if it is one of ours. */
export const nextPath = (params: URLSearchParams) => safeRedirect(params.get('next'));

/**
 * A sign-in form's state: `attempt` runs on submit (after `check`, whose message stops it), then the
 * dashboard opens the page `attempt` names, else the page asked for; a failure is told with `explain`.
 */
export function useSignInForm(
  check: () => string | null,
  attempt: () => Promise<string | void>,
  explain: (error: unknown) => string,
) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = check();
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      navigate((await attempt()) ?? nextPath(params), { replace: true });
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, submit };
}

/** The end of a sign-in form: what went wrong, and the button. */
export function FormEnd({ error, busy, label }: { error: string | null; busy: boolean; label: string }) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" data-testid="signin-error">
          {error}
        </Alert>
      )}
      <Button type="submit" loading={busy}>
        {label}
      </Button>
    </>
  );
}
