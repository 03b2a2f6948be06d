import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { errorMessage } from '../components/basics.tsx';

export function SignIn() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!key.trim()) {
      setError('Enter the project API key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(key);
      const next = params.get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/review', { replace: true });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? 'This API key is not valid. Check it, or ask for the current key if it was regenerated.'
          : err instanceof ApiError && err.code === 'page_key_not_allowed'
            ? 'This is the project’s page key (tpk_…), which only pages use. Sign in with the full API key.'
            : errorMessage(err),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420} component="form" onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            Translator
          </Title>
          <Text c="dimmed" size="sm">
            Sign in with your project’s API key. It is kept in this browser tab only and forgotten when you
            sign out or close the tab.
          </Text>
          <PasswordInput
            label="Project API key"
            autoComplete="off"
            autoFocus
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            error={error ? true : undefined}
          />
          {error && (
            <Alert color="red" role="alert" data-testid="signin-error">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
