import { notifications } from '@mantine/notifications';

/** The message a person should read for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** How many times each visible toast was raised: the same message again counts up, it does not stack. */
const visible = new Map<string, number>();

function toast(color: 'red' | 'green', message: string, title?: string) {
  const id = `${color}\n${title ?? ''}\n${message}`;
  const count = (visible.get(id) ?? 0) + 1;
  visible.set(id, count);
  const shown = {
    id,
    color,
    title,
    message: count > 1 ? `${message} (×${count})` : message,
    autoClose: color === 'red' ? 8000 : 4000,
    onClose: () => visible.delete(id),
    // Under a title Mantine draws the message in gray 6, 3.3:1 on white; the theme's dimmed reads at AA.
    styles: { description: { color: 'var(--mantine-color-dimmed)' } },
  };
  if (count > 1) notifications.update(shown);
  else notifications.show(shown);
}

export function notifyError(error: unknown, title: string) {
  toast('red', errorMessage(error), title);
}

export function notifySuccess(message: string) {
  toast('green', message);
}
