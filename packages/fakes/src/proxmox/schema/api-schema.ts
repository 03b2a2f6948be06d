import { readFileSync } from 'node:fs';
import { safeDecode } from '../../shared/ids.ts';

/** One property of a parameter or return schema, as the API viewer exports it (PVE JSONSchema). */
export interface PropertySchema {
  type?: string;
  optional?: number;
  /** A named format (`pve-node`, `mac-addr`, ...) or a property-string format (`net[n]`, `rootfs`, ...). */
  format?: string | Record<string, PropertySchema>;
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default_key?: number;
  requires?: string;
  properties?: Record<string, PropertySchema>;
  additionalProperties?: number;
  items?: PropertySchema;
}

export interface MethodSchema {
  parameters?: { properties?: Record<string, PropertySchema>; additionalProperties?: number };
  returns?: PropertySchema;
  allowtoken?: number;
  protected?: number;
}

interface ApiSchema {
  source: string;
  paths: Record<string, Record<string, MethodSchema>>;
}

const schemaFile = new URL('../../../fixtures/proxmox/pve-api-schema.json', import.meta.url);
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as ApiSchema;

interface PathTemplate {
  template: string;
  regex: RegExp;
  names: string[];
}

/** Literal templates first, so `/nodes/{node}/lxc/{vmid}/status/current` wins over `{action}` kinds. */
const templates: PathTemplate[] = Object.keys(schema.paths)
  .map((template) => {
    const names: string[] = [];
    const source = template
      .split('/')
      .map((segment) => {
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (!name) return segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      })
      .join('/');
    return { template, regex: new RegExp(`^${source}$`), names };
  })
  .sort((a, b) => a.names.length - b.names.length);

export interface Endpoint {
  /** `/nodes/{node}/lxc/{vmid}/status/start` */
  template: string;
  method: string;
  /** Values of the `{name}` segments, percent-decoded. */
  pathParams: Record<string, string>;
  schema: MethodSchema;
}

/**
 * The schema's endpoint for a request path below `/api2/json`: `undefined` when no path template
 * matches; `schema` absent when the path exists but not with this method (both are PVE's 501).
 */
export function findEndpoint(
  method: string,
  path: string,
): Endpoint | { template: string; schema?: never } | undefined {
  for (const { template, regex, names } of templates) {
    const match = regex.exec(path);
    if (!match) continue;
    const methodSchema = schema.paths[template]![method];
    if (!methodSchema) return { template };
    const pathParams: Record<string, string> = {};
    names.forEach((name, index) => (pathParams[name] = safeDecode(match[index + 1]!)));
    return { template, method, pathParams, schema: methodSchema };
  }
  return undefined;
}

/** The parameters of one method of one path template (`PUT`, `/nodes/{node}/lxc/{vmid}/config`). */
export function parametersOf(template: string, method: string): Record<string, PropertySchema> {
  return schema.paths[template]?.[method]?.parameters?.properties ?? {};
}
