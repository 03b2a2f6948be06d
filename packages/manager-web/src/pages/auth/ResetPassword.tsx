import { Busy } from '@app/web-kit';
import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { usePasswordReset } from '../../api/auth.ts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError } from '../../api/client.ts';
import { errorMessage, showError } from '../../api/errors.ts';
import { AuthFrame } from './AuthFrame.tsx';

const back = (
  <Anchor component={Link} to="/login">
    Back to sign in
  </Anchor>
);

export function ResetRequestPage() {
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { usernameOrEmail: '' },
    validate: { usernameOrEmail: (v) => (v.trim() ? null : 'Enter your username or e-mail address') },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      // The answer says a link "has been sent" whether or not this server can send e-mail, which only
      // administrators can see: the page says what is certain and who else can help.
      await api.post('/auth/password-reset/request', { body: values });
      setSent(true);
    } catch (error) {
      showError(error, form);
    } finally {
      setBusy(false);
    }
  });
  return (
    <AuthFrame title="Reset your password" footer={back}>
      {sent ? (
        <Alert color="blue" title="Request received" data-testid="reset-sent">
          If an active account matches and this server sends e-mail, a reset link is on its way to the
          account’s address. No e-mail within a few minutes? Ask an administrator to set a new password for
          you.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label="Username or e-mail"
              autoFocus
              required
              {...form.getInputProps('usernameOrEmail')}
            />
            <Button type="submit" loading={busy}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}

export function ResetCompletePage() {
  const { token = '' } = useParams();
  const check = usePasswordReset(token);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '', revokeApiKeys: true },
    validate: {
      password: (v) => (v.length >= 8 ? null : 'At least 8 characters'),
      confirmPassword: (v, values) => (v === values.password ? null : 'The passwords differ'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const result = await api.post('/auth/password-reset/{token}', { path: { token }, body: values });
      setDone(result.message);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'mismatch')
        form.setErrors({ confirmPassword: error.message });
      else if (error instanceof ApiError && error.code === 'weak_password')
        form.setErrors({ password: error.message });
      else showError(error, form);
    } finally {
      setBusy(false);
    }
  });
  return (
    <AuthFrame title="Choose a new password" footer={back}>
      {check.isPending ? <Busy label="Checking the link" /> : null}
      {check.isError ? (
        <Alert color="red" title="This link cannot be used">
          {errorMessage(check.error)}{' '}
          <Anchor component={Link} to="/reset-password">
            Request a new one.
          </Anchor>
        </Alert>
      ) : null}
      {done ? (
        <Alert color="green" data-testid="reset-done">
          {done}
        </Alert>
      ) : check.data ? (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="Username" value={check.data.username} readOnly autoComplete="username" />
            <PasswordInput
              label="New password"
              autoFocus
              required
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Repeat password"
              required
              autoComplete="new-password"
              {...form.getInputProps('confirmPassword')}
            />
            <Checkbox
              label="Also revoke my API keys (recommended if someone else may have one)"
              {...form.getInputProps('revokeApiKeys', { type: 'checkbox' })}
            />
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Stack>
        </form>
      ) : null}
    </AuthFrame>
  );
}
