/** Containers of a site: their query keys, reads and the writes that invalidate them. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';

export const containerKeys = {
  /** Every read of a site's containers (lists, details, jobs, collaborators). */
  site: (siteId: number) => ['sites', siteId, 'containers'] as const,
  list: (siteId: number, owners: string[]) => [...containerKeys.site(siteId), 'list', { owners }] as const,
  detail: (siteId: number, id: number) => [...containerKeys.site(siteId), id] as const,
  jobs: (siteId: number, id: number) => [...containerKeys.detail(siteId, id), 'jobs'] as const,
  collaborators: (siteId: number, id: number) =>
    [...containerKeys.detail(siteId, id), 'collaborators'] as const,
  newForm: (siteId: number) => [...containerKeys.site(siteId), 'new'] as const,
  onNode: (siteId: number, nodeId: number) => [...containerKeys.site(siteId), 'node', nodeId] as const,
};

/** The site's containers (of these owners, when named); read again often while one is being created. */
export const useContainers = (siteId: number, owners: string[] = []) =>
  useQuery({
    ...containersQuery(siteId, owners),
    refetchInterval: (q) =>
      q.state.status === 'error' ? false : q.state.data?.some((c) => c.status === 'creating') ? 3000 : 30_000,
  });

/** The read of a site's containers, for useContainers and for pages that read several sites' at once. */
export const containersQuery = (siteId: number, owners: string[] = []) => ({
  queryKey: containerKeys.list(siteId, owners),
  queryFn: () => api.get('/sites/{siteId}/containers', { path: { siteId }, query: { user: owners } }),
});

/** The containers a node holds. */
/** The containers on one node (for usePrefetchQuery too). */
export const nodeContainersQuery = (siteId: number, nodeId: number) =>
  queryOptions({
    queryKey: containerKeys.onNode(siteId, nodeId),
    queryFn: () => api.get('/sites/{siteId}/containers', { path: { siteId }, query: { nodeId } }),
  });

export const useNodeContainers = (siteId: number, nodeId: number) =>
  useQuery(nodeContainersQuery(siteId, nodeId));

export const useContainer = (siteId: number, id: number) =>
  useQuery({
    queryKey: containerKeys.detail(siteId, id),
    queryFn: () => api.get('/sites/{siteId}/containers/{id}', { path: { siteId, id } }),
    refetchInterval: (q) => (q.state.data?.status === 'creating' ? 3000 : false),
  });

export const useContainerJobs = (siteId: number, id: number) =>
  useQuery({
    queryKey: containerKeys.jobs(siteId, id),
    queryFn: () => api.get('/sites/{siteId}/containers/{id}/jobs', { path: { siteId, id } }),
  });

/** What the create form offers on this site (nodes, templates, domains…). */
export const useNewContainerForm = (siteId: number) =>
  useQuery({
    queryKey: containerKeys.newForm(siteId),
    queryFn: () => api.get('/sites/{siteId}/containers/new', { path: { siteId } }),
  });

/** A callback that marks every read of the site's containers stale. */
export function useInvalidateContainers(siteId: number) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: containerKeys.site(siteId) });
}

/** Restarts a container of the site (its id), answering the restart job. */
export function useRestartContainer(siteId: number) {
  const invalidate = useInvalidateContainers(siteId);
  return useMutation({
    mutationFn: (id: number) =>
      api.put('/sites/{siteId}/containers/{id}', { path: { siteId, id }, body: { restart: true } }),
    onSettled: invalidate,
  });
}

/** Starts or stops a container of the site, answering the job that does it. */
export function useContainerPower(siteId: number) {
  const invalidate = useInvalidateContainers(siteId);
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'start' | 'stop' }) =>
      action === 'start'
        ? api.post('/sites/{siteId}/containers/{id}/start', { path: { siteId, id } })
        : api.post('/sites/{siteId}/containers/{id}/stop', { path: { siteId, id } }),
    onSettled: invalidate,
  });
}

/** Queues a command run in the container (owner or administrator); its job's output is the command's. */
export const useContainerExec = (siteId: number, id: number) =>
  useMutation({
    mutationFn: (body: BodyOf<'post', '/sites/{siteId}/containers/{id}/exec'>) =>
      api.post('/sites/{siteId}/containers/{id}/exec', { path: { siteId, id }, body }),
  });

/** Deletes a container of the site (its id) on its node, then its record. */
export function useDeleteContainer(siteId: number) {
  const invalidate = useInvalidateContainers(siteId);
  return useMutation({
    mutationFn: (id: number) => api.delete('/sites/{siteId}/containers/{id}', { path: { siteId, id } }),
    onSettled: invalidate,
  });
}

export function useRetryCreate(siteId: number) {
  const invalidate = useInvalidateContainers(siteId);
  return useMutation({
    mutationFn: (id: number) => api.post('/sites/{siteId}/containers/{id}/retry', { path: { siteId, id } }),
    onSuccess: invalidate,
  });
}

/** Who a container is shared with; starts from the list its container answer holds. */
export const useCollaborators = (siteId: number, container: { id: number; collaborators: string[] }) =>
  useQuery({
    queryKey: containerKeys.collaborators(siteId, container.id),
    queryFn: () =>
      api.get('/sites/{siteId}/containers/{id}/collaborators', { path: { siteId, id: container.id } }),
    initialData: { collaborators: container.collaborators },
    staleTime: 0,
  });

/** Shares a container with a user (`share`) or stops sharing it (`unshare`); answers who remains. */
export function useSharing(siteId: number, id: number) {
  const client = useQueryClient();
  const invalidate = useInvalidateContainers(siteId);
  const onSuccess = (data: { collaborators: string[] }) => {
    client.setQueryData(containerKeys.collaborators(siteId, id), data);
    invalidate();
  };
  const share = useMutation({
    mutationFn: (username: string) =>
      api.post('/sites/{siteId}/containers/{id}/collaborators', { path: { siteId, id }, body: { username } }),
    onSuccess,
  });
  const unshare = useMutation({
    mutationFn: (username: string) =>
      api.delete('/sites/{siteId}/containers/{id}/collaborators/{username}', {
        path: { siteId, id, username },
      }),
    onSuccess,
  });
  return { share, unshare };
}
