import { safeDecode } from './ids.ts';
import type { Handler } from './types.ts';

interface Route {
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
}

/**
 * A tiny method + path router. Patterns use `:name` for one segment and `:name*` for the rest of the
 * path (image names contain slashes). Params are percent-decoded.
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    const names: string[] = [];
    const source = pattern
      .split('/')
      .map((segment) => {
        const param = /^:(\w+)(\*)?$/.exec(segment);
        if (!param) return segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
        names.push(param[1]!);
        return param[2] ? '(.+)' : '([^/]+)';
      })
      .join('/');
    this.routes.push({ method: method.toUpperCase(), regex: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: Handler): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: Handler): this {
    return this.add('PUT', pattern, handler);
  }
  delete(pattern: string, handler: Handler): this {
    return this.add('DELETE', pattern, handler);
  }

  /** The first route matching method and path (HEAD falls back to GET); `undefined` when none does. */
  match(method: string, path: string): RouteMatch | undefined {
    const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
    for (const candidate of wanted) {
      for (const route of this.routes) {
        if (route.method !== candidate) continue;
        const found = route.regex.exec(path);
        if (!found) continue;
        const params: Record<string, string> = {};
        route.names.forEach((name, i) => (params[name] = safeDecode(found[i + 1]!)));
        return { handler: route.handler, params };
      }
    }
    return undefined;
  }
}
