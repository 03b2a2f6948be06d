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
