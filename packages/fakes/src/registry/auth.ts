import { randomBytes } from 'node:crypto';

export interface RegistryAuthOptions {
  /** `token` (default): Bearer challenge + token endpoint; `none`: open registry. */
  mode?: 'token' | 'none';
  /** Basic credentials the token endpoint accepts. */
  users?: Record<string, string>;
  /** Repositories that need credentials (others allow anonymous pull, like public Hub images). */
  privateRepositories?: string[];
  /** `service` in the challenge (default `registry.fake`). */
  service?: string;
  /** Token lifetime in seconds (default 300). */
  expiresIn?: number;
}

interface Grant {
  scopes: Set<string>;
  expires: number;
}

/** Docker token authentication: issues bearer tokens for `repository:<name>:pull` scopes. */
export class RegistryTokens {
  private readonly grants = new Map<string, Grant>();

  constructor(readonly options: RegistryAuthOptions) {}

  get enabled(): boolean {
    return (this.options.mode ?? 'token') === 'token';
  }

  get service(): string {
    return this.options.service ?? 'registry.fake';
  }

  /**
   * Token endpoint: scopes the caller may have. `undefined` = bad credentials. Private repositories
   * are silently dropped from an anonymous token's scope (as Docker Hub does), so the later call fails.
   */
  issue(
    authorization: string | undefined,
    scopes: string[],
  ): { token: string; expiresIn: number } | undefined {
    let user: string | undefined;
    if (authorization?.startsWith('Basic ')) {
      const [name, ...rest] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
      if (this.options.users?.[name!] !== rest.join(':')) return undefined;
      user = name;
    }
    const granted = scopes.filter((scope) => {
      const repo = scope.split(':')[1] ?? '';
      return user !== undefined || !(this.options.privateRepositories ?? []).includes(repo);
    });
    const token = randomBytes(24).toString('base64url');
    const expiresIn = this.options.expiresIn ?? 300;
    this.grants.set(token, {
      scopes: new Set(granted.map(normaliseScope)),
      expires: Date.now() + expiresIn * 1000,
    });
    return { token, expiresIn };
  }

  allows(authorization: string | undefined, repository: string | undefined): boolean {
    if (!this.enabled) return true;
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const grant = token ? this.grants.get(token) : undefined;
    if (!grant || grant.expires < Date.now()) return false;
    return repository === undefined || grant.scopes.has(`repository:${repository}:pull`);
  }

  /** Expire every token (clients must fetch a new one). */
  revokeAll(): void {
    this.grants.clear();
  }
}

/** `repository:x:pull,push` → `repository:x:pull` when pull is among the actions. */
function normaliseScope(scope: string): string {
  const parts = scope.split(':');
  const actions = (parts.pop() ?? '').split(',');
  return actions.includes('pull') || actions.includes('*') ? `${parts.join(':')}:pull` : scope;
}
