import { Select } from '@mantine/core';
import { useSites } from '../api/fleet.ts';

export function SitePicker({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (siteId: number) => void;
}) {
  const sites = useSites();
  if (!sites.data || sites.data.length < 2) return null;
  return (
    <Select
      aria-label="Site"
      size="sm"
      w={200}
      allowDeselect={false}
      value={value === undefined ? null : String(value)}
      data={sites.data.map((site) => ({ value: String(site.id), label: site.name }))}
      onChange={(next) => next && onChange(Number(next))}
    />
  );
}
