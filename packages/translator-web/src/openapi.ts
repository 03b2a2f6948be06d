// Generated from the translator's OpenAPI document by `npm run generate`: do not edit.

export interface paths {
  '/openapi.json': {
    get: {
      responses: {
        200: unknown;
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/openapi.yaml': {
    get: {
      responses: {
        200: unknown;
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/livez': {
    get: {
      responses: {
        200: {
          status: string;
        };
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/readyz': {
    get: {
      responses: {
        200: {
          status: string;
        };
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/metrics': {
    get: {
      responses: {
        200: string;
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/providers': {
    get: {
      responses: {
        200: {
          password: boolean;
          sso: boolean;
        };
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/login': {
    post: {
      body: {
        email: string;
        password: string;
      };
      responses: {
        200: {
          account: {
            id: number;
            email: string;
            name: string;
          };
          csrfToken: string;
          projects: {
            id: number;
            name: string;
            role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
            languages: string[];
            access: ('read' | 'translate' | 'review' | 'manage' | 'own')[];
          }[];
          sso: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_credentials'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/session': {
    get: {
      responses: {
        200: {
          account: {
            id: number;
            email: string;
            name: string;
          };
          csrfToken: string;
          projects: {
            id: number;
            name: string;
            role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
            languages: string[];
            access: ('read' | 'translate' | 'review' | 'manage' | 'own')[];
          }[];
          sso: boolean;
        } | null;
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/logout': {
    post: {
      responses: {
        200: {
          logoutUrl: string | null;
        };
      };
      errorCode:
        'invalid_request' | 'csrf_invalid' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/oidc/start': {
    get: {
      query?: {
        next?: string;
        invite?: string;
      };
      responses: Record<string, never>;
      errorCode:
        'invalid_request' | 'sso_not_configured' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/oidc/callback': {
    get: {
      responses: Record<string, never>;
      errorCode:
        'invalid_request' | 'sso_not_configured' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/edit-token': {
    post: {
      body: {
        url: string;
      };
      responses: {
        201: {
          token: string;
          origin: string;
          expiresAt: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'origin_not_allowed'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/invites/{token}': {
    get: {
      path: {
        token: string;
      };
      responses: {
        200: {
          projectName: string;
          email: string;
          role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
          languages: string[];
          accountExists: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'not_found'
        | 'invite_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/invites/{token}/accept': {
    post: {
      path: {
        token: string;
      };
      body: {
        name?: string;
        password?: string;
      };
      responses: {
        200: {
          account: {
            id: number;
            email: string;
            name: string;
          };
          csrfToken: string;
          projects: {
            id: number;
            name: string;
            role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
            languages: string[];
            access: ('read' | 'translate' | 'review' | 'manage' | 'own')[];
          }[];
          sso: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_credentials'
        | 'csrf_invalid'
        | 'not_found'
        | 'invite_not_found'
        | 'invite_other_account'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/members': {
    get: {
      responses: {
        200: {
          members: {
            accountId: number;
            email: string;
            name: string;
            role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
            languages: string[];
          }[];
          invites: {
            id: number;
            email: string;
            role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
            languages: string[];
            invitedBy: string;
            expiresAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/members/invites': {
    post: {
      body: {
        email: string;
        role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
        languages: string[];
      };
      responses: {
        201: {
          id: number;
          email: string;
          role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
          languages: string[];
          invitedBy: string;
          expiresAt: string;
          path: string;
          url: string | null;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/members/invites/{id}': {
    delete: {
      path: {
        id: number;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/members/{accountId}': {
    delete: {
      path: {
        accountId: number;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'last_owner'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    patch: {
      path: {
        accountId: number;
      };
      body: {
        role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';
        languages: string[];
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'last_owner'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/': {
    get: {
      responses: {
        200: {
          name: string;
          status: string;
          version: string;
        };
      };
      errorCode: 'invalid_request' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/project': {
    get: {
      responses: {
        200: {
          id: number;
          name: string;
          api_key?: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key?: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    patch: {
      body: {
        name: string;
      };
      responses: {
        200: {
          id: number;
          name: string;
          api_key?: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key?: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/regenerate-key': {
    post: {
      responses: {
        200: {
          id: number;
          name: string;
          api_key: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/regenerate-page-key': {
    post: {
      responses: {
        200: {
          id: number;
          name: string;
          api_key: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/full-key-warning': {
    delete: {
      responses: {
        200: {
          id: number;
          name: string;
          api_key?: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key?: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/settings': {
    patch: {
      body: {
        settings: {
          languages?: string[];
          translationProviderApiKey?: string | null;
          blockedTags?: string[];
          inlineTags?: string[];
          domContextSelectors?: string[];
          contextDepth?: number;
          domContextEnabled?: boolean;
          screenshotsEnabled?: boolean;
          allowedOrigins?: string[];
          deliverReviewedOnly?: boolean;
          translationEngine?: 'openai' | 'deepl';
          sharedMemory?: boolean;
          deliverOutdated?: boolean;
          seoOrigin?: string;
          seoPublicUrl?: string;
          seoPrerender?: boolean;
        };
      };
      responses: {
        200: {
          id: number;
          name: string;
          api_key?: string;
          /** publishable page key (tpk_…) for the install snippet */
          page_key?: string;
          settings: {
            languages: string[];
            translationProviderApiKey: string;
            translationProviderApiKeySet: boolean;
            blockedTags: string[];
            inlineTags: string[];
            domContextSelectors: string[];
            contextDepth: number;
            domContextEnabled: boolean;
            screenshotsEnabled: boolean;
            allowedOrigins: string[];
            deliverReviewedOnly: boolean;
            translationEngine: 'openai' | 'deepl';
            sharedMemory: boolean;
            deliverOutdated: boolean;
            seoOrigin: string;
            seoPublicUrl: string;
            seoPrerender: boolean;
          };
          /** the last page origin the full key was used from (the dashboard warns) */
          full_key_used_from?: {
            origin: string;
            at: string;
          } | null;
          created_at: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/crawler-config': {
    get: {
      responses: {
        200: {
          blockedTags: string[];
          inlineTags: string[];
          domContextSelectors: string[];
          contextDepth: number;
          domContextEnabled: boolean;
          screenshotsEnabled: boolean;
          languagePaths: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/project/reset-database': {
    post: {
      responses: {
        200: {
          ok: boolean;
          deletedPhrases: number;
          deletedTranslations: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes': {
    post: {
      body: {
        keys: {
          key: string;
          context?: string;
          slots?: string[];
        }[];
        url?: string;
      };
      responses: {
        200: {
          ok: boolean;
          registered: number;
          keyMap: {
            [key: string]: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/counts': {
    get: {
      responses: {
        200: {
          pending: number;
          approved: number;
          trash: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes/status': {
    patch: {
      body: {
        ids: number[];
        status: 'pending' | 'approved' | 'trash';
      };
      responses: {
        200: {
          ok: boolean;
          updated: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes/untranslated-ids': {
    get: {
      query: {
        lang: string;
      };
      responses: {
        200: {
          ids: number[];
          total: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes/bulk-delete': {
    post: {
      body: {
        ids: number[];
      };
      responses: {
        200: {
          ok: boolean;
          deleted: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes/clear-pending': {
    post: {
      responses: {
        200: {
          ok: boolean;
          deleted: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/textnodes/{id}': {
    delete: {
      path: {
        id: number;
      };
      responses: {
        200: {
          ok: boolean;
          deleted: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/phrases/{id}': {
    patch: {
      path: {
        id: number;
      };
      body: {
        key?: string;
        varSlots?: {
          type: string;
          index: number;
        }[];
      };
      responses: {
        200: {
          id: number;
          key: string;
          context: string;
          status: 'pending' | 'approved' | 'trash';
          varSlots: {
            type: string;
            index: number;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations': {
    get: {
      query: {
        lang: string;
      };
      responses: {
        200: {
          key: string;
          context: string;
          value: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        lang: string;
        translations: {
          id?: number;
          key?: string;
          context?: string;
          value: string;
        }[];
        source?: 'human' | 'import';
      };
      responses: {
        200: {
          ok: boolean;
          saved: number;
          created: number;
          updated: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'edit_token_origin'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'unknown_phrase'
        | 'slot_mismatch'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/all': {
    get: {
      query?: {
        lang?: string;
        status?: 'pending' | 'approved' | 'trash';
        state?: 'machine' | 'human' | 'reviewed';
        search?: string;
        search_field?: 'key' | 'value' | 'context' | 'url' | 'all';
        translated?: 'yes' | 'no';
        outdated?: 'yes' | 'no';
        /** Only these phrases, in any status (comma-separated ids, at most 100): the other languages of a page the grid shows side by side (extension) */
        ids?: string;
        page?: number;
        limit?: number;
      };
      responses: {
        200: {
          rows: {
            id: number;
            key: string;
            context: string;
            status: 'pending' | 'approved' | 'trash';
            varSlots: {
              type: string;
              index: number;
            }[];
            slotTexts: string[];
            hasScreenshot: boolean;
            value: string | null;
            translated: boolean;
            translationId: number | null;
            state: null | ('machine' | 'human' | 'reviewed');
            suggestion: string | null;
            /** The source text an outdated translation was made for (the phrase replaced it on its page) */
            outdatedFrom: string | null;
            /** What the quality checks find in the translation (none without one) */
            checks: {
              check:
                'numbers' | 'leading_space' | 'trailing_space' | 'end_punctuation' | 'length' | 'glossary';
              message: string;
            }[];
            urls: string[];
          }[];
          total: number;
          page: number;
          limit: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'edit_token_origin'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/{id}': {
    delete: {
      path: {
        id: number;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/languages': {
    get: {
      query?: {
        delivered?: 'yes';
      };
      responses: {
        200: {
          code: string;
          name: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/languages/available': {
    get: {
      responses: {
        200: {
          code: string;
          name: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/export': {
    get: {
      responses: {
        200: {
          languages: string[];
          languageNames: {
            [key: string]: string;
          };
          translations: {
            [key: string]: {
              key: string;
              context: string;
              value: string;
            }[];
          };
          timestamp: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/export/{lang}': {
    get: {
      path: {
        lang: string;
      };
      responses: {
        200: {
          languages: string[];
          languageNames: {
            [key: string]: string;
          };
          translations: {
            [key: string]: {
              key: string;
              context: string;
              value: string;
            }[];
          };
          timestamp: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'not_found'
        | 'unknown_language'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/state': {
    patch: {
      body: {
        ids: number[];
        state: 'human' | 'reviewed';
      };
      responses: {
        200: {
          ok: boolean;
          updated: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'edit_token_origin'
        | 'origin_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/history': {
    get: {
      query: {
        phrase_id: number;
        lang: string;
      };
      responses: {
        200: {
          entries: {
            id: number;
            phraseId: number;
            lang: string;
            oldValue: string | null;
            newValue: string | null;
            oldState: null | ('machine' | 'human' | 'reviewed');
            newState: null | ('machine' | 'human' | 'reviewed');
            source: 'human' | 'ai' | 'import' | 'memory' | 'revert' | 'carried';
            actor: string;
            revertedId: number | null;
            createdAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/history/{id}/revert': {
    post: {
      path: {
        id: number;
      };
      responses: {
        200: {
          ok: boolean;
          changed: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'slot_mismatch'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/files/{lang}': {
    get: {
      path: {
        lang: string;
      };
      query: {
        /** xliff12, xliff20, po (gettext), csv, json (flat), json-nested (by context) */
        format: 'xliff12' | 'xliff20' | 'po' | 'csv' | 'json' | 'json-nested';
        sourceLang?: string;
      };
      responses: {
        200: unknown;
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'not_found'
        | 'unknown_language'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        lang: string;
      };
      query: {
        /** xliff12, xliff20, po (gettext), csv, json (flat), json-nested (by context) */
        format: 'xliff12' | 'xliff20' | 'po' | 'csv' | 'json' | 'json-nested';
        dryRun?: boolean;
      };
      body: string;
      responses: {
        200: {
          /** xliff12, xliff20, po (gettext), csv, json (flat), json-nested (by context) */
          format: 'xliff12' | 'xliff20' | 'po' | 'csv' | 'json' | 'json-nested';
          lang: string;
          dryRun: boolean;
          /** Units in the file */
          units: number;
          /** Translations written (created + updated) */
          changed: number;
          created: number;
          updated: number;
          /** Units whose translation is already the stored one */
          unchanged: number;
          /** Units without a translation or marked unfinished (fuzzy, initial) */
          skipped: number;
          /** Units naming no phrase of the project (left out) */
          unknown: number;
          /** The first 200 changes */
          changes: {
            phraseId: number;
            key: string;
            context: string;
            old: string | null;
            new: string;
          }[];
          /** The first 200 units naming no phrase */
          unknownUnits: {
            key: string;
            context: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'invalid_file'
        | 'slot_mismatch'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/glossary': {
    get: {
      query?: {
        lang?: string;
      };
      responses: {
        200: {
          id: number;
          lang: string | null;
          term: string;
          translation: string | null;
          doNotTranslate: boolean;
          caseSensitive: boolean;
          note: string;
          createdAt: string;
          updatedAt: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        term: string;
        lang?: string | null;
        translation?: string | null;
        doNotTranslate?: boolean;
        caseSensitive?: boolean;
        note?: string;
      };
      responses: {
        201: {
          id: number;
          lang: string | null;
          term: string;
          translation: string | null;
          doNotTranslate: boolean;
          caseSensitive: boolean;
          note: string;
          createdAt: string;
          updatedAt: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'term_exists'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/glossary/{id}': {
    delete: {
      path: {
        id: number;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    patch: {
      path: {
        id: number;
      };
      body: {
        term?: string;
        lang?: string | null;
        translation?: string | null;
        doNotTranslate?: boolean;
        caseSensitive?: boolean;
        note?: string;
      };
      responses: {
        200: {
          id: number;
          lang: string | null;
          term: string;
          translation: string | null;
          doNotTranslate: boolean;
          caseSensitive: boolean;
          note: string;
          createdAt: string;
          updatedAt: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'term_exists'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/translations/memory': {
    get: {
      query: {
        lang: string;
        text: string;
        limit?: number;
      };
      responses: {
        200: {
          matches: {
            source: string;
            value: string;
            state: 'machine' | 'human' | 'reviewed';
            score: number;
            shared: boolean;
            updatedAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/ai-jobs': {
    get: {
      responses: {
        200: {
          jobs: {
            id: string;
            status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
            lang: string;
            promptId: string | null;
            total: number;
            completed: number;
            failed: number;
            /** seconds */
            estimatedTimeRemaining: number;
            includeScreenshots: boolean;
            memory: {
              filled: number;
              savedCharacters: number;
            };
            error: string | null;
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
          }[];
          stats: {
            running: number;
            pending: number;
            total: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        key_ids: number[];
        lang: string;
        prompt_id?: string;
        include_screenshots?: boolean;
      };
      responses: {
        202: {
          jobId: string;
          total: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'unknown_language'
        | 'provider_not_configured'
        | 'unknown_prompt'
        | 'unknown_phrase'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/ai-jobs/log': {
    get: {
      responses: {
        200: {
          id: string;
          status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
          lang: string;
          promptId: string | null;
          total: number;
          completed: number;
          failed: number;
          /** seconds */
          estimatedTimeRemaining: number;
          includeScreenshots: boolean;
          memory: {
            filled: number;
            savedCharacters: number;
          };
          error: string | null;
          createdAt: string;
          startedAt: string | null;
          finishedAt: string | null;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/ai-jobs/{jobId}': {
    get: {
      path: {
        jobId: string;
      };
      responses: {
        200: {
          id: string;
          status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
          lang: string;
          promptId: string | null;
          total: number;
          completed: number;
          failed: number;
          /** seconds */
          estimatedTimeRemaining: number;
          includeScreenshots: boolean;
          memory: {
            filled: number;
            savedCharacters: number;
          };
          error: string | null;
          createdAt: string;
          startedAt: string | null;
          finishedAt: string | null;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        jobId: string;
      };
      responses: {
        200: {
          id: string;
          status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
          lang: string;
          promptId: string | null;
          total: number;
          completed: number;
          failed: number;
          /** seconds */
          estimatedTimeRemaining: number;
          includeScreenshots: boolean;
          memory: {
            filled: number;
            savedCharacters: number;
          };
          error: string | null;
          createdAt: string;
          startedAt: string | null;
          finishedAt: string | null;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'job_finished'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/ai-jobs/{jobId}/events': {
    get: {
      path: {
        jobId: string;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/prompts': {
    get: {
      responses: {
        200: {
          id: string;
          name: string;
          text: string;
          isDefault: boolean;
          createdAt: string;
          updatedAt: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        name: string;
        text: string;
        isDefault?: boolean;
      };
      responses: {
        201: {
          id: string;
          name: string;
          text: string;
          isDefault: boolean;
          createdAt: string;
          updatedAt: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/prompts/{id}': {
    put: {
      path: {
        id: string;
      };
      body: {
        name?: string;
        text?: string;
        isDefault?: boolean;
      };
      responses: {
        200: {
          id: string;
          name: string;
          text: string;
          isDefault: boolean;
          createdAt: string;
          updatedAt: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'default_prompt'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        id: string;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'default_prompt'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics': {
    get: {
      responses: {
        200: {
          totalPhrases: number;
          approvedPhrases: number;
          pendingPhrases: number;
          trashPhrases: number;
          uniqueUrls: number;
          totalTranslations: number;
          languageCount: number;
          phrasesWithSlots: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/languages': {
    get: {
      responses: {
        200: {
          lang: string;
          translated: number;
          coverage: number;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/quality': {
    get: {
      responses: {
        200: {
          checked: number;
          passing: number;
          /** Percentage of checked translations passing every check */
          score: number;
          byCheck: {
            check: 'numbers' | 'leading_space' | 'trailing_space' | 'end_punctuation' | 'length' | 'glossary';
            failing: number;
          }[];
          byLanguage: {
            lang: string;
            checked: number;
            passing: number;
            score: number;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/urls': {
    get: {
      query?: {
        search?: string;
        limit?: number;
        offset?: number;
      };
      responses: {
        200: {
          total: number;
          rows: {
            url: string;
            /** Whether the page is an http(s) address on the project’s allowed origins: only such a page is shown as a link and opened for in-page editing */
            onAllowedOrigin: boolean;
            phraseCount: number;
            approved: number;
            pending: number;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/url-detail': {
    get: {
      query: {
        url: string;
      };
      responses: {
        200: {
          url: string;
          /** Whether the page is an http(s) address on the project’s allowed origins: only such a page is shown as a link and opened for in-page editing */
          onAllowedOrigin: boolean;
          totalPhrases: number;
          approved: number;
          pending: number;
          pendingKeyIds: number[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/activity': {
    get: {
      responses: {
        200: {
          day: string;
          count: number;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/analytics/phrase-detail': {
    get: {
      query: {
        id: number;
      };
      responses: {
        200: {
          id: number;
          key: string;
          context: string;
          status: string;
          translations: {
            lang: string;
            value: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/backups': {
    get: {
      responses: {
        200: {
          filename: string;
          size: number;
          created: string;
        }[];
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      responses: {
        201: {
          filename: string;
          size: number;
          created: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/backups/{filename}': {
    get: {
      path: {
        filename: string;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
    delete: {
      path: {
        filename: string;
      };
      responses: {
        200: {
          ok: boolean;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'invalid_filename'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/backups/{filename}/restore': {
    post: {
      path: {
        filename: string;
      };
      query?: {
        dryRun?: boolean;
      };
      responses: {
        200: {
          /** The project's name in the backup */
          name: string;
          phrases: {
            current: number;
            restored: number;
            added: number;
            removed: number;
          };
          translations: {
            current: number;
            restored: number;
            added: number;
            removed: number;
            changed: number;
          };
          /** The first 50 translation changes */
          changes: {
            key: string;
            lang: string;
            current: string | null;
            restored: string | null;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'invalid_filename'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'invalid_backup'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/backup': {
    get: {
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/screenshots/status': {
    get: {
      responses: {
        200: {
          /** The project's screenshotsEnabled setting */
          enabled: boolean;
          /** Whether this translator can take screenshots (Chromium is installed) */
          available: boolean;
          /** Why it cannot */
          reason: string | null;
          /** Phrases with a screenshot */
          captured: number;
          /** Phrases whose page or element could not be photographed */
          failed: number;
          /** Phrases seen on a page that wait for their screenshot */
          pending: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/screenshots/capture': {
    post: {
      responses: {
        202: {
          queued: number;
          pending: number;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'screenshots_disabled'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable'
        | 'screenshots_unavailable';
    };
  };
  '/phrases/{id}/screenshot': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/backups/upload': {
    post: {
      responses: {
        201: {
          filename: string;
          size: number;
          created: string;
        };
      };
      errorCode:
        | 'invalid_request'
        | 'project_required'
        | 'unauthorized'
        | 'page_key_not_allowed'
        | 'not_a_member'
        | 'forbidden'
        | 'csrf_invalid'
        | 'invalid_backup'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
}
