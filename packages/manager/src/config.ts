import { readFleetConfig, type FleetConfig } from './fleet-config.ts';
import { readContainersConfig, type ContainersConfig } from './containers/containers-config.ts';
import {
  envReader,
  loadSecretKey,
  readCommonConfig,
  type CommonConfig,
  type EnvReader,
} from '@app/server-kit';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

export interface ManagerConfig extends CommonConfig {
  port: number;
  databaseUrl: string | undefined;
  secretKey: string;
  /** Base of every link we send (e-mails, SSO redirects); never taken from the Host header. */
  publicUrl: string;
  oidc: OidcConfig | undefined;
  fleet: FleetConfig;
  containers: ContainersConfig;
}

export function readManagerConfig(env: EnvReader = envReader()): ManagerConfig {
  const common = readCommonConfig(env);
  const port = env.int('MANAGER_PORT', 3000, { min: 0, max: 65535 });
  const issuer = env.url('OIDC_ISSUER');
  const clientId = env.optionalString('OIDC_CLIENT_ID');
  return {
    ...common,
    port,
    databaseUrl: env.optionalString('MANAGER_DATABASE_URL'),
    secretKey: loadSecretKey(env.optionalString('SECRET_KEY'), common.dataDir),
    publicUrl: (env.url('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    fleet: readFleetConfig(env),
    containers: readContainersConfig(env),
    oidc:
      issuer && clientId
        ? { issuer, clientId, clientSecret: env.optionalString('OIDC_CLIENT_SECRET') }
        : undefined,
  };
}
