/** API keys and agent tokens: the calls and query key the credentials panel lists, creates and removes with. */
import { api } from './client.ts';

export const credentialKeys = {
  apiKeys: ['apikeys'],
  agentTokens: (siteId: number) => ['sites', siteId, 'agent-tokens'],
};

/** The caller's API keys. */
export const apiKeyCalls = {
  list: () => api.get('/apikeys'),
  create: (body: { description: string }) => api.post('/apikeys', { body }),
  remove: (id: string) => api.delete('/apikeys/{id}', { path: { id } }),
  queryKey: credentialKeys.apiKeys,
};

/** A site's agent tokens. */
export const agentTokenCalls = (siteId: number) => ({
  list: () => api.get('/sites/{siteId}/agent-tokens', { path: { siteId } }),
  create: (body: { description: string }) =>
    api.post('/sites/{siteId}/agent-tokens', { path: { siteId }, body }),
  remove: (id: string) => api.delete('/sites/{siteId}/agent-tokens/{id}', { path: { siteId, id } }),
  queryKey: credentialKeys.agentTokens(siteId),
});
