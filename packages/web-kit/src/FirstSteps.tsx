import { Button, Group, List, Paper, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { useId, type ReactNode } from 'react';

export interface FirstStep {
  done: boolean;
  label: ReactNode;
}

/**
 * A newcomer's first steps as a checklist in a region named `title`: each ticked once it is so (its
 * `data-step-state` "done", else "todo"; a screen reader hears "Done:" or "To do:"), with a Dismiss
 * button when `onDismiss` is given. The caller decides when the list is shown at all.
 */
export function FirstSteps({
  title,
  steps,
  onDismiss,
  testId,
}: {
  title: string;
  steps: FirstStep[];
  onDismiss?: () => void;
  testId?: string;
}) {
  const titleId = useId();
  return (
    <Paper component="section" withBorder p="md" mb="md" data-testid={testId} aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="xs">
        <Title order={2} size="h4" id={titleId}>
          {title}
        </Title>
        {onDismiss ? (
          <Button variant="subtle" size="compact-sm" onClick={onDismiss}>
            Dismiss
          </Button>
        ) : null}
      </Group>
      <List spacing={6} size="sm" center>
        {steps.map((step, index) => (
          <List.Item
            key={index}
            data-step-state={step.done ? 'done' : 'todo'}
            icon={
              <ThemeIcon size={20} radius="xl" color={step.done ? 'green' : 'gray'} variant="light">
                <Text size="xs" fw={700} aria-hidden="true">
                  {step.done ? '✓' : index + 1}
                </Text>
              </ThemeIcon>
            }
          >
            <VisuallyHidden>{step.done ? 'Done: ' : 'To do: '}</VisuallyHidden>
            {step.label}
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
