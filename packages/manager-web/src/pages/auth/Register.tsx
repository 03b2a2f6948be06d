import { Busy } from '@app/web-kit';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useInvitation } from '../../api/auth.ts';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { FormErrorSummary, useFormGuide } from '../../components/FormGuide.tsx';
import { useHealth } from '../../api/session.ts';
import { AuthFrame } from './AuthFrame.tsx';

export function RegisterPage() {
  const health = useHealth();
  const [params] = useSearchParams();
  const invite = params.get('invite');
  const invitation = useInvitation(invite);
  const [done, setDone] = useState<{ status: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { uid: '', givenName: '', sn: '', mail: '', userPassword: '', confirm: '' },
    validate: {
      uid: (v) =>
        /^[a-z_][a-z0-9_.-]*$/i.test(v.trim()) ? null : 'Letters, digits, dot, dash or underscore',
      givenName: (v) => (v.trim() ? null : 'Required'),
      sn: (v) => (v.trim() ? null : 'Required'),
      mail: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter an e-mail address'),
      userPassword: (v) => (v.length >= 8 ? null : 'At least 8 characters'),
      confirm: (v, values) => (v === values.userPassword ? null : 'The passwords differ'),
    },
  });
  const guide = useFormGuide(form);
  const invitedEmail = invitation.data?.email;
  useEffect(() => {
    if (invitedEmail) form.setFieldValue('mail', invitedEmail);
  }, [invitedEmail]);

  if (health.data?.oidcEnabled)
    return (
      <AuthFrame title="Register">
        <Alert color="blue">Accounts come from single sign-on: sign in with your identity provider.</Alert>
        <Button component={Link} to="/login" mt="md">
          Go to sign in
        </Button>
      </AuthFrame>
    );

  if (done)
    return (
      <AuthFrame title="Registered">
        <Stack>
          <Alert color={done.status === 'active' ? 'green' : 'yellow'} data-testid="registered">
            {done.message}
          </Alert>
          <Button component={Link} to="/login">
            Sign in
          </Button>
        </Stack>
      </AuthFrame>
    );

  const submit = form.onSubmit(async ({ confirm: _confirm, ...values }) => {
    setBusy(true);
    try {
      const result = await api.post('/auth/register', {
        body: {
          ...values,
          ...(invite ? { inviteToken: invite } : {}),
        },
      });
      setDone(result);
    } catch (error) {
      guide.showError(error, { inviteToken: 'mail' });
    } finally {
      setBusy(false);
    }
  }, guide.failed);

  return (
    <AuthFrame
      title="Create an account"
      footer={
        <>
          Already registered?{' '}
          <Anchor component={Link} to="/login">
            Sign in
          </Anchor>
        </>
      }
    >
      {invite && invitation.isPending ? (
        <Group justify="center">
          <Busy size="sm" label="Checking the invitation" />
        </Group>
      ) : null}
      {invite && invitation.isError ? (
        <Alert color="red" mb="md" title="Invitation">
          {errorMessage(invitation.error)}
        </Alert>
      ) : null}
      {invitedEmail ? (
        <Alert color="green" mb="md">
          You were invited as {invitedEmail}: your account is active as soon as you register.
        </Alert>
      ) : null}
      <form ref={guide.ref} onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Username"
            autoComplete="username"
            required
            autoFocus
            {...form.getInputProps('uid')}
          />
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              autoComplete="given-name"
              required
              {...form.getInputProps('givenName')}
            />
            <TextInput label="Last name" autoComplete="family-name" required {...form.getInputProps('sn')} />
          </Group>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            readOnly={Boolean(invitedEmail)}
            {...form.getInputProps('mail')}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            required
            {...form.getInputProps('userPassword')}
          />
          <PasswordInput
            label="Repeat password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" loading={busy}>
            Register
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
