import { Stack, Text } from '@mantine/core';
import { useDomainCertificates } from '../../api/external-domains.ts';
import type { DomainCertificate } from '../../api/types.ts';

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

function Certificate({ certificate }: { certificate: DomainCertificate }) {
  const { hostname, notAfter, lastError, nextAttempt } = certificate;
  return (
    <div data-testid={`certificate-${hostname}`}>
      <Text size="sm">{hostname}</Text>
      <Text size="xs" c="dimmed">
        {notAfter ? `expires ${day(notAfter)}` : 'no certificate yet'}
      </Text>
      {lastError ? (
        <Text size="xs" c="red" role="alert">
          Failing: {lastError}
          {nextAttempt ? ` (next attempt ${new Date(nextAttempt).toLocaleString()})` : ''}
        </Text>
      ) : null}
    </div>
  );
}

/** Each certificate of the domain's services: its expiry and, when failing, why. */
export function DomainCertificates({ domainId }: { domainId: number }) {
  const certificates = useDomainCertificates(domainId);
  if (!certificates.data?.length) return <Text size="sm">—</Text>;
  return (
    <Stack gap={4}>
      {certificates.data.map((certificate) => (
        <Certificate key={`${certificate.siteId}-${certificate.hostname}`} certificate={certificate} />
      ))}
    </Stack>
  );
}
