import type { ModalProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

const MantineModal = lazy(() => import('./mantine-modal.ts').then((module) => ({ default: module.Modal })));

/**
 * Mantine's Modal, fetched the first time one opens (3 kB compressed, more where no other component of
 * the page shares its scroll area and floating-ui): it stays out of the first page's script.
 */
export function Modal(props: ModalProps) {
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <MantineModal {...props} />
    </Suspense>
  );
}
