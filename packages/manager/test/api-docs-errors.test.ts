import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManager, type TestManager } from './helpers.ts';

/**
 * The endpoint-specific errors of the contract (container-manager-api.md, its Endpoints tables), route
 * by route: the OpenAPI document must list each under its status, so a client generated from it knows
 * every answer the contract promises.
 */
const CONTRACT_ERRORS: Record<string, Record<number, string[]>> = {
  'POST /auth/login': {
    400: ['invalid_request'],
    401: ['invalid_credentials'],
    403: ['oidc_enabled', 'account_inactive'],
  },
  'GET /auth/oidc/login': { 404: ['oidc_disabled'] },
  'GET /auth/oidc/callback': { 404: ['oidc_disabled'] },
  'POST /auth/register': {
    400: ['invalid_request', 'invalid_invite', 'email_mismatch'],
    403: ['oidc_enabled'],
  },
  'GET /auth/register/invite/{token}': { 403: ['oidc_enabled'], 404: ['invalid_invite'] },
  'POST /auth/password-reset/request': { 400: ['invalid_request'] },
  'GET /auth/password-reset/{token}': { 404: ['invalid_token'] },
  'POST /auth/password-reset/{token}': {
    400: ['invalid_request', 'mismatch', 'weak_password'],
    404: ['invalid_token'],
  },
  'POST /sites': { 403: ['forbidden'] },
  'DELETE /sites/{id}': { 403: ['forbidden'], 404: ['not_found'], 409: ['has_nodes'] },
  'GET /sites/{siteId}/containers': { 404: ['site_not_found'] },
  'POST /sites/{siteId}/containers': {
    400: ['invalid_request', 'invalid_service'],
    403: ['forbidden'],
    404: ['site_not_found', 'user_not_found'],
    409: ['no_node', 'no_nvidia_node'],
  },
  'GET /sites/{siteId}/containers/new': { 404: ['site_not_found'] },
  'GET /sites/{siteId}/containers/metadata': {
    400: ['invalid_request'],
    404: ['image_not_found'],
    502: ['registry_error'],
  },
  'PUT /sites/{siteId}/containers/{id}': { 400: ['invalid_request'], 403: ['forbidden'], 404: ['not_found'] },
  'DELETE /sites/{siteId}/containers/{id}': {
    403: ['forbidden'],
    404: ['not_found'],
    409: ['hostname_mismatch'],
  },
  'POST /sites/{siteId}/containers/{id}/collaborators': {
    400: ['invalid_request'],
    403: ['forbidden'],
    404: ['user_not_found'],
    409: ['already_owner'],
  },
  'DELETE /sites/{siteId}/containers/{id}/collaborators/{username}': {
    403: ['forbidden'],
    404: ['not_found'],
  },
  'GET /sites/{siteId}/nodes': { 404: ['site_not_found'] },
  'POST /sites/{siteId}/nodes': { 400: ['invalid_node_type', 'invalid_engine_host'], 403: ['forbidden'] },
  'POST /sites/{siteId}/nodes/import': {
    400: ['invalid_request'],
    403: ['forbidden'],
    502: ['import_failed'],
  },
  'PUT /sites/{siteId}/nodes/{id}': {
    400: ['invalid_node_type', 'invalid_engine_host'],
    403: ['forbidden'],
    404: ['not_found'],
  },
  'DELETE /sites/{siteId}/nodes/{id}': { 403: ['forbidden'], 404: ['not_found'], 409: ['has_containers'] },
  'GET /sites/{siteId}/nodes/{id}/storages': { 404: ['site_not_found'] },
  'GET /sites/{siteId}/nodes/{id}/stats': { 404: ['not_found'] },
  'POST /agents': { 422: ['validation_failed'] },
  'POST /services/{id}/last-access': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'POST /notifications': { 400: ['invalid_request'], 401: ['unauthorized'], 403: ['forbidden'] },
  'POST /notifications/{id}/ack': { 401: ['unauthorized'], 404: ['not_found'] },
  'GET /external-domains': { 403: ['forbidden'] },
  'GET /sites/{siteId}/kept-volumes': { 403: ['forbidden'], 404: ['site_not_found'] },
  'DELETE /sites/{siteId}/kept-volumes/{id}': {
    403: ['forbidden'],
    404: ['site_not_found', 'not_found'],
    409: ['path_not_removable', 'volume_in_use'],
  },
};

describe('manager API document: the contract’s errors', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
  });
  afterAll(async () => {
    await test?.close();
  });

  it('lists every endpoint-specific error code of the contract under its route and status', async () => {
    const document = (await test.client().get('/docs/json')).body;
    const missing: string[] = [];
    for (const [route, statuses] of Object.entries(CONTRACT_ERRORS)) {
      const [method, path] = route.split(' ');
      const responses = document.paths[path!]?.[method!.toLowerCase()]?.responses;
      expect(responses, `${route} is in the document`).toBeDefined();
      for (const [status, codes] of Object.entries(statuses)) {
        const listed: string[] =
          responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? [];
        for (const code of codes) if (!listed.includes(code)) missing.push(`${route} ${status} ${code}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
