import { Button, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAddSiteDomain } from '../../api/external-domains.ts';
import { useSession } from '../../api/session.ts';

/**
 * What an HTTP service row offers when the manager has no external domain: administrators add one
 * for the site in place (the form keeps its input), others learn whom to ask.
 */
export function AddDomainInline({ siteId, onAdded }: { siteId: number; onAdded: (id: string) => void }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSiteDomain(siteId, {
    onSuccess: (domain) => {
      setOpen(false);
      setName('');
      onAdded(String(domain.id));
    },
    onError: (failure) =>
      setError(
        failure instanceof ApiError && failure.fields?.name ? failure.fields.name : errorMessage(failure),
      ),
  });

  if (!session.data?.isAdmin)
    return (
      <Text size="xs" c="dimmed" mt={8} data-testid="no-domain">
        No external domain yet: ask an administrator to add one.
      </Text>
    );
  if (!open)
    return (
      <Button size="xs" variant="subtle" mt={4} onClick={() => setOpen(true)}>
        Add a domain
      </Button>
    );
  const submit = () => {
    setError(null);
    if (name.trim()) add.mutate(name.trim());
  };
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <TextInput
        aria-label="New domain name"
        placeholder="apps.example.com"
        value={name}
        error={error}
        autoFocus
        onChange={(event) => setName(event.currentTarget.value)}
        // Enter adds the domain, not the surrounding form.
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          submit();
        }}
      />
      <Button variant="light" onClick={submit} loading={add.isPending} disabled={!name.trim()}>
        Add domain
      </Button>
      <Button variant="default" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </Group>
  );
}
