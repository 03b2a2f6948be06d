import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client.ts';

export interface ConfirmActionProps {
  /** What will happen, naming whom it happens to. */
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  confirmDisabled?: boolean;
  /** Why the server refused the action, shown beside the buttons. */
  refusal?: string | null;
  children?: ReactNode;
}

/** The buttons of a destructive action: Cancel takes the focus, so Enter or Space never destroys by accident. */
export function ConfirmAction(props: ConfirmActionProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <Stack>
      {typeof props.question === 'string' ? <Text size="sm">{props.question}</Text> : props.question}
      {props.children}
      <Refusal reason={props.refusal} />
      <Group justify="flex-end">
        <Button variant="default" ref={cancel} data-autofocus onClick={props.onCancel}>
          Cancel
        </Button>
        <Button
          color="red"
          loading={props.pending ?? false}
          disabled={props.confirmDisabled ?? false}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** Why the server refused an action, to be placed beside that action's button. */
export function Refusal({ reason }: { reason: string | null | undefined }) {
  return reason ? (
    <Alert color="red" role="alert" data-testid="action-refused">
      {reason}
    </Alert>
  ) : null;
}

/** ConfirmAction in a dialog of its own. */
export function ConfirmDialog({
  opened,
  title,
  ...props
}: ConfirmActionProps & { opened: boolean; title: string }) {
  return (
    <Modal opened={opened} onClose={props.onCancel} title={title} centered>
      {opened ? <ConfirmAction {...props} /> : null}
    </Modal>
  );
}

/** Why the server keeps the last active administrator (409 last_admin), or null for other errors. */
export function lastAdminRefusal(error: unknown): string | null {
  return error instanceof ApiError && error.code === 'last_admin' ? error.message : null;
}

/**
 * A form's save that may first ask about a loss of rights (`ask`), and that the server may refuse as
 * the last administrator's (`refusal`, shown beside the buttons); other errors go to the form's guide.
 */
export function useRightsSave<Pending>(guide: { showError: (error: unknown) => void }) {
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  return {
    confirming,
    refusal,
    ask: (pending: Pending) => setConfirming(pending),
    cancel: () => setConfirming(null),
    /** At each submission: the last refusal no longer stands. */
    start: () => setRefusal(null),
    onError: (error: unknown) => {
      setConfirming(null);
      const reason = lastAdminRefusal(error);
      setRefusal(reason);
      if (!reason) guide.showError(error);
    },
  };
}
