import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/**
 * Fastify compiles every route's validators and serializers while it starts, which was a third of the
 * manager's start-up time. These factories wrap Fastify's default ones so that each route's functions
 * are compiled by the first request that needs them: health checks answer sooner, and every request is
 * checked exactly as before.
 */
export const lazySchemaCompilers: Required<CompilersFactory> = {
  buildValidator: lazily(AjvCompiler()),
  buildSerializer: lazily(SerializerSelector()),
};

type Compiled = ((data: never) => unknown) & { errors?: unknown };

function lazily<Args extends unknown[], Route, Fn extends Compiled>(
  factory: (...args: Args) => (route: Route) => Fn,
) {
  return (...args: Args) => {
    const compile = factory(...args);
    return (route: Route): Fn => {
      let compiled: Fn | undefined;
      const run: Compiled = (data) => {
        compiled ??= compile(route);
        const result = compiled(data);
        // Fastify reads a failed validation's details from the validator function itself.
        run.errors = compiled.errors;
        return result;
      };
      return run as Fn;
    };
  };
}
