import { Checkbox, Code, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError, ownerInviteWith } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { errorMessage } from '../components/basics.tsx';
import { FormEnd, useSignInForm } from '../components/SignInForm.tsx';

const explainKeyError = (err: unknown) =>
  err instanceof ApiError && err.status === 401
    ? 'This API key is not valid. Check it, or ask for the current key if it was regenerated.'
    : err instanceof ApiError && err.code === 'page_key_not_allowed'
      ? 'This is the project’s page key (tpk_…), which only pages use. Sign in with the full API key.'
      : errorMessage(err);

/**
 * The first screen of a new project: what the API key is and where to find it, signing in with it, or
 * making oneself the project's owner with it (an owner invitation, accepted on the invitation page).
 */
export function KeyForm() {
  const { signIn } = useAuth();
  const [key, setKey] = useState('');
  const [asOwner, setAsOwner] = useState(false);
  const [email, setEmail] = useState('');
  const { error, busy, submit } = useSignInForm(
    () =>
      !key.trim()
        ? 'Enter the project API key.'
        : asOwner && !email.trim()
          ? 'Enter your e-mail address.'
          : null,
    async () => {
      if (asOwner) return (await ownerInviteWith(key.trim(), email.trim())).path;
      await signIn(key);
    },
    explainKeyError,
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          A new project starts with its API key. The translator prints it when it creates the project, in its
          start output (<Code>Translator default project created. API key: …</Code>); on a production server
          print it with <Code>npm run translator -- project key 1</Code> (see the README, “Your first
          translated page”).
        </Text>
        <Text c="dimmed" size="sm">
          Signed in with the key, it is kept in this browser tab only and forgotten when you sign out or close
          the tab. Better: make your own account with it, as the project’s owner, and invite your team.
        </Text>
        <PasswordInput
          label="Project API key"
          autoComplete="off"
          autoFocus
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
          error={error ? true : undefined}
        />
        <Checkbox
          label="Create my account as the project’s owner"
          checked={asOwner}
          onChange={(event) => setAsOwner(event.currentTarget.checked)}
        />
        {asOwner && (
          <TextInput
            label="Your e-mail"
            description="Next you choose your name and password."
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
        )}
        <FormEnd error={error} busy={busy} label={asOwner ? 'Create my account' : 'Sign in'} />
      </Stack>
    </form>
  );
}
