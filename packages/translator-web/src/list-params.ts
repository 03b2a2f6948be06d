import { useSearchParams } from 'react-router';

export const SEARCH_FIELDS = [
  { value: 'all', label: 'Everywhere' },
  { value: 'key', label: 'Key' },
  { value: 'value', label: 'Translation' },
  { value: 'context', label: 'Context' },
  { value: 'url', label: 'URL' },
] as const;

/** The value when it is one of those allowed, else undefined: an address can say anything. */
const oneOf = <T extends string>(value: string, allowed: readonly T[]): T | undefined =>
  allowed.find((item) => item === value);

/** The phrase status a `status` filter names (`all` and unknown values name none). */
export const phraseStatusParam = (value: string) => oneOf(value, ['pending', 'approved', 'trash'] as const);

/** The search field a `field` filter names. */
export const searchFieldParam = (value: string) =>
  oneOf(
    value,
    SEARCH_FIELDS.map((field) => field.value),
  );

/** Reads and writes list filters in the address, so a filtered view can be linked and reloaded. */
export function useParam(name: string, fallback = '') {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? fallback;
  const set = (next: string) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === fallback || next === '') copy.delete(name);
        else copy.set(name, next);
        if (name !== 'page') copy.delete('page');
        return copy;
      },
      { replace: true },
    );
  return [value, set] as const;
}

/** The list page in the address (`page`, counted from 1; other filters reset it). */
export function usePageParam() {
  const [text, set] = useParam('page', '1');
  return [Math.max(1, Number(text) || 1), (page: number) => set(String(page))] as const;
}
