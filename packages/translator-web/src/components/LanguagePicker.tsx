import { MultiSelect, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useRef, useState } from 'react';
import { useAvailableLanguages } from '../data/project.ts';

/** What the server accepts as a language code (its LANG_PATTERN). */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/;

/**
 * Languages matching the search, best first: the code typed exactly (fr → French, not Afrikaans), then
 * names and codes starting with it, then the rest containing it.
 */
const rankLanguages: OptionsFilter = ({ options, search, limit }) => {
  const typed = search.trim().toLowerCase();
  const rank = ({ value, label }: ComboboxItem) => {
    const code = value.toLowerCase();
    const name = label.toLowerCase();
    if (code === typed) return 0;
    if (code.startsWith(typed) || name.startsWith(typed)) return 1;
    return name.includes(typed) ? 2 : undefined;
  };
  return (options as ComboboxItem[])
    .map((option) => ({ option, rank: rank(option) }))
    .filter((entry): entry is { option: ComboboxItem; rank: number } => entry.rank !== undefined)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.option);
};

/**
 * The project's target languages, searched by name or code; a well-formed code the list does not name
 * (gsw, sr-Latn) is offered as typed.
 */
export function LanguagePicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (codes: string[]) => void;
  error?: string | undefined;
}) {
  const available = useAvailableLanguages();
  const [search, setSearch] = useState('');
  /** Enter was pressed in the empty field: Mantine picks the highlighted first language then, not we. */
  const blankEnter = useRef(false);
  const named = new Map((available.data ?? []).map((l) => [l.code, l.name]));
  const options = [
    ...(available.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` })),
    ...value.filter((code) => !named.has(code)).map((code) => ({ value: code, label: code })),
  ];
  const typed = search.trim();
  if (LANGUAGE_CODE.test(typed) && !options.some((o) => o.value.toLowerCase() === typed.toLowerCase()))
    options.push({ value: typed, label: `Use the code “${typed}”` });
  return (
    // Enter adds the highlighted language; it never submits the form around the picker (Mantine's own
    // handler has run by the time the key bubbles here).
    <div
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
    >
      <MultiSelect
        label="Target languages"
        description="Search by name or code. A language not listed: type its code (such as gsw or sr-Latn)."
        data={options}
        value={value}
        onChange={(codes) => {
          if (blankEnter.current && codes.length > value.length) return;
          onChange(codes);
          setSearch('');
        }}
        searchable
        filter={rankLanguages}
        selectFirstOptionOnChange
        searchValue={search}
        onSearchChange={setSearch}
        onKeyDown={(event) => {
          // The pick happens within this key's handling, so the mark lasts until then only.
          blankEnter.current = event.key === 'Enter' && !search.trim();
          queueMicrotask(() => (blankEnter.current = false));
        }}
        nothingFoundMessage="No language by that name: type its code instead"
        hidePickedOptions
        clearable
        error={error}
      />
    </div>
  );
}
