import { TextInput, type TextInputProps } from '@mantine/core';

/** A node's pinned certificate fingerprint (SHA-256, as Proxmox VE shows it). */
export function FingerprintInput(props: TextInputProps) {
  return (
    <TextInput
      label="Certificate fingerprint (SHA-256)"
      description="Pin the certificate: only this one is accepted, whatever its CA. Proxmox VE shows it under the node's System → Certificates."
      placeholder="AB:CD:EF:…"
      autoComplete="off"
      spellCheck={false}
      {...props}
    />
  );
}
