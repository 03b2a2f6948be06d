/** External domains: their query keys, reads and writes. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import { containerKeys } from './containers.ts';
import type { ExternalDomain, NewContainerForm } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const domainKeys = {
  all: ['external-domains'] as const,
  certificates: (id: number) => ['external-domains', id, 'certificates'] as const,
};

export const useExternalDomains = () =>
  useQuery({ queryKey: domainKeys.all, queryFn: () => api.get('/external-domains') });

/** The ACME certificates of a domain's services, as the site agents last reported them. */
export const useDomainCertificates = (id: number) =>
  useQuery({
    queryKey: domainKeys.certificates(id),
    queryFn: () => api.get('/external-domains/{id}/certificates', { path: { id } }),
  });

type DomainBody = BodyOf<'post', '/external-domains'>;

/** Creates a domain (`domain` null) or changes one. */
export const useSaveDomain = (
  domain: ExternalDomain | null,
  callbacks?: WriteCallbacks<unknown, DomainBody>,
) =>
  useWrite(
    (body: DomainBody) =>
      domain
        ? api.put('/external-domains/{id}', { path: { id: domain.id }, body })
        : api.post('/external-domains', { body }),
    [domainKeys.all],
    callbacks,
  );

export const useDeleteDomain = (callbacks?: WriteCallbacks<unknown, ExternalDomain>) =>
  useWrite(
    (domain: ExternalDomain) => api.delete('/external-domains/{id}', { path: { id: domain.id } }),
    [domainKeys.all],
    callbacks,
  );

/**
 * Adds a domain (its name) to the site from the create form; the form's offer gains it at once, so
 * what was typed there stays.
 */
export function useAddSiteDomain(siteId: number, callbacks?: WriteCallbacks<ExternalDomain, string>) {
  const client = useQueryClient();
  return useWrite(
    (name: string) => api.post('/external-domains', { body: { name, siteId } }),
    [domainKeys.all],
    {
      ...callbacks,
      onSuccess: (domain, ...rest) => {
        client.setQueryData<NewContainerForm>(
          containerKeys.newForm(siteId),
          (form) =>
            form && {
              ...form,
              externalDomains: [...form.externalDomains, { id: domain.id, name: domain.name, siteId }],
            },
        );
        return callbacks?.onSuccess?.(domain, ...rest);
      },
    },
  );
}
