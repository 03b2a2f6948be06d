import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from './lazy-modal.tsx';
import { useState, type ReactNode } from 'react';

export interface ConfirmButtonProps {
  /** The button's label. */
  children: ReactNode;
  title: string;
  /** What the action does, said in the dialog. */
  message: ReactNode;
  /** The dialog's confirming button (default: the button's label). */
  confirmLabel?: ReactNode;
  /** The action; the dialog closes once it is over, whether it worked or not (it reports its own errors). */
  onConfirm: () => Promise<unknown> | void;
  color?: string;
  variant?: string;
  size?: string;
  disabled?: boolean;
  /** Shows the action underway on the button itself. */
  loading?: boolean;
  ariaLabel?: string;
}

/** A button that asks before doing something destructive. */
export function ConfirmButton(props: ConfirmButtonProps) {
  const { color = 'red', variant = 'light', size = 'sm' } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button
        color={color}
        variant={variant}
        size={size}
        disabled={props.disabled}
        loading={props.loading}
        aria-label={props.ariaLabel}
        onClick={() => setOpen(true)}
      >
        {props.children}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.title} centered>
        <Stack>
          <Text size="sm" component="div">
            {props.message}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={color} loading={busy} data-autofocus onClick={confirm}>
              {props.confirmLabel ?? props.children}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
