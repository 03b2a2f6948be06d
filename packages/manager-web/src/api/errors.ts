import { notifications } from '@mantine/notifications';
import { errorMessage, notifyError, notifySuccess } from '@app/web-kit';
import { ApiError } from './client.ts';

export { errorMessage };

interface FormLike {
  values: object;
  setErrors(errors: Record<string, string>): void;
}

/**
 * Shows an API error where it belongs: next to the form fields named in `error.fields` (a field is
 * matched by its full path or its first segment), otherwise as a notification with `error.message`.
 */
export function showError(error: unknown, form?: FormLike, aliases: Record<string, string> = {}) {
  if (error instanceof ApiError && error.fields && form) {
    const known = new Set(Object.keys(form.values));
    const placed: Record<string, string> = {};
    const rest: string[] = [];
    for (const [field, message] of Object.entries(error.fields)) {
      const name = aliases[field] ?? field.replace(/^body\./, '');
      if (known.has(name) || known.has(name.split('.')[0] ?? '')) placed[name] = message;
      else rest.push(`${field}: ${message}`);
    }
    if (Object.keys(placed).length) {
      form.setErrors(placed);
      if (!rest.length) return;
    }
    if (rest.length) {
      notifications.show({ color: 'red', title: error.message, message: rest.join('; ') });
      return;
    }
  }
  notifyError(error, 'Request failed');
}

export const showSuccess = notifySuccess;
