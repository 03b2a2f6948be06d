import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showError } from '../api/errors.ts';
import { ConfirmAction } from './ConfirmAction.tsx';

/** A field the form marks invalid (aria-invalid), with what its label and message say. */
interface Problem {
  label: string;
  message: string;
  target: HTMLElement;
}

interface GuidedForm {
  values: object;
  errors: Record<string, unknown>;
  setErrors(errors: Record<string, string>): void;
}

const textOf = (id: string) => document.getElementById(id)?.textContent?.trim() ?? '';

function labelOf(field: HTMLElement): string {
  const label =
    (field as HTMLInputElement).labels?.[0]?.textContent ?? field.getAttribute('aria-label') ?? '';
  // Mantine appends the required asterisk to the label.
  return label.replace(/\s*\*$/, '').trim() || 'A field';
}

/** The form's invalid fields in page order; the message is the first element the field names. */
function problemsIn(form: HTMLFormElement): Problem[] {
  return [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].map((target) => {
    const [messageId] = (target.getAttribute('aria-describedby') ?? '').split(/\s+/);
    return { target, label: labelOf(target), message: messageId ? textOf(messageId) : '' };
  });
}

function bringTo(target: HTMLElement) {
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

/**
 * Guides a person to what a refused submit needs: after `failed()` (the form's own validation or the
 * server's answer placed on the fields) it scrolls to and focuses the first invalid field, and
 * `summary` lists them all for a `FormErrorSummary` beside the submit button.
 */
export function useFormGuide(form: GuidedForm) {
  const ref = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const focused = useRef(0);
  const [summary, setSummary] = useState<Problem[]>([]);
  const errorKey = JSON.stringify(form.errors);

  useEffect(() => {
    if (!ref.current) return;
    const problems = problemsIn(ref.current);
    setSummary(problems);
    if (attempt !== focused.current && problems[0]) bringTo(problems[0].target);
    focused.current = attempt;
  }, [errorKey, attempt]);

  const failed = useCallback(() => setAttempt((count) => count + 1), []);
  return {
    ref,
    summary,
    failed,
    /** Places an API error on the fields it names (or notifies it), then guides to them. */
    showError: (error: unknown, aliases?: Record<string, string>) => {
      showError(error, form, aliases);
      failed();
    },
  };
}

/** The invalid fields of a guided form, each a link that brings it into view. */
export function FormErrorSummary({ problems }: { problems: Problem[] }) {
  if (!problems.length) return null;
  return (
    <Alert color="red" variant="light" py={6} role="alert" data-testid="form-error-summary">
      <Text size="sm" fw={600}>
        {problems.length === 1 ? '1 field needs attention' : `${problems.length} fields need attention`}
      </Text>
      <Stack gap={2} component="ul" m={0} pl="md">
        {problems.map((problem, index) => (
          <Text key={index} size="sm" component="li">
            <Anchor component="button" type="button" size="sm" onClick={() => bringTo(problem.target)}>
              {problem.label}
            </Anchor>
            {problem.message ? `: ${problem.message}` : null}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** The end of a form in a dialog: what still needs attention, Cancel and Save. */
export function DialogFormActions({
  problems,
  saving,
  onCancel,
  confirmation,
}: {
  problems: Problem[];
  saving: boolean;
  onCancel: () => void;
  /** A question to answer before saving: it stands in for the buttons, which stay mounted, hidden. */
  confirmation?: { question: string; onConfirm: () => void; onCancel: () => void } | null;
}) {
  return (
    <>
      {confirmation ? (
        <ConfirmAction
          question={confirmation.question}
          confirmLabel="Save"
          onConfirm={confirmation.onConfirm}
          onCancel={confirmation.onCancel}
          pending={saving}
        />
      ) : null}
      <Group justify="flex-end" align="flex-start" display={confirmation ? 'none' : undefined}>
        <FormErrorSummary problems={problems} />
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          Save
        </Button>
      </Group>
    </>
  );
}
