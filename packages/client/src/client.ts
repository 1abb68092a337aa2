import createClient, {
  type Client,
  type FetchOptions,
  type FetchResponse,
  type HeadersOptions,
  mergeHeaders,
} from 'openapi-fetch';
import type { MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { type FetchLike, type RetryOptions, retrying } from './retry.js';

/** The routes of the document whose path starts with one of `Prefix`. */
type PathsUnder<Prefix extends string> = {
  [Path in keyof paths as Path extends `${Prefix}${string}` ? Path : never]: paths[Path];
};

/** Interface A: API key, `/v1/api/...`. */
export type InterfaceAPaths = PathsUnder<'/v1/api/'>;
/** Interface B: OAuth 2.0 bearer token; every body carries `rateLimit`. */
export type InterfaceBPaths = PathsUnder<'/v1/project/' | '/v1/aggregator/' | '/v1/swap/' | '/v1/webhooks/'>;
/** Solana Actions: public, no credentials. */
export type ActionsPaths = PathsUnder<'/actions.json' | '/.well-known/actions.json' | '/v1/actions/'>;
/** The operator's API (admin token), OAuth client registration included. */
export type AdminPaths = PathsUnder<'/v1/admin/' | '/oauth/clients'>;

export interface ClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8787`. */
  readonly baseUrl: string;
  /** Defaults to the global `fetch`; pass one to add a proxy, logging, or a test double. */
  readonly fetch?: FetchLike;
  /** Retries of 429 and 503; `false` sends each request once. */
  readonly retry?: RetryOptions | false;
  /** Headers sent with every request (a `User-Agent`, a tracing header...). */
  readonly headers?: HeadersOptions;
}

/** Per call, besides openapi-fetch's own options (`params`, `body`, `headers`, `signal`, ...). */
export interface CallOptions {
  /**
   * POST only: the `Idempotency-Key` to send, e.g. to resume an operation after a crash. By default
   * each call gets a fresh UUID, which its retries reuse. `false` sends none (the call is then
   * never retried).
   */
  readonly idempotencyKey?: string | false;
}

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The operation behind `path` and `method`, as openapi-typescript declares it. */
type Operation<Paths, Path extends keyof Paths, M extends Method> = M extends keyof Paths[Path]
  ? Paths[Path][M]
  : never;

/** The data of a 2xx answer, as the document declares it (`parseAs` changes it, as in openapi-fetch). */
export type ResultOf<Op, Init> =
  Op extends Record<string | number, unknown>
    ? NonNullable<FetchResponse<Op, Init, MediaType>['data']>
    : never;

type Init<Paths, Path extends keyof Paths, M extends Method> = FetchOptions<Operation<Paths, Path, M>> &
  CallOptions;
/** The init argument is optional exactly when the operation requires nothing (no body, no path parameter). */
type InitArg<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];

type Call<Paths extends {}, M extends Method> = <
  Path extends PathsWithMethod<Paths, M>,
  I extends Init<Paths, Path, M>,
>(
  path: Path,
  ...init: InitArg<I>
) => Promise<ResultOf<Operation<Paths, Path, M>, I>>;

/**
 * A typed client of one interface: each method resolves with the answer's data and throws a
 * `TokenActionsError` on any status outside 2xx.
 */
export interface ApiClient<Paths extends {}> {
  readonly GET: Call<Paths, 'get'>;
  readonly POST: Call<Paths, 'post'>;
  readonly PATCH: Call<Paths, 'patch'>;
  readonly DELETE: Call<Paths, 'delete'>;
  /** The underlying openapi-fetch client (`{data, error, response}`, no throwing, no default key). */
  readonly raw: Client<Paths>;
}

/** A bearer credential: a string, or a function asked before each request (e.g. to refresh a token). */
export type Credential = string | (() => string | Promise<string>);

interface Setup {
  readonly credential?: Credential;
  /** Whether POSTs get an `Idempotency-Key` unless the call says otherwise. */
  readonly idempotencyKeys: boolean;
}

/** A client of interface A (`/v1/api/...`), authenticated by an API key. */
export function createInterfaceAClient(options: ClientOptions & { readonly apiKey: string }) {
  return createApiClient<InterfaceAPaths>(options, { credential: options.apiKey, idempotencyKeys: true });
}

/**
 * A client of interface B, authenticated by an OAuth 2.0 access token (see `createOAuthClient`):
 * pass a function to hand it a fresh token before each request. Results and errors carry `rateLimit`.
 */
export function createInterfaceBClient(options: ClientOptions & { readonly accessToken: Credential }) {
  return createApiClient<InterfaceBPaths>(options, {
    credential: options.accessToken,
    idempotencyKeys: true,
  });
}

/**
 * A client of the Solana Actions. Their POSTs get no `Idempotency-Key` by default: the Actions'
 * CORS headers (`ACTIONS_CORS_HEADERS` of `@solana/actions`) do not admit it, so a browser would
 * fail the preflight, and an action POST only builds an unsigned transaction for the wallet.
 */
export function createActionsClient(options: ClientOptions) {
  return createApiClient<ActionsPaths>(options, { idempotencyKeys: false });
}

/** A client of the admin API and OAuth client registration, authenticated by the operator's token. */
export function createAdminClient(options: ClientOptions & { readonly adminToken: string }) {
  return createApiClient<AdminPaths>(options, { credential: options.adminToken, idempotencyKeys: true });
}

/** What openapi-fetch's `request` is at run time, whatever the path: the public types are `Call`'s. */
type UntypedRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function createApiClient<Paths extends {}>(options: ClientOptions, setup: Setup): ApiClient<Paths> {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createClient<Paths>({
    baseUrl: options.baseUrl,
    fetch: options.retry === false ? base : retrying(base, options.retry),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const { credential } = setup;
  if (credential !== undefined) {
    raw.use({
      async onRequest({ request }) {
        const token = typeof credential === 'string' ? credential : await credential();
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    });
  }
  const request = (raw as unknown as { request: UntypedRequest }).request;

  const call =
    (method: 'GET' | 'POST' | 'PATCH' | 'DELETE') =>
    async (path: string, init: Record<string, unknown> & CallOptions = {}): Promise<unknown> => {
      const { idempotencyKey, ...rest } = init;
      const headers = mergeHeaders(
        rest.headers as HeadersOptions | undefined,
        (rest.params as { header?: HeadersOptions } | undefined)?.header,
      );
      if (method === 'POST') {
        if (typeof idempotencyKey === 'string') headers.set('Idempotency-Key', idempotencyKey);
        else if (idempotencyKey === false) headers.delete('Idempotency-Key');
        // Made once per call, before the retries, which send this same request again.
        else if (setup.idempotencyKeys && !headers.has('Idempotency-Key'))
          headers.set('Idempotency-Key', crypto.randomUUID());
      }
      const { params, ...others } = rest as { params?: Record<string, unknown> };
      const { header: _mergedAbove, ...otherParams } = params ?? {};
      const { data, error, response } = await request(method, path, {
        ...others,
        params: otherParams,
        headers,
      });
      if (!response.ok) throw errorFromResponse(response, error);
      return data;
    };

  return {
    GET: call('GET') as Call<Paths, 'get'>,
    POST: call('POST') as Call<Paths, 'post'>,
    PATCH: call('PATCH') as Call<Paths, 'patch'>,
    DELETE: call('DELETE') as Call<Paths, 'delete'>,
    raw,
  };
}
