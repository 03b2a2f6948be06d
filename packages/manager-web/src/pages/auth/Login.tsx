import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '@app/web-kit';
import { api, ApiError, send } from '../../api/client.ts';
import { showError } from '../../api/errors.ts';
import { useHealth, useSession, useSessionChanged } from '../../api/session.ts';
import type { Session } from '../../api/types.ts';
import { AuthFrame } from './AuthFrame.tsx';

const OIDC_ERRORS: Record<string, string> = {
  account_inactive: 'Your account is waiting for an administrator’s approval.',
  login_failed: 'Single sign-on failed. Try again.',
};

export function LoginPage() {
  const health = useHealth();
  const session = useSession();
  const changed = useSessionChanged();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));
  const oidcError = params.get('oidc_error');
  const [inactive, setInactive] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: {
      username: (value) => (value.trim() ? null : 'Enter your username'),
      password: (value) => (value ? null : 'Enter your password'),
    },
  });
  const [busy, setBusy] = useState(false);

  if (session.data) return <Navigate to={redirect} replace />;
  const oidc = health.data?.oidcEnabled;

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setInactive(null);
    try {
      const result = await api.post('/auth/login', { body: { ...values, redirect } });
      await changed({ user: result.user, isAdmin: result.isAdmin });
      navigate(safeRedirect(result.redirect), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_credentials')
        form.setErrors({ password: error.message });
      else if (error instanceof ApiError && error.code === 'account_inactive') setInactive(error.message);
      else showError(error, form);
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthFrame
      title="Sign in"
      footer={
        oidc ? null : (
          <>
            No account?{' '}
            <Anchor component={Link} to="/register">
              Register
            </Anchor>
            {/* The API does not tell whether anyone has registered yet, so this is said to everyone. */}
            <Text size="sm" mt="xs" component="p" data-testid="first-account">
              On a new server, the first account registered becomes its administrator.
            </Text>
          </>
        )
      }
    >
      <Stack>
        {oidcError ? (
          <Alert color="red" title="Single sign-on">
            {OIDC_ERRORS[oidcError] ?? `Single sign-on failed (${oidcError}).`}
          </Alert>
        ) : null}
        {inactive ? (
          <Alert color="yellow" title="Account not active" data-testid="inactive">
            {inactive}
          </Alert>
        ) : null}
        {oidc ? (
          <Button
            component="a"
            href={`/api/v1/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`}
            size="md"
            data-testid="sso"
          >
            Sign in with single sign-on
          </Button>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput
                label="Username"
                autoComplete="username"
                autoFocus
                required
                {...form.getInputProps('username')}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                {...form.getInputProps('password')}
              />
              <Button type="submit" loading={busy}>
                Sign in
              </Button>
              <Anchor component={Link} to="/reset-password" size="sm">
                Forgot your password?
              </Anchor>
            </Stack>
          </form>
        )}
        {health.data?.isDev && !oidc ? (
          <>
            <Divider label="development" />
            <Button
              variant="subtle"
              size="xs"
              onClick={async () => {
                try {
                  // Hidden from the OpenAPI document (development only), so its answer is stated here.
                  const result = await send<Session>('POST', '/auth/dev', {});
                  await changed({ user: result.user, isAdmin: result.isAdmin });
                  navigate(redirect, { replace: true });
                } catch (error) {
                  showError(error);
                }
              }}
            >
              One-click development login
            </Button>
          </>
        ) : null}
      </Stack>
    </AuthFrame>
  );
}
