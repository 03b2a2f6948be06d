import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';

export interface KeyValueRow {
  key: string;
  value: string;
  description?: string;
}

/** Rows of key / value (and optionally description) inputs with add and remove. */
export function KeyValueEditor<T extends KeyValueRow>({
  rows,
  onChange,
  withDescription,
  errors = {},
  prefix,
  addLabel = 'Add variable',
  empty = 'None.',
}: {
  rows: T[];
  onChange: (rows: T[]) => void;
  withDescription?: boolean;
  errors?: Record<string, unknown>;
  prefix: string;
  addLabel?: string;
  empty?: string;
}) {
  const update = (index: number, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const error = (index: number, field: string) => {
    const value = errors[`${prefix}.${index}.${field}`];
    return typeof value === 'string' ? value : undefined;
  };
  return (
    <Stack gap="xs">
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : null}
      {rows.map((row, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            aria-label={`Name ${index + 1}`}
            placeholder="NAME"
            value={row.key}
            error={error(index, 'key')}
            onChange={(event) => update(index, { key: event.currentTarget.value })}
            style={{ flex: '1 1 140px' }}
            ff="monospace"
          />
          <TextInput
            aria-label={`Value ${index + 1}`}
            placeholder="value"
            value={row.value}
            error={error(index, 'value')}
            onChange={(event) => update(index, { value: event.currentTarget.value })}
            style={{ flex: '2 1 180px' }}
          />
          {withDescription ? (
            <TextInput
              aria-label={`Description ${index + 1}`}
              placeholder="description"
              value={row.description ?? ''}
              onChange={(event) => update(index, { description: event.currentTarget.value })}
              style={{ flex: '2 1 180px' }}
            />
          ) : null}
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={`Remove ${row.key || `row ${index + 1}`}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ✕
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          size="xs"
          variant="light"
          onClick={() =>
            onChange([...rows, { key: '', value: '', ...(withDescription ? { description: '' } : {}) } as T])
          }
        >
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
