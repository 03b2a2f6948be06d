import { ConfirmButton } from '@app/web-kit';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Prompt } from '../api.ts';
import {
  deleteAndRefresh,
  errorMessage,
  fieldError,
  notifyOk,
  PageTitle,
  QueryView,
} from '../components/common.tsx';
import { promptKeys, usePrompts } from '../data/prompts.ts';

export function Prompts() {
  const prompts = usePrompts();
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle actions={!adding && <Button onClick={() => setAdding(true)}>New prompt</Button>}>
        Prompts
      </PageTitle>
      <Text c="dimmed" size="sm" mb="md">
        The instructions sent to the AI provider with each batch. Jobs use the default prompt unless you
        choose another.
      </Text>
      <Stack>
        {adding && <PromptForm onDone={() => setAdding(false)} />}
        <QueryView query={prompts} label="Loading prompts…">
          {(list) => (
            <>
              {list.map((prompt) => (
                <PromptForm key={prompt.id} prompt={prompt} />
              ))}
            </>
          )}
        </QueryView>
      </Stack>
    </>
  );
}

function PromptForm({ prompt, onDone }: { prompt?: Prompt; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(prompt?.name ?? '');
  const [text, setText] = useState(prompt?.text ?? '');
  const [isDefault, setIsDefault] = useState(prompt?.isDefault ?? false);
  const dirty = !prompt || name !== prompt.name || text !== prompt.text || isDefault !== prompt.isDefault;
  const save = useMutation({
    mutationFn: () =>
      prompt
        ? api.put('/prompts/{id}', {
            path: { id: prompt.id },
            body: {
              name,
              text,
              ...(isDefault !== prompt.isDefault ? { isDefault } : {}),
            },
          })
        : api.post('/prompts', { body: { name, text, isDefault } }),
    onSuccess: async () => {
      notifyOk(prompt ? 'Prompt saved' : 'Prompt added');
      await queryClient.invalidateQueries({ queryKey: promptKeys.all });
      onDone?.();
    },
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            {prompt ? prompt.name : 'New prompt'}
          </Title>
          {prompt?.isDefault && <Badge variant="light">default</Badge>}
        </Group>
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError(save.error, 'name')}
          required
        />
        <Textarea
          label="Instructions"
          autosize
          minRows={3}
          maxRows={12}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={fieldError(save.error, 'text')}
          required
        />
        {!prompt?.isDefault && (
          <Checkbox
            label="Use as the default prompt"
            checked={isDefault}
            onChange={(e) => setIsDefault(e.currentTarget.checked)}
          />
        )}
        {save.error && !fieldError(save.error, 'name', 'text') && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group gap="xs">
          <Button
            type="submit"
            size="xs"
            disabled={!dirty || !name.trim() || !text.trim()}
            loading={save.isPending}
          >
            {prompt ? 'Save' : 'Add prompt'}
          </Button>
          {!prompt && (
            <Button size="xs" variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
          {prompt && !prompt.isDefault && (
            <ConfirmButton
              size="xs"
              title="Delete prompt?"
              message={`The prompt "${prompt.name}" is deleted.`}
              confirmLabel="Delete"
              onConfirm={() =>
                deleteAndRefresh(
                  () => api.delete('/prompts/{id}', { path: { id: prompt.id } }),
                  'Prompt deleted',
                  () => queryClient.invalidateQueries({ queryKey: promptKeys.all }),
                )
              }
            >
              Delete
            </ConfirmButton>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
