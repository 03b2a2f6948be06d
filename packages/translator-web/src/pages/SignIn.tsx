import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '@app/web-kit';
import { accounts, ApiError } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { errorMessage } from '../components/basics.tsx';

/** What each refusal of single sign-on means to the person who tried. */
export const SSO_ERRORS: Record<string, string> = {
  no_account: 'No account uses this address: ask a project owner for an invitation.',
  email_not_verified: 'Your identity provider did not confirm your e-mail address.',
  provider_unreachable: 'The identity provider cannot be reached right now. Try again later.',
  invalid_state: 'The sign-in took too long or was started in another browser. Try again.',
  invalid_response: 'The identity provider’s answer was refused. Try again.',
  invite_not_found: 'This invitation does not exist or has expired: ask for a new link.',
  invite_other_account: 'This invitation is for another e-mail address than the one you signed in with.',
};

/** Where to go after signing in: the page asked for, if it is one of ours. */
const nextPath = (params: URLSearchParams) => safeRedirect(params.get('next'));

export const useProviders = () =>
  useQuery({ queryKey: ['auth', 'providers'], queryFn: accounts.providers, staleTime: Infinity });

/** A link that starts single sign-on, coming back to `next` (accepting `invite` on the way). */
export const ssoHref = (next: string, invite?: string) =>
  `/api/auth/oidc/start?${new URLSearchParams({ next, ...(invite ? { invite } : {}) })}`;

export function SignIn() {
  const [params] = useSearchParams();
  const [withKey, setWithKey] = useState(false);
  const providers = useProviders();
  const ssoError = params.get('sso_error');
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            Translator
          </Title>
          {ssoError && (
            <Alert color="red" role="alert">
              {SSO_ERRORS[ssoError] ?? 'Single sign-on did not succeed. Try again.'}
            </Alert>
          )}
          {withKey ? <KeyForm /> : <PasswordForm />}
          {!withKey && providers.data?.sso && (
            <Button component="a" href={ssoHref(nextPath(params))} variant="default">
              Sign in with SSO
            </Button>
          )}
          <Divider />
          <Anchor component="button" type="button" size="sm" onClick={() => setWithKey(!withKey)}>
            {withKey ? 'Use your account instead' : 'Use a project API key instead'}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}

/**
 * A sign-in form's state: `attempt` runs on submit (after `check`, whose message stops it), then the
 * dashboard opens the page asked for; a failure is told with `explain`.
 */
function useSignInForm(
  check: () => string | null,
  attempt: () => Promise<unknown>,
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
      await attempt();
      navigate(nextPath(params), { replace: true });
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, submit };
}

/** The end of a sign-in form: what went wrong, and the button. */
function FormEnd({ error, busy }: { error: string | null; busy: boolean }) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" data-testid="signin-error">
          {error}
        </Alert>
      )}
      <Button type="submit" loading={busy}>
        Sign in
      </Button>
    </>
  );
}

function PasswordForm() {
  const { adopt } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSignInForm(
    () => (email.trim() && password ? null : 'Enter your e-mail address and your password.'),
    async () => adopt(await accounts.login(email.trim(), password)),
    (err) =>
      err instanceof ApiError && err.code === 'invalid_credentials'
        ? 'The e-mail address or the password is wrong.'
        : errorMessage(err),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text c="dimmed" size="sm">
          Sign in with the account a project owner invited you to.
        </Text>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <FormEnd error={error} busy={busy} />
      </Stack>
    </form>
  );
}

function KeyForm() {
  const { signIn } = useAuth();
  const [key, setKey] = useState('');
  const { error, busy, submit } = useSignInForm(
    () => (key.trim() ? null : 'Enter the project API key.'),
    () => signIn(key),
    (err) =>
      err instanceof ApiError && err.status === 401
        ? 'This API key is not valid. Check it, or ask for the current key if it was regenerated.'
        : err instanceof ApiError && err.code === 'page_key_not_allowed'
          ? 'This is the project’s page key (tpk_…), which only pages use. Sign in with the full API key.'
          : errorMessage(err),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text c="dimmed" size="sm">
          Sign in with your project’s API key. It is kept in this browser tab only and forgotten when you sign
          out or close the tab.
        </Text>
        <PasswordInput
          label="Project API key"
          autoComplete="off"
          autoFocus
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
          error={error ? true : undefined}
        />
        <FormEnd error={error} busy={busy} />
      </Stack>
    </form>
  );
}
