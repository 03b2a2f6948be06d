import { notifications } from '@mantine/notifications';

/** The message a person should read for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function notifyError(error: unknown, title: string) {
  notifications.show({ color: 'red', title, message: errorMessage(error) });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}
