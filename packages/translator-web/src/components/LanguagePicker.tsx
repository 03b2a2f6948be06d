import { MultiSelect } from '@mantine/core';
import { useState } from 'react';
import { useAvailableLanguages } from '../data/project.ts';

/** What the server accepts as a language code (its LANG_PATTERN). */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/;

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
  const named = new Map((available.data ?? []).map((l) => [l.code, l.name]));
  const options = [
    ...(available.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` })),
    ...value.filter((code) => !named.has(code)).map((code) => ({ value: code, label: code })),
  ];
  const typed = search.trim();
  if (LANGUAGE_CODE.test(typed) && !options.some((o) => o.value.toLowerCase() === typed.toLowerCase()))
    options.push({ value: typed, label: `Use the code “${typed}”` });
  return (
    <MultiSelect
      label="Target languages"
      description="Search by name or code. A language not listed: type its code (such as gsw or sr-Latn)."
      data={options}
      value={value}
      onChange={(codes) => {
        onChange(codes);
        setSearch('');
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage="No language by that name: type its code instead"
      hidePickedOptions
      clearable
      error={error}
    />
  );
}
