/** The manager's error message out of an answer's text (its `{error:{message}}`), else the text as it is. */
export function managerMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text;
  }
}
