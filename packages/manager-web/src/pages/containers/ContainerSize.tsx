import { Anchor, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { useEffectiveResources } from '../../api/resource-requests.ts';
import { Field } from '../../components/Field.tsx';

/** Whose size: the container of this hostname and owner on the site. */
interface SizeOf {
  siteId: number;
  hostname: string;
  owner: string;
}

const number = (value: number) => value.toLocaleString('en-US');

/**
 * A container's CPUs, memory and disk. The API sizes a container from its owner's approved resource
 * requests for that hostname (else the defaults), not from its create or update body, so this reads
 * them there and says where to ask for more.
 */
export function ContainerSize({ siteId, hostname, owner }: SizeOf) {
  const size = useEffectiveResources(siteId, hostname, owner);
  if (size.isPending) return <Text size="sm">Reading the size…</Text>;
  if (size.isError) return <Text size="sm">The size could not be read: {size.error.message}</Text>;
  const { cpus, memory, swap, rootfs } = size.data;
  return (
    <Group gap="xl" align="flex-start" wrap="wrap" data-testid="container-size">
      <Field label="CPU">{`${number(cpus)} ${cpus === 1 ? 'core' : 'cores'}`}</Field>
      <Field label="Memory">{`${number(memory)} MB${swap ? ` + ${number(swap)} MB swap` : ''}`}</Field>
      <Field label="Disk">{`${number(rootfs)} GB`}</Field>
      <Text size="xs" c="dimmed" maw={360}>
        Set by approved{' '}
        <Anchor component={Link} to="/resource-requests" size="xs">
          resource requests
        </Anchor>{' '}
        for this hostname, else the defaults.
      </Text>
    </Group>
  );
}

/** The size a container about to be created gets, read again once the hostname stops changing. */
export function NewContainerSize({ siteId, hostname, owner }: SizeOf) {
  const [settled] = useDebouncedValue(hostname, 400);
  return settled ? (
    <ContainerSize siteId={siteId} hostname={settled} owner={owner} />
  ) : (
    <Text size="sm">Its CPU, memory and disk show here once the hostname is a valid DNS label.</Text>
  );
}
