// The module lazy-modal.tsx fetches on demand.
export { Modal } from '@mantine/core';
