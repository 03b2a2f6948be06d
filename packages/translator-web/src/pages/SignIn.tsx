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
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { accounts, ApiError } from '../api.ts';
import { usedAnAccountHere, useAuth } from '../auth.tsx';
import { errorMessage } from '../components/basics.tsx';
import { FormEnd, nextPath, useSignInForm } from '../components/SignInForm.tsx';
import { KeyForm } from './KeySignIn.tsx';

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

export const useProviders = () =>
  useQuery({ queryKey: ['auth', 'providers'], queryFn: accounts.providers, staleTime: Infinity });

/** A link that starts single sign-on, coming back to `next` (accepting `invite` on the way). */
export const ssoHref = (next: string, invite?: string) =>
  `/api/auth/oidc/start?${new URLSearchParams({ next, ...(invite ? { invite } : {}) })}`;

export function SignIn() {
  const [params] = useSearchParams();
  // A browser no account has used yet is most likely a new project's first: it opens on the key.
  const [withKey, setWithKey] = useState(() => !usedAnAccountHere());
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
            {withKey ? 'I have an account' : 'Use a project API key instead'}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
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
        <FormEnd error={error} busy={busy} label="Sign in" />
      </Stack>
    </form>
  );
}
