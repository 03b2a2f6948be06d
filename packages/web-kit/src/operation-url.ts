type QueryValue = string | number | boolean | undefined | null | string[];

export interface Init {
  path?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

/** A query string from defined, non-empty values; arrays in bracket notation (user[0]=a). */
export function queryString(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) value.forEach((item, index) => search.append(`${key}[${index}]`, item));
    else if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The URL of a call below the API's prefix: the path's `{name}` placeholders filled in (encoded), then the query. */
export function operationUrl(path: string, init: Init = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(init.path?.[name])),
  );
  return filled + (init.query ? queryString(init.query) : '');
}
