// Generated from the manager's OpenAPI document by `npm run generate`: do not edit.

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
  '/csrf-token': {
    get: {
      responses: {
        200: {
          data: {
            csrfToken: string;
          };
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/health': {
    get: {
      responses: {
        200: {
          data: {
            status: string;
            isDev: boolean;
            oidcEnabled: boolean;
            banner: string | null;
          };
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/metrics': {
    get: {
      responses: {
        200: string;
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/session': {
    get: {
      responses: {
        200: {
          data: {
            user: string;
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/auth/login': {
    post: {
      body: {
        username: string;
        password: string;
        /** a path on this site; anything else means / */
        redirect?: string;
      };
      responses: {
        200: {
          data: {
            user: string;
            isAdmin: boolean;
            redirect: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'invalid_credentials'
        | 'oidc_enabled'
        | 'csrf_invalid'
        | 'account_inactive'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/oidc/login': {
    get: {
      query?: {
        /** a path on this site; anything else means / */
        redirect?: string;
      };
      responses: {
        200: unknown;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'oidc_disabled'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/oidc/callback': {
    get: {
      responses: {
        200: unknown;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'oidc_disabled'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/logout': {
    post: {
      responses: {
        200: {
          data: {
            loggedOut: boolean;
            logoutUrl: string | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/register': {
    post: {
      body: {
        uid: string;
        givenName: string;
        sn: string;
        mail: string;
        userPassword: string;
        inviteToken?: string;
      };
      responses: {
        201: {
          data: {
            uid: string;
            status: string;
            message: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_invite'
        | 'email_mismatch'
        | 'unauthorized'
        | 'oidc_enabled'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/register/invite/{token}': {
    get: {
      path: {
        token: string;
      };
      responses: {
        200: {
          data: {
            email: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'oidc_enabled'
        | 'not_found'
        | 'invalid_invite'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/password-reset/request': {
    post: {
      body: {
        usernameOrEmail: string;
      };
      responses: {
        200: {
          data: {
            message: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/auth/password-reset/{token}': {
    get: {
      path: {
        token: string;
      };
      responses: {
        200: {
          data: {
            username: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'invalid_token'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        token: string;
      };
      body: {
        password: string;
        confirmPassword: string;
        /** also delete the user's API keys (default true) */
        revokeApiKeys?: boolean;
      };
      responses: {
        200: {
          data: {
            message: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'mismatch'
        | 'weak_password'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'not_found'
        | 'invalid_token'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/users': {
    get: {
      responses: {
        200: {
          data: {
            uidNumber: number;
            uid: string;
            givenName: string;
            sn: string;
            cn: string;
            mail: string;
            status: 'pending' | 'active' | 'suspended';
            groups: {
              gidNumber: number;
              cn: string;
              isAdmin: boolean;
            }[];
            isAdmin: boolean;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        uid: string;
        givenName: string;
        sn: string;
        mail: string;
        userPassword?: string;
        status?: ('pending' | 'active' | 'suspended') | 'disabled';
        groupIds?: number[];
      };
      responses: {
        201: {
          data: {
            uidNumber: number;
            uid: string;
            givenName: string;
            sn: string;
            cn: string;
            mail: string;
            status: 'pending' | 'active' | 'suspended';
            groups: {
              gidNumber: number;
              cn: string;
              isAdmin: boolean;
            }[];
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/users/pending/count': {
    get: {
      responses: {
        200: {
          data: {
            count: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/users/{uidNumber}': {
    get: {
      path: {
        uidNumber: number;
      };
      responses: {
        200: {
          data: {
            uidNumber: number;
            uid: string;
            givenName: string;
            sn: string;
            cn: string;
            mail: string;
            status: 'pending' | 'active' | 'suspended';
            groups: {
              gidNumber: number;
              cn: string;
              isAdmin: boolean;
            }[];
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        uidNumber: number;
      };
      body: {
        uid?: string;
        givenName?: string;
        sn?: string;
        mail?: string;
        userPassword?: string;
        status?: ('pending' | 'active' | 'suspended') | 'disabled';
        groupIds?: number[];
      };
      responses: {
        200: {
          data: {
            uidNumber: number;
            uid: string;
            givenName: string;
            sn: string;
            cn: string;
            mail: string;
            status: 'pending' | 'active' | 'suspended';
            groups: {
              gidNumber: number;
              cn: string;
              isAdmin: boolean;
            }[];
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'last_admin'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        uidNumber: number;
      };
      query?: {
        /** username of the new owner */
        reassignTo?: string;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'has_containers'
        | 'last_admin'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/users/invite': {
    post: {
      body: {
        email: string;
      };
      responses: {
        200: {
          data: {
            email: string;
            message: string;
            /** the invitation link, only when no e-mail could be sent */
            inviteUrl?: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'smtp_not_configured'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'smtp_error'
        | 'service_unavailable';
    };
  };
  '/users/email-all': {
    post: {
      body: {
        subject: string;
        message: string;
      };
      responses: {
        200: {
          data: {
            sent: number;
            failed: number;
            recipients: string[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/groups': {
    get: {
      responses: {
        200: {
          data: {
            gidNumber: number;
            cn: string;
            isAdmin: boolean;
            userCount?: number;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        gidNumber?: number;
        cn: string;
        isAdmin?: boolean;
      };
      responses: {
        201: {
          data: {
            gidNumber: number;
            cn: string;
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/groups/{gidNumber}': {
    get: {
      path: {
        gidNumber: number;
      };
      responses: {
        200: {
          data: {
            gidNumber: number;
            cn: string;
            isAdmin: boolean;
            userCount?: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        gidNumber: number;
      };
      body: {
        cn?: string;
        isAdmin?: boolean;
      };
      responses: {
        200: {
          data: {
            gidNumber: number;
            cn: string;
            isAdmin: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'last_admin'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        gidNumber: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'last_admin'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/apikeys': {
    get: {
      responses: {
        200: {
          data: {
            id: string;
            keyPrefix: string;
            description: string | null;
            lastUsedAt: string | null;
            createdAt: string;
            updatedAt: string;
          }[];
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
    post: {
      body: {
        description?: string;
      };
      responses: {
        201: {
          data: {
            id: string;
            keyPrefix: string;
            description: string | null;
            lastUsedAt: string | null;
            createdAt: string;
            updatedAt: string;
            key: string;
            warning: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/apikeys/{id}': {
    get: {
      path: {
        id: string;
      };
      responses: {
        200: {
          data: {
            id: string;
            keyPrefix: string;
            description: string | null;
            lastUsedAt: string | null;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        id: string;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/settings': {
    get: {
      responses: {
        200: {
          data: {
            smtpUrl: string;
            smtpNoreplyAddress: string;
            defaultContainerEnvVars: {
              key: string;
              value: string;
              description: string;
            }[];
            inventoryUrl: string;
            inventoryToken: string;
            bannerMessage: string;
            /** e-mail domains whose new single sign-on users are active at once */
            ssoAllowedDomains: string[];
            /** groups (in the groups claim) whose new single sign-on users are active at once */
            ssoAllowedGroups: string[];
            /** claim that lists the groups (default groups) */
            ssoGroupsClaim: string;
            registryAllowlist: string[];
            /** days the audit log keeps its entries */
            auditRetentionDays: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      body: {
        smtpUrl?: string;
        smtpNoreplyAddress?: string;
        defaultContainerEnvVars?: {
          key: string;
          value: string;
          description: string;
        }[];
        inventoryUrl?: string;
        inventoryToken?: string | null;
        bannerMessage?: string;
        ssoAllowedDomains?: string[];
        ssoAllowedGroups?: string[];
        ssoGroupsClaim?: string;
        /** registries (host or host:port) users may reach on loopback or private networks */
        registryAllowlist?: string[];
        /** days the audit log keeps its entries */
        auditRetentionDays?: number;
        netboxUrl?: string;
        netboxToken?: string | null;
      };
      responses: {
        200: {
          data: {
            smtpUrl: string;
            smtpNoreplyAddress: string;
            defaultContainerEnvVars: {
              key: string;
              value: string;
              description: string;
            }[];
            inventoryUrl: string;
            inventoryToken: string;
            bannerMessage: string;
            /** e-mail domains whose new single sign-on users are active at once */
            ssoAllowedDomains: string[];
            /** groups (in the groups claim) whose new single sign-on users are active at once */
            ssoAllowedGroups: string[];
            /** claim that lists the groups (default groups) */
            ssoGroupsClaim: string;
            registryAllowlist: string[];
            /** days the audit log keeps its entries */
            auditRetentionDays: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites': {
    get: {
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            internalDomain: string;
            /** two IPv4 addresses as "start,end" or "start-end" */
            dhcpRange: string;
            subnetMask: string;
            gateway: string;
            /** IP addresses separated by commas */
            dnsForwarders: string;
            externalIp: string | null;
            /** present on list and show answers */
            nodeCount?: number;
          }[];
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
    post: {
      body: {
        name: string;
        internalDomain: string;
        /** two IPv4 addresses as "start,end" or "start-end" */
        dhcpRange: string;
        subnetMask: string;
        gateway: string;
        /** IP addresses separated by commas */
        dnsForwarders: string;
        externalIp?: string | null;
      };
      responses: {
        201: {
          data: {
            id: number;
            name: string;
            internalDomain: string;
            /** two IPv4 addresses as "start,end" or "start-end" */
            dhcpRange: string;
            subnetMask: string;
            gateway: string;
            /** IP addresses separated by commas */
            dnsForwarders: string;
            externalIp: string | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{id}': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            internalDomain: string;
            /** two IPv4 addresses as "start,end" or "start-end" */
            dhcpRange: string;
            subnetMask: string;
            gateway: string;
            /** IP addresses separated by commas */
            dnsForwarders: string;
            externalIp: string | null;
            /** present on list and show answers */
            nodeCount?: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        id: number;
      };
      body: {
        name: string;
        internalDomain: string;
        /** two IPv4 addresses as "start,end" or "start-end" */
        dhcpRange: string;
        subnetMask: string;
        gateway: string;
        /** IP addresses separated by commas */
        dnsForwarders: string;
        externalIp?: string | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            internalDomain: string;
            /** two IPv4 addresses as "start,end" or "start-end" */
            dhcpRange: string;
            subnetMask: string;
            gateway: string;
            /** IP addresses separated by commas */
            dnsForwarders: string;
            externalIp: string | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
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
    delete: {
      path: {
        id: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'has_nodes'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/nodes': {
    get: {
      path: {
        siteId: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            nodeType: 'hypervisor' | 'dummy' | 'engine';
            siteId: number;
            ipv4Address: string | null;
            apiUrl: string | null;
            tokenId: string | null;
            /** null (unset) means verified */
            tlsVerify: boolean | null;
            tlsFingerprint: string | null;
            imageStorage: string;
            volumeStorage: string;
            networkBridge: string;
            nvidiaAvailable: boolean;
            /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
            volumeIdShift: number | null;
            hasSecret: boolean;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'site_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        siteId: number;
      };
      body: {
        name: string;
        /** hypervisor (default), dummy or engine; proxmox and docker are accepted */
        nodeType?: string;
        ipv4Address?: string | null;
        apiUrl?: string | null;
        tokenId?: string | null;
        /** write-only; blank or omitted on update keeps the stored one */
        secret?: string | null;
        tlsVerify?: boolean | null;
        /** SHA-256 fingerprint of the node's certificate (AB:CD:…): when set, the connection is accepted iff it matches, whatever the CA */
        tlsFingerprint?: string | null;
        imageStorage?: string | null;
        volumeStorage?: string | null;
        networkBridge?: string | null;
        nvidiaAvailable?: boolean | null;
        /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
        volumeIdShift?: number | null;
      };
      responses: {
        201: {
          data: {
            id: number;
            name: string;
            nodeType: 'hypervisor' | 'dummy' | 'engine';
            siteId: number;
            ipv4Address: string | null;
            apiUrl: string | null;
            tokenId: string | null;
            /** null (unset) means verified */
            tlsVerify: boolean | null;
            tlsFingerprint: string | null;
            imageStorage: string;
            volumeStorage: string;
            networkBridge: string;
            nvidiaAvailable: boolean;
            /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
            volumeIdShift: number | null;
            hasSecret: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_node_type'
        | 'invalid_engine_host'
        | 'unauthorized'
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
  '/sites/{siteId}/nodes/test': {
    post: {
      path: {
        siteId: number;
      };
      body: {
        name: string;
        /** hypervisor (default), dummy or engine; proxmox and docker are accepted */
        nodeType?: string;
        ipv4Address?: string | null;
        apiUrl?: string | null;
        tokenId?: string | null;
        /** write-only; blank or omitted on update keeps the stored one */
        secret?: string | null;
        tlsVerify?: boolean | null;
        /** SHA-256 fingerprint of the node's certificate (AB:CD:…): when set, the connection is accepted iff it matches, whatever the CA */
        tlsFingerprint?: string | null;
        imageStorage?: string | null;
        volumeStorage?: string | null;
        networkBridge?: string | null;
        nvidiaAvailable?: boolean | null;
        /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
        volumeIdShift?: number | null;
      } & {
        nodeId?: number;
      };
      responses: {
        200: {
          data: {
            available: boolean;
            reason?: string;
            cpu?: {
              /** fraction 0–1 */
              usage?: number;
              cores: number;
            };
            memory?: {
              total: number;
              used?: number;
            };
            swap?: {
              total: number;
              used?: number;
            };
            rootfs?: {
              total: number;
              used?: number;
            };
            /** seconds */
            uptime?: number;
            loadavg?: number[];
            containers?: {
              total: number;
              running: number;
            };
            datastores?: {
              name: string;
              total: number;
              used: number;
              available: number;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_node_type'
        | 'invalid_engine_host'
        | 'unauthorized'
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
  '/sites/{siteId}/nodes/import': {
    post: {
      path: {
        siteId: number;
      };
      body: {
        apiUrl: string;
        username: string;
        password: string;
        tlsVerify?: boolean;
        /** SHA-256 fingerprint of the cluster's certificate */
        tlsFingerprint?: string;
      };
      responses: {
        201: {
          data: {
            nodes: {
              id: number;
              name: string;
              nodeType: 'hypervisor' | 'dummy' | 'engine';
              siteId: number;
              ipv4Address: string | null;
              apiUrl: string | null;
              tokenId: string | null;
              /** null (unset) means verified */
              tlsVerify: boolean | null;
              tlsFingerprint: string | null;
              imageStorage: string;
              volumeStorage: string;
              networkBridge: string;
              nvidiaAvailable: boolean;
              /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
              volumeIdShift: number | null;
              hasSecret: boolean;
            }[];
            importedContainerCount: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'import_failed'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/nodes/{id}': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            nodeType: 'hypervisor' | 'dummy' | 'engine';
            siteId: number;
            ipv4Address: string | null;
            apiUrl: string | null;
            tokenId: string | null;
            /** null (unset) means verified */
            tlsVerify: boolean | null;
            tlsFingerprint: string | null;
            imageStorage: string;
            volumeStorage: string;
            networkBridge: string;
            nvidiaAvailable: boolean;
            /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
            volumeIdShift: number | null;
            hasSecret: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        siteId: number;
        id: number;
      };
      body: {
        name: string;
        /** hypervisor (default), dummy or engine; proxmox and docker are accepted */
        nodeType?: string;
        ipv4Address?: string | null;
        apiUrl?: string | null;
        tokenId?: string | null;
        /** write-only; blank or omitted on update keeps the stored one */
        secret?: string | null;
        tlsVerify?: boolean | null;
        /** SHA-256 fingerprint of the node's certificate (AB:CD:…): when set, the connection is accepted iff it matches, whatever the CA */
        tlsFingerprint?: string | null;
        imageStorage?: string | null;
        volumeStorage?: string | null;
        networkBridge?: string | null;
        nvidiaAvailable?: boolean | null;
        /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
        volumeIdShift?: number | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            nodeType: 'hypervisor' | 'dummy' | 'engine';
            siteId: number;
            ipv4Address: string | null;
            apiUrl: string | null;
            tokenId: string | null;
            /** null (unset) means verified */
            tlsVerify: boolean | null;
            tlsFingerprint: string | null;
            imageStorage: string;
            volumeStorage: string;
            networkBridge: string;
            nvidiaAvailable: boolean;
            /** added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default (hypervisor 100000, unprivileged containers; engine 0) */
            volumeIdShift: number | null;
            hasSecret: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_node_type'
        | 'invalid_engine_host'
        | 'unauthorized'
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
    delete: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'has_containers'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/nodes/{id}/storages': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            name: string;
            total: number;
            available: number;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'site_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/nodes/{id}/stats': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            available: boolean;
            reason?: string;
            cpu?: {
              /** fraction 0–1 */
              usage?: number;
              cores: number;
            };
            memory?: {
              total: number;
              used?: number;
            };
            swap?: {
              total: number;
              used?: number;
            };
            rootfs?: {
              total: number;
              used?: number;
            };
            /** seconds */
            uptime?: number;
            loadavg?: number[];
            containers?: {
              total: number;
              running: number;
            };
            datastores?: {
              name: string;
              total: number;
              used: number;
              available: number;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/jobs/{id}': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            command: string;
            status: 'pending' | 'running' | 'success' | 'failure' | 'cancelled';
            createdBy: string;
            createdAt: string;
            updatedAt: string;
            /** container.exec, once the command has ended: its exit code */
            result?: {
              exitCode: number;
            };
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/jobs/{id}/status': {
    get: {
      path: {
        id: number;
      };
      query?: {
        offset?: number;
        limit?: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            jobId: number;
            output: string | null;
            createdAt: string;
            updatedAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/jobs/{id}/stream': {
    get: {
      path: {
        id: number;
      };
      query?: {
        lastId?: number;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/jobs/{id}/cancel': {
    post: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            command: string;
            status: 'pending' | 'running' | 'success' | 'failure' | 'cancelled';
            createdBy: string;
            createdAt: string;
            updatedAt: string;
            /** container.exec, once the command has ended: its exit code */
            result?: {
              exitCode: number;
            };
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'not_found'
        | 'job_finished'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers': {
    get: {
      path: {
        siteId: number;
      };
      query?: {
        hostname?: string;
        nodeId?: number | '';
        /** bracket notation: user[0]=…&user[1]=… */
        user?: string[];
      };
      responses: {
        200: {
          data: {
            id: number;
            hostname: string;
            owner: string;
            collaborators: string[];
            containerId: string | null;
            status: 'running' | 'offline' | 'creating' | 'failed' | 'missing' | 'unknown';
            template: string;
            ipv4Address: string | null;
            macAddress: string | null;
            creationJobId: number | null;
            entrypoint: string | null;
            environmentVars: {
              [key: string]: string;
            };
            nvidiaRequested: boolean;
            /** true while environment or entrypoint changes saved with restart false wait for a restart to take effect */
            restartPending: boolean;
            sshPort: number | null;
            sshHost: string | null;
            httpEntries: {
              port: number;
              externalUrl: string | null;
            }[];
            lastAccessedAt: string | null;
            nodeName: string | null;
            nodeApiUrl: string | null;
            services: {
              id: number;
              type: 'http' | 'transport' | 'dns';
              internalPort: number;
              lastAccessedAt: string | null;
              httpService: {
                id: number;
                externalHostname: string;
                externalDomainId: number;
                backendProtocol: 'http' | 'https';
                authRequired: boolean;
                /** Addition to the spec: plain HTTP is redirected to HTTPS once the host has a certificate */
                redirectHttps: boolean;
                /** Addition to the spec: HTTPS answers carry Strict-Transport-Security */
                hsts: boolean;
                domain: string | null;
              } | null;
              transportService: {
                id: number;
                protocol: 'tcp' | 'udp';
                externalPort: number;
              } | null;
              dnsService: {
                id: number;
                recordType: 'SRV';
                dnsName: string;
              } | null;
            }[];
            createdAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'site_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        siteId: number;
      };
      body: {
        hostname: string;
        template: string;
        customTemplate?: string | null;
        entrypoint?: string | null;
        nvidiaRequested?: boolean | null;
        username?: string | null;
        collaborators?: string[] | null;
        environmentVars?:
          | {
              key: string;
              value: string;
            }[]
          | null;
        /** arbitrary keys to ServiceInput {type, internalPort, externalHostname, externalDomainId, dnsName, authRequired} (plus redirectHttps and hsts for http/https, an addition to the spec) */
        services?: {
          [key: string]: unknown;
        } | null;
      };
      responses: {
        201: {
          data: {
            containerId: number;
            jobId: number;
            hostname: string;
            status: 'running' | 'offline' | 'creating' | 'failed' | 'missing' | 'unknown';
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'invalid_service'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'site_not_found'
        | 'user_not_found'
        | 'no_node'
        | 'no_nvidia_node'
        | 'no_address'
        | 'no_port'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/new': {
    get: {
      path: {
        siteId: number;
      };
      responses: {
        200: {
          data: {
            siteId: number;
            externalDomains: {
              id: number;
              name: string;
              siteId: number | null;
            }[];
            nvidiaAvailable: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'site_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/metadata': {
    get: {
      path: {
        siteId: number;
      };
      query: {
        image: string;
        /** OCI architecture, with a variant where it matters (arm/v7); default: the architecture of the node a create on this site would choose now (amd64 when it cannot be asked) */
        arch?: string;
      };
      responses: {
        200: {
          data: {
            ports: {
              port: number;
              protocol: 'tcp' | 'udp';
            }[];
            httpServices: {
              port: number;
              hostnameSuffix: string;
              requireAuth: boolean;
            }[];
            entrypoint: string | null;
            env: {
              key: string;
              value: string;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'image_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'registry_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            hostname: string;
            owner: string;
            collaborators: string[];
            containerId: string | null;
            status: 'running' | 'offline' | 'creating' | 'failed' | 'missing' | 'unknown';
            template: string;
            ipv4Address: string | null;
            macAddress: string | null;
            creationJobId: number | null;
            entrypoint: string | null;
            environmentVars: {
              [key: string]: string;
            };
            nvidiaRequested: boolean;
            /** true while environment or entrypoint changes saved with restart false wait for a restart to take effect */
            restartPending: boolean;
            sshPort: number | null;
            sshHost: string | null;
            httpEntries: {
              port: number;
              externalUrl: string | null;
            }[];
            lastAccessedAt: string | null;
            nodeName: string | null;
            nodeApiUrl: string | null;
            services: {
              id: number;
              type: 'http' | 'transport' | 'dns';
              internalPort: number;
              lastAccessedAt: string | null;
              httpService: {
                id: number;
                externalHostname: string;
                externalDomainId: number;
                backendProtocol: 'http' | 'https';
                authRequired: boolean;
                /** Addition to the spec: plain HTTP is redirected to HTTPS once the host has a certificate */
                redirectHttps: boolean;
                /** Addition to the spec: HTTPS answers carry Strict-Transport-Security */
                hsts: boolean;
                domain: string | null;
              } | null;
              transportService: {
                id: number;
                protocol: 'tcp' | 'udp';
                externalPort: number;
              } | null;
              dnsService: {
                id: number;
                recordType: 'SRV';
                dnsName: string;
              } | null;
            }[];
            createdAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        siteId: number;
        id: number;
      };
      body: {
        username?: string | null;
        /** arbitrary keys to ServiceInput {type, internalPort, externalHostname, externalDomainId, dnsName, authRequired} (plus redirectHttps and hsts for http/https, an addition to the spec) */
        services?: {
          [key: string]: unknown;
        } | null;
        environmentVars?:
          | {
              key: string;
              value: string;
            }[]
          | null;
        entrypoint?: string | null;
        restart?: boolean | null;
      };
      responses: {
        200: {
          data: {
            containerId: number;
            jobId: number | null;
            dnsWarnings: string[];
            message: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'user_not_found'
        | 'no_instance'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    delete: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            deleted: boolean;
            dnsWarnings: string[];
            /** the volume folders left on the node, with their data */
            keptVolumes: {
              name: string;
              hostPath: string;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'conflict'
        | 'hostname_mismatch'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'node_unreachable'
        | 'provider_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/jobs': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            /** container.create, container.apply or container.delete */
            command: string;
            status: 'pending' | 'running' | 'success' | 'failure' | 'cancelled';
            createdAt: string;
            updatedAt: string;
            finishedAt: string | null;
            /** the last output lines of a failed job, for its creator and administrators; null otherwise */
            lastOutput: string[] | null;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/retry': {
    post: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        202: {
          data: {
            containerId: number;
            jobId: number;
            hostname: string;
            status: 'running' | 'offline' | 'creating' | 'failed' | 'missing' | 'unknown';
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'create_not_failed'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/collaborators': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        200: {
          data: {
            collaborators: string[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        siteId: number;
        id: number;
      };
      body: {
        username: string;
      };
      responses: {
        201: {
          data: {
            collaborators: string[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'user_not_found'
        | 'already_owner'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/collaborators/{username}': {
    delete: {
      path: {
        siteId: number;
        id: number;
        username: string;
      };
      responses: {
        200: {
          data: {
            collaborators: string[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/start': {
    post: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        202: {
          data: {
            containerId: number;
            jobId: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'no_instance'
        | 'conflict'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/stop': {
    post: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        202: {
          data: {
            containerId: number;
            jobId: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'no_instance'
        | 'conflict'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/exec': {
    post: {
      path: {
        siteId: number;
        id: number;
      };
      body: {
        /** the program and its arguments, or one string run by `sh -c` */
        command: string | string[];
        /** seconds the command may run; then it is stopped and the job fails */
        timeout?: number;
      };
      responses: {
        202: {
          data: {
            containerId: number;
            jobId: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'forbidden'
        | 'not_found'
        | 'no_instance'
        | 'exec_unsupported'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'too_many_execs'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/logs': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        since?: string;
        until?: string;
        stream?: 'stdout' | 'stderr' | 'both';
        /** lines read from the end of the log */
        tail?: number;
        /** keeps the lines containing it (any case) */
        search?: string;
      };
      responses: {
        200: {
          data: {
            lines: {
              time: string;
              stream: 'stdout' | 'stderr';
              text: string;
            }[];
            truncated: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'no_instance'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'node_unreachable'
        | 'provider_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/logs/download': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        since?: string;
        until?: string;
        stream?: 'stdout' | 'stderr' | 'both';
        /** lines read from the end of the log */
        tail?: number;
        /** keeps the lines containing it (any case) */
        search?: string;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/sites/{siteId}/containers/{id}/logs/stream': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        since?: string;
        until?: string;
        stream?: 'stdout' | 'stderr' | 'both';
        /** lines read from the end of the log */
        tail?: number;
        /** keeps the lines containing it (any case) */
        search?: string;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/resource-requests': {
    get: {
      query?: {
        status?: 'pending' | 'approved' | 'denied' | 'closed' | '';
        siteId?: number | '';
      };
      responses: {
        200: {
          data: {
            id: number;
            siteId: number;
            hostname: string;
            username: string;
            resourceType: 'memory' | 'swap' | 'cpus' | 'rootfs';
            value: number;
            status: 'pending' | 'approved' | 'denied';
            comment: string | null;
            adminComment: string | null;
            reviewedBy: string | null;
            reviewedAt: string | null;
            createdAt: string;
            updatedAt: string;
            site: {
              id: number;
              name: string;
            } | null;
          }[];
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
    post: {
      body: {
        siteId: number;
        hostname: string;
        /** memory, swap, cpus or rootfs */
        resourceType: string;
        /** memory and swap in MB, rootfs in GB, cpus as a count */
        value: number;
        comment?: string | null;
        /** administrators only; default the caller */
        username?: string | null;
      };
      responses: {
        201: {
          data: {
            id: number;
            siteId: number;
            hostname: string;
            username: string;
            resourceType: 'memory' | 'swap' | 'cpus' | 'rootfs';
            value: number;
            status: 'pending' | 'approved' | 'denied';
            comment: string | null;
            adminComment: string | null;
            reviewedBy: string | null;
            reviewedAt: string | null;
            createdAt: string;
            updatedAt: string;
            site: {
              id: number;
              name: string;
            } | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/resource-requests/count': {
    get: {
      responses: {
        200: {
          data: {
            count: number;
          };
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/resource-requests/effective/{siteId}/{hostname}/{username}': {
    get: {
      path: {
        siteId: number;
        hostname: string;
        username: string;
      };
      responses: {
        200: {
          data: {
            cpus: number;
            memory: number;
            swap: number;
            rootfs: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/resource-requests/{id}/approve': {
    put: {
      path: {
        id: number;
      };
      body: {
        adminComment?: string | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            siteId: number;
            hostname: string;
            username: string;
            resourceType: 'memory' | 'swap' | 'cpus' | 'rootfs';
            value: number;
            status: 'pending' | 'approved' | 'denied';
            comment: string | null;
            adminComment: string | null;
            reviewedBy: string | null;
            reviewedAt: string | null;
            createdAt: string;
            updatedAt: string;
            site: {
              id: number;
              name: string;
            } | null;
          } & {
            /** job applying it to the container */
            jobId: number | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'already_reviewed'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/resource-requests/{id}/deny': {
    put: {
      path: {
        id: number;
      };
      body: {
        adminComment?: string | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            siteId: number;
            hostname: string;
            username: string;
            resourceType: 'memory' | 'swap' | 'cpus' | 'rootfs';
            value: number;
            status: 'pending' | 'approved' | 'denied';
            comment: string | null;
            adminComment: string | null;
            reviewedBy: string | null;
            reviewedAt: string | null;
            createdAt: string;
            updatedAt: string;
            site: {
              id: number;
              name: string;
            } | null;
          } & {
            /** job applying it to the container */
            jobId: number | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'already_reviewed'
        | 'payload_too_large'
        | 'uri_too_long'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/agents': {
    get: {
      responses: {
        200: {
          data: {
            id: number;
            siteId: number;
            siteName: string | null;
            hostname: string;
            ipv4Address: string | null;
            services: {
              [key: string]: {
                state: string;
                lastApply: 'success' | 'failure' | 'unknown';
                message?: string;
              };
            } | null;
            lastCheckinAt: string | null;
            secondsSinceCheckin: number | null;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        siteId: number;
        hostname: string;
        currentTime?: number;
        ipv4Address?: string | null;
        services?: {
          [key: string]: {
            state: string;
            lastApply: 'success' | 'failure' | 'unknown';
            message?: string;
          };
        };
        volumes?: {
          id: number;
          status: 'ready' | 'failed';
          message?: string | null;
        }[];
        volumeRemovals?: {
          id: number;
          status: 'removed' | 'failed';
          message?: string | null;
        }[];
        certificates?: {
          hostname: string;
          notAfter: string | null;
          lastError: string | null;
          nextAttempt: string | null;
        }[];
      };
      responses: {
        200: {
          data: {
            site: {
              [key: string]: unknown;
            };
            proxy: {
              [key: string]: unknown;
            };
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'validation_failed'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/agents/acme-challenges': {
    put: {
      body: {
        siteId: number;
        domain: string;
        values: string[];
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'dns_challenge_unavailable'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'validation_failed'
        | 'rate_limited'
        | 'internal_error'
        | 'dns_provider_error'
        | 'service_unavailable';
    };
  };
  '/services/{id}/last-access': {
    post: {
      path: {
        id: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/agent-tokens': {
    get: {
      path: {
        siteId: number;
      };
      responses: {
        200: {
          data: {
            id: string;
            siteId: number;
            tokenPrefix: string;
            description: string | null;
            lastUsedAt: string | null;
            createdAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      path: {
        siteId: number;
      };
      body: {
        description?: string;
      };
      responses: {
        201: {
          data: {
            id: string;
            siteId: number;
            tokenPrefix: string;
            description: string | null;
            lastUsedAt: string | null;
            createdAt: string;
            token: string;
            warning: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
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
  '/sites/{siteId}/agent-tokens/{id}': {
    delete: {
      path: {
        siteId: number;
        id: string;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/kept-volumes': {
    get: {
      path: {
        siteId: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            siteId: number;
            /** of the deleted container */
            hostname: string;
            name: string;
            hostPath: string;
            mountPath: string;
            keptAt: string;
            /** removing: the site agent deletes the folder at its next check-in; remove_failed: see statusMessage */
            status: 'kept' | 'removing' | 'remove_failed';
            statusMessage: string | null;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'site_not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/kept-volumes/{id}': {
    delete: {
      path: {
        siteId: number;
        id: number;
      };
      responses: {
        202: {
          data: {
            id: number;
            siteId: number;
            /** of the deleted container */
            hostname: string;
            name: string;
            hostPath: string;
            mountPath: string;
            keptAt: string;
            /** removing: the site agent deletes the folder at its next check-in; remove_failed: see statusMessage */
            status: 'kept' | 'removing' | 'remove_failed';
            statusMessage: string | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'site_not_found'
        | 'path_not_removable'
        | 'volume_in_use'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/notifications': {
    get: {
      query?: {
        limit?: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            source: string;
            severity: 'info' | 'warning' | 'critical';
            node: string | null;
            ctid: string | null;
            owner: string | null;
            action: string | null;
            message: string;
            evidence: {
              [key: string]: unknown;
            } | null;
            eventAt: string | null;
            acknowledgedAt: string | null;
            acknowledgedBy: string | null;
            createdAt: string;
            updatedAt: string;
          }[];
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
    post: {
      body: {
        source: string;
        severity: 'info' | 'warning' | 'critical';
        message: string;
        node?: string | null;
        ctid?: null | (number | string);
        owner?: string | null;
        action?: string | null;
        evidence?: {
          [key: string]: unknown;
        } | null;
        /** epoch seconds, up to year 9999 */
        ts?: number;
      };
      responses: {
        201: {
          data: {
            id: number;
            source: string;
            severity: 'info' | 'warning' | 'critical';
            node: string | null;
            ctid: string | null;
            owner: string | null;
            action: string | null;
            message: string;
            evidence: {
              [key: string]: unknown;
            } | null;
            eventAt: string | null;
            acknowledgedAt: string | null;
            acknowledgedBy: string | null;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/notifications/all/ack': {
    post: {
      responses: {
        200: {
          data: {
            acknowledged: number;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/notifications/{id}/ack': {
    post: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            source: string;
            severity: 'info' | 'warning' | 'critical';
            node: string | null;
            ctid: string | null;
            owner: string | null;
            action: string | null;
            message: string;
            evidence: {
              [key: string]: unknown;
            } | null;
            eventAt: string | null;
            acknowledgedAt: string | null;
            acknowledgedBy: string | null;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/external-domains': {
    get: {
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            acmeEmail: string | null;
            acmeDirectoryUrl: string | null;
            dnsProviderApiEmail: string | null;
            siteId: number | null;
            site: {
              id: number;
              name: string;
            } | null;
            authServer: string | null;
            hasDnsProviderApiKey: boolean;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        name: string;
        acmeEmail?: string | null;
        acmeDirectoryUrl?: string | null;
        dnsProviderApiEmail?: string | null;
        dnsProviderApiKey?: string | null;
        siteId?: null | number | '';
        authServer?: string | null;
        cloudflareApiEmail?: string | null;
        cloudflareApiKey?: string | null;
      };
      responses: {
        201: {
          data: {
            id: number;
            name: string;
            acmeEmail: string | null;
            acmeDirectoryUrl: string | null;
            dnsProviderApiEmail: string | null;
            siteId: number | null;
            site: {
              id: number;
              name: string;
            } | null;
            authServer: string | null;
            hasDnsProviderApiKey: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/external-domains/{id}': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            acmeEmail: string | null;
            acmeDirectoryUrl: string | null;
            dnsProviderApiEmail: string | null;
            siteId: number | null;
            site: {
              id: number;
              name: string;
            } | null;
            authServer: string | null;
            hasDnsProviderApiKey: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        id: number;
      };
      body: {
        name: string;
        acmeEmail?: string | null;
        acmeDirectoryUrl?: string | null;
        dnsProviderApiEmail?: string | null;
        dnsProviderApiKey?: string | null;
        siteId?: null | number | '';
        authServer?: string | null;
        cloudflareApiEmail?: string | null;
        cloudflareApiKey?: string | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            acmeEmail: string | null;
            acmeDirectoryUrl: string | null;
            dnsProviderApiEmail: string | null;
            siteId: number | null;
            site: {
              id: number;
              name: string;
            } | null;
            authServer: string | null;
            hasDnsProviderApiKey: boolean;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
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
    delete: {
      path: {
        id: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'in_use'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/external-domains/{id}/certificates': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            hostname: string;
            siteId: number;
            siteName: string;
            notAfter: string | null;
            lastError: string | null;
            nextAttempt: string | null;
            reportedAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/terminal': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        cols?: number;
        rows?: number;
      };
      responses: Record<string, never>;
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'no_instance'
        | 'conflict'
        | 'uri_too_long'
        | 'websocket_required'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/audit-events': {
    get: {
      query?: {
        /** the actor's uidNumber */
        user?: number;
        site?: number;
        container?: number;
        /** an action, or a prefix ending in `.` (`container.`) */
        action?: string;
        from?: string;
        /** exclusive */
        to?: string;
        cursor?: number;
        limit?: number;
      };
      responses: {
        200: {
          data: {
            events: {
              id: number;
              occurredAt: string;
              actor: {
                uidNumber: number | null;
                uid: string | null;
                apiKeyId: string | null;
                kind: 'user' | 'apikey' | 'system';
              };
              sourceAddress: string | null;
              action: string;
              target: {
                type: string | null;
                id: string | null;
                siteId: number | null;
                containerId: number | null;
              };
              outcome: 'success' | 'failure';
              httpStatus: number | null;
              errorCode: string | null;
              details: {
                [key: string]: unknown;
              } | null;
            }[];
            /** pass as `cursor` for the next (older) page */
            nextCursor: number | null;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/audit-events.csv': {
    get: {
      query?: {
        /** the actor's uidNumber */
        user?: number;
        site?: number;
        container?: number;
        /** an action, or a prefix ending in `.` (`container.`) */
        action?: string;
        from?: string;
        /** exclusive */
        to?: string;
      };
      responses: {
        200: string;
      };
      errorCode: never;
    };
  };
  '/users/me/activity': {
    get: {
      query?: {
        cursor?: number;
        limit?: number;
      };
      responses: {
        200: {
          data: {
            events: {
              id: number;
              occurredAt: string;
              actor: {
                uidNumber: number | null;
                uid: string | null;
                apiKeyId: string | null;
                kind: 'user' | 'apikey' | 'system';
              };
              sourceAddress: string | null;
              action: string;
              target: {
                type: string | null;
                id: string | null;
                siteId: number | null;
                containerId: number | null;
              };
              outcome: 'success' | 'failure';
              httpStatus: number | null;
              errorCode: string | null;
              details: {
                [key: string]: unknown;
              } | null;
            }[];
            /** pass as `cursor` for the next (older) page */
            nextCursor: number | null;
          };
        };
      };
      errorCode:
        'invalid_request' | 'unauthorized' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    };
  };
  '/sites/{siteId}/nodes/{id}/metrics': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        /** 1h and 24h: 1-minute samples; 7d and 60d: hourly averages */
        range?: '1h' | '24h' | '7d' | '60d';
      };
      responses: {
        200: {
          data: {
            range: string;
            resolutionSeconds: number;
            /** oldest first; null where the node does not report it */
            points: {
              at: string;
              /** CPUs kept busy */
              cpuCores: number | null;
              /** of the CPUs allocated (a node: it has) */
              cpuPercent: number | null;
              memoryBytes: number | null;
              /** of the memory allocated */
              memoryPercent: number | null;
              diskBytes: number | null;
              /** of the root disk allocated */
              diskPercent: number | null;
              netInBytesPerSecond: number | null;
              netOutBytesPerSecond: number | null;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/containers/{id}/metrics': {
    get: {
      path: {
        siteId: number;
        id: number;
      };
      query?: {
        /** 1h and 24h: 1-minute samples; 7d and 60d: hourly averages */
        range?: '1h' | '24h' | '7d' | '60d';
      };
      responses: {
        200: {
          data: {
            range: string;
            resolutionSeconds: number;
            /** oldest first; null where the node does not report it */
            points: {
              at: string;
              /** CPUs kept busy */
              cpuCores: number | null;
              /** of the CPUs allocated (a node: it has) */
              cpuPercent: number | null;
              memoryBytes: number | null;
              /** of the memory allocated */
              memoryPercent: number | null;
              diskBytes: number | null;
              /** of the root disk allocated */
              diskPercent: number | null;
              netInBytesPerSecond: number | null;
              netOutBytesPerSecond: number | null;
            }[];
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/sites/{siteId}/metrics/top': {
    get: {
      path: {
        siteId: number;
      };
      query?: {
        sort?: 'cpu' | 'memory' | 'disk' | 'network' | 'lastAccess';
        limit?: number;
      };
      responses: {
        200: {
          data: {
            containerId: number;
            hostname: string;
            nodeName: string;
            /** last traffic through one of its services */
            lastAccessedAt: string | null;
            at: string;
            /** CPUs kept busy */
            cpuCores: number | null;
            /** of the CPUs allocated (a node: it has) */
            cpuPercent: number | null;
            memoryBytes: number | null;
            /** of the memory allocated */
            memoryPercent: number | null;
            diskBytes: number | null;
            /** of the root disk allocated */
            diskPercent: number | null;
            netInBytesPerSecond: number | null;
            netOutBytesPerSecond: number | null;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/alert-rules': {
    get: {
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
            metric:
              'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
            comparison: 'above' | 'below';
            threshold: number;
            durationSeconds: number;
            /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
            scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
            scopeId: number | null;
            email: boolean;
            webhookUrl: string | null;
            hasWebhookSecret: boolean;
            createdAt: string;
            updatedAt: string;
          }[];
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    post: {
      body: {
        name: string;
        /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
        metric:
          'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
        comparison: 'above' | 'below';
        threshold: number;
        /** how long the condition must hold */
        durationSeconds: number;
        /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
        scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
        scopeId?: null | number;
        /** e-mail the administrators too (when SMTP is set up) */
        email?: boolean;
        webhookUrl?: string | null;
        /** write-only: signs each webhook body (X-Signature-256: sha256=<hex HMAC-SHA256>); blank keeps the stored one */
        webhookSecret?: string | null;
      };
      responses: {
        201: {
          data: {
            id: number;
            name: string;
            /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
            metric:
              'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
            comparison: 'above' | 'below';
            threshold: number;
            durationSeconds: number;
            /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
            scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
            scopeId: number | null;
            email: boolean;
            webhookUrl: string | null;
            hasWebhookSecret: boolean;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
  '/alert-rules/{id}': {
    get: {
      path: {
        id: number;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
            metric:
              'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
            comparison: 'above' | 'below';
            threshold: number;
            durationSeconds: number;
            /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
            scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
            scopeId: number | null;
            email: boolean;
            webhookUrl: string | null;
            hasWebhookSecret: boolean;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
    put: {
      path: {
        id: number;
      };
      body: {
        name: string;
        /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
        metric:
          'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
        comparison: 'above' | 'below';
        threshold: number;
        /** how long the condition must hold */
        durationSeconds: number;
        /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
        scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
        scopeId?: null | number;
        /** e-mail the administrators too (when SMTP is set up) */
        email?: boolean;
        webhookUrl?: string | null;
        /** write-only: signs each webhook body (X-Signature-256: sha256=<hex HMAC-SHA256>); blank keeps the stored one */
        webhookSecret?: string | null;
      };
      responses: {
        200: {
          data: {
            id: number;
            name: string;
            /** CPU, memory and disk in percent of what was allocated; network traffic in bytes per second */
            metric:
              'cpuPercent' | 'memoryPercent' | 'diskPercent' | 'netInBytesPerSecond' | 'netOutBytesPerSecond';
            comparison: 'above' | 'below';
            threshold: number;
            durationSeconds: number;
            /** containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too) */
            scope: 'containers' | 'nodes' | 'site' | 'node' | 'container';
            scopeId: number | null;
            email: boolean;
            webhookUrl: string | null;
            hasWebhookSecret: boolean;
            createdAt: string;
            updatedAt: string;
          };
        };
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
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
    delete: {
      path: {
        id: number;
      };
      responses: {
        204: void;
      };
      errorCode:
        | 'invalid_request'
        | 'unauthorized'
        | 'forbidden'
        | 'csrf_invalid'
        | 'not_found'
        | 'uri_too_long'
        | 'rate_limited'
        | 'internal_error'
        | 'service_unavailable';
    };
  };
}
