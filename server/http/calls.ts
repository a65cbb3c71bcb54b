/**
 * Registers the wire contract's calls through one helper: the request is validated
 * with the contract's schema before any handler (and so any database work) runs, and a bad
 * one is answered 400 with a message naming the field. Unknown fields are dropped.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calls, type CallName, type ParsedRequestOf, type ResponseOf } from '../../contract/index.ts';
import { unchecked } from '../../contract/unchecked.ts';

export interface CallContext<N extends CallName> {
  input: ParsedRequestOf<N>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A handler answers the contract's response, or nothing when it has replied itself (a redirect). */
export type Handler<N extends CallName> = (ctx: CallContext<N>) => Promise<ResponseOf<N> | undefined>;
export type Handlers = { [N in CallName]: Handler<N> };
/** The calls of the sandboxes, served in demo mode only (server/routes/sandbox/); the API serves the others. */
export type SandboxCall = 'saveSandboxCard' | 'tokeniseSandboxSquareCard';
export type InvalidHandler = (request: FastifyRequest, reply: FastifyReply, message: string) => Promise<unknown>;

export function describeIssue(
  issue: { readonly path: readonly PropertyKey[]; readonly message: string } | undefined,
): string {
  if (!issue) return 'The request is not valid';
  const field = issue.path.map(String).join('.');
  return field ? `Invalid ${field}: ${issue.message}` : `Invalid request: ${issue.message}`;
}

type SchemaDef = {
  type?: string;
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  valueType?: { _zod: { def: SchemaDef } };
  innerType?: { _zod: { def: SchemaDef } };
  element?: { _zod: { def: SchemaDef } };
  options?: { _zod: { def: SchemaDef } }[];
  in?: { _zod: { def: SchemaDef } };
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Forms are parsed without arrays, because the spec keys maps by numeric id
 * (`gift_voucher[12][qty]`) and a query-string parser would turn those into arrays. Here,
 * guided by the contract, `{ "0": …, "1": … }` becomes an array only where the schema wants one.
 */
export function shapeForSchema(value: unknown, def: SchemaDef | undefined): unknown {
  if (!def) return value;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return shapeForSchema(value, def.innerType?._zod.def);
    case 'pipe':
      return shapeForSchema(value, def.in?._zod.def);
    case 'union':
      return def.options?.some((o) => o._zod.def.type === 'array')
        ? shapeForSchema(value, {
            type: 'array',
            element: def.options.find((o) => o._zod.def.type === 'array')!._zod.def.element,
          })
        : value;
    case 'array': {
      if (!isPlainObject(value)) return value;
      const keys = Object.keys(value);
      if (!keys.every((k) => /^(0|[1-9]\d{0,3})$/.test(k))) return value;
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => shapeForSchema(value[k], def.element?._zod.def));
    }
    case 'object':
      if (!isPlainObject(value) || !def.shape) return value;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          Object.hasOwn(def.shape!, k) ? shapeForSchema(v, def.shape![k]!._zod.def) : v,
        ]),
      );
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeForSchema(v, def.valueType?._zod.def)]));
    default:
      return value;
  }
}

/** Registers the calls that `handlers` answers, each at the contract's path and method. */
export function registerCalls<N extends CallName>(
  app: FastifyInstance,
  handlers: Pick<Handlers, N>,
  onInvalid: Partial<Record<N, InvalidHandler>> = {},
): void {
  for (const name of Object.keys(handlers) as N[]) {
    const call = calls[name];
    const handler = handlers[name] as Handler<CallName>;
    app.route({
      method: call.method,
      // A `{name}` in the spec's path is a path parameter, validated with the request's fields.
      url: call.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        const fields = call.method === 'GET' ? request.query : (request.body ?? {});
        const params = request.params as Record<string, string> | undefined;
        const raw =
          params &&
          Object.keys(params).length > 0 &&
          fields !== null &&
          typeof fields === 'object' &&
          !Array.isArray(fields)
            ? { ...fields, ...params }
            : fields;
        const parsed =
          raw !== null && typeof raw === 'object' && !Array.isArray(raw)
            ? call.request.safeParse(
                shapeForSchema(raw, unchecked<{ _zod: { def: SchemaDef } }>(call.request)._zod.def),
              ) // zod's own definition, which its public types leave out
            : ({ success: false, error: { issues: [{ path: [], message: 'expected an object of fields' }] } } as const);
        if (!parsed.success) {
          const message = describeIssue(parsed.error.issues[0]);
          const custom = onInvalid[name] as InvalidHandler | undefined;
          if (custom) return custom(request, reply, message);
          return reply.status(400).send({ error: message });
        }
        const result = await handler({ input: parsed.data as ParsedRequestOf<CallName>, request, reply });
        if (reply.sent) return reply;
        return result;
      },
    });
  }
}
