import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { accounts, ApiError } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { errorMessage, Loading } from '../components/basics.tsx';
import { roleLabel } from '../components/roles.ts';
import { ssoHref, useProviders } from './SignIn.tsx';

/** The page an invitation link opens: who invites you to what, then a name and password (or SSO). */
export function AcceptInvite() {
  const { token = '' } = useParams();
  const { session, adopt } = useAuth();
  const navigate = useNavigate();
  const providers = useProviders();
  // Read once: once accepted, the invitation is gone (and the page is left before it would be read again).
  const accepted = useRef(false);
  const invite = useQuery({
    queryKey: ['invite', token],
    queryFn: () => accounts.invite(token),
    retry: false,
    staleTime: Infinity,
    enabled: !accepted.current,
  });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  if (invite.isPending) return <Loading />;
  if (invite.isError)
    return (
      <Center mih="100vh" p="md">
        <Alert color="red" role="alert" maw={420}>
          {errorMessage(invite.error)}
        </Alert>
      </Center>
    );
  const { projectName, email, role, languages, accountExists } = invite.data;
  const signedInAsInvitee = session?.account.email === email;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!accountExists && !signedInAsInvitee) {
      if (!name.trim()) found.name = 'Enter your name.';
      if (password.length < 8) found.password = 'Choose a password of at least 8 characters.';
      else if (password !== confirm) found.confirm = 'The two passwords differ.';
    } else if (!signedInAsInvitee && !password) found.password = 'Enter your password.';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const body = signedInAsInvitee ? {} : accountExists ? { password } : { name: name.trim(), password };
      const joined = await accounts.accept(token, body);
      accepted.current = true;
      navigate('/review', { replace: true });
      adopt(joined, joined.projects.find((p) => p.name === projectName)?.id);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : undefined;
      setErrors({
        form:
          err instanceof ApiError && err.code === 'invalid_credentials'
            ? `The password of ${email} is wrong.`
            : errorMessage(err),
        ...(fields ?? {}),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440} component="form" onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            Join {projectName}
          </Title>
          <Text size="sm">
            You are invited as <strong>{roleLabel(role, languages)}</strong> with the address{' '}
            <strong>{email}</strong>.
          </Text>
          {signedInAsInvitee ? (
            <Text size="sm">You are signed in with this address.</Text>
          ) : accountExists ? (
            <PasswordInput
              label="Password"
              description="You have an account already: enter its password."
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={errors.password}
            />
          ) : (
            <>
              <TextInput
                label="Your name"
                autoComplete="name"
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={errors.name}
              />
              <PasswordInput
                label="Choose a password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={errors.password}
              />
              <PasswordInput
                label="Repeat the password"
                autoComplete="new-password"
                value={confirm}
                onChange={(event) => setConfirm(event.currentTarget.value)}
                error={errors.confirm}
              />
            </>
          )}
          {errors.form && (
            <Alert color="red" role="alert">
              {errors.form}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            Accept the invitation
          </Button>
          {providers.data?.sso && !signedInAsInvitee && (
            <Button component="a" href={ssoHref('/review', token)} variant="default">
              Accept with SSO
            </Button>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
