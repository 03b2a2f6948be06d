/**
 * Lookups into the `paths` interface a service's OpenAPI document generates (`npm run generate`), so a
 * web client types its calls by what the server declares: `Paths` is that interface.
 */

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths that have an operation for the method. */
export type PathOf<Paths, M extends Method> = {
  [P in keyof Paths]: Paths[P] extends Record<M, unknown> ? P : never;
}[keyof Paths];

export type Operation<Paths, M extends Method, P extends PathOf<Paths, M>> = Paths[P][M & keyof Paths[P]];

/** The bodies of the operation's success answers. */
export type SuccessOf<Paths, M extends Method, P extends PathOf<Paths, M>> =
  Operation<Paths, M, P> extends { responses: infer R } ? R[keyof R] : never;

/** The error codes the operation's answers list. */
export type ErrorCodeOf<Paths, M extends Method, P extends PathOf<Paths, M>> =
  Operation<Paths, M, P> extends { errorCode: infer C } ? C : never;

/** The query an operation takes. */
export type QueryOf<Paths, M extends Method, P extends PathOf<Paths, M>> = NonNullable<
  Operation<Paths, M, P> extends { query?: infer Q } ? Q : never
>;

/** The path values, query and body of a call: what the operation declares, under the same names. */
export type InitOf<Paths, M extends Method, P extends PathOf<Paths, M>> = Pick<
  Operation<Paths, M, P>,
  Extract<keyof Operation<Paths, M, P>, 'path' | 'query' | 'body'>
>;

/** A call's second argument: none when the operation takes nothing, optional when nothing in it is required. */
export type InitArgs<Paths, M extends Method, P extends PathOf<Paths, M>> = [
  keyof InitOf<Paths, M, P>,
] extends [never]
  ? []
  : object extends InitOf<Paths, M, P>
    ? [init?: InitOf<Paths, M, P>]
    : [init: InitOf<Paths, M, P>];

/**
 * What a call answers, undefined for 204 No Content: the whole body (`'body'`), or the `data` of the
 * `{ data }` envelope the service wraps its answers in (`'data'`).
 */
export type AnswerOf<Paths, M extends Method, P extends PathOf<Paths, M>, Envelope extends 'body' | 'data'> =
  SuccessOf<Paths, M, P> extends infer B
    ? Envelope extends 'data'
      ? B extends { data: infer D }
        ? D
        : undefined
      : B extends void
        ? undefined
        : B
    : never;
