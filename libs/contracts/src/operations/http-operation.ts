import type { OperatorRole } from '../operator/operator';
import type { Permission, RpcRequest } from '../rpc/rpc';
import type { RpcContract } from '../rpc/rpc-contract';
import type { WalletSignatureHeaders } from '../wallet-auth/signed-request';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SuccessStatus = 200 | 201 | 202 | 204;
/** The error statuses an operation can answer; each is documented with the shared `Error` body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 423 | 424 | 429 | 500 | 501 | 503;
/** The services behind the gateway, by the name of their RPC client. */
export type ServiceName = 'identity' | 'accounts' | 'quoting' | 'payments' | 'webhooks' | 'walletAuth' | 'cards' | 'agents';

/** A class-validator class of libs/contracts: the gateway validates with it, the document is generated from it. */
export type DtoClass<T = object> = new (...args: never[]) => T;

/** The names of the `{param}` segments of a path template, e.g. `customerId` of `/customers/{customerId}`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

/** A multipart file part as the gateway received it. */
export interface UploadedPart {
  originalName: string;
  buffer: Buffer;
}

/** What an operation's `request` mapping sees of the HTTP request, validated. */
export interface OperationInput<P extends string, Q, B> {
  params: Record<PathParams<P>, string>;
  query: Q;
  body: B;
  /** The multipart `file` part, when the operation declares one and it was sent. */
  file?: UploadedPart;
  /** The gateway's origin as clients reach it (PUBLIC_URL, else the request's scheme and Host), for links it hands out. */
  origin: string;
  /** `Service-Wallet-Signature` and `Request-Id`, read for operations with `signedRetry` or `walletSignature` (empty for others). */
  signature: WalletSignatureHeaders;
}

/** A file as a service answers it over RPC (an operation with `fileResponse`): its name, type and bytes in base64. */
export interface FileAnswer {
  fileName: string;
  contentType: string;
  base64: string;
}

/** A success body: a named response schema (generated from the TS type of that name), or a page of them. */
export type ResponseShape = string | { page: string };

/**
 * One public HTTP operation, declared once. The gateway routes, authorizes, validates and forwards it from this
 * declaration (libs/gateway/src/routing), the OpenAPI document is generated from it, and `request` is checked by the
 * compiler against the RPC contract of the service that answers it.
 */
export interface HttpOperation<P extends string = string, Q = unknown, B = unknown, Body = unknown, Result = unknown> {
  /** The published operationId where the published API has the operation. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template under the version prefix, e.g. `/customers/{customerId}`. */
  path: P;
  tag: string;
  summary: string;
  description?: string;
  permission: Permission;
  /**
   * Who may call it: platform credentials (HTTP Basic, the default), an agent's bearer access token (Agent
   * Operations: the caller carries the agent, and its policy decides in the agents service), or nobody in particular
   * (the path holds the credential, e.g. a device code).
   */
  auth?: 'agent' | 'none' | 'operator';
  /**
   * An operation of the operator API (`auth: 'operator'`, listed in OPERATOR_OPERATIONS, served under /operator/v1):
   * the least role that may call it. Its RPC contract (`operatorRpc`) names the same role; `permission` is not read.
   */
  operatorRole?: OperatorRole;
  /**
   * The operation exists only in the sandbox (a simulator, a test delivery): to production credentials and
   * production agents it answers 404 as an unknown route does. The gateway refuses it from this flag (never from
   * the path), and the service refuses it again from its RPC contract (`sandboxRpc`), which must say the same.
   */
  sandboxOnly?: true;
  service: ServiceName;
  rpc: RpcContract<RpcRequest<Body>, Result>;
  query?: DtoClass<Q>;
  /** A JSON body; `bodyOptional` when it may be left out altogether. */
  body?: DtoClass<B>;
  bodyOptional?: boolean;
  /** A multipart/form-data body: `fields` validates the text parts (none without it), `file` is the one binary part. */
  multipart?: { fields?: DtoClass<B>; file: { required: boolean; description: string; maxBytes: number; maxFields: number } };
  status: SuccessStatus;
  response?: ResponseShape;
  /**
   * The success answer is a file rather than JSON (a KYC document for a reviewer): the RPC answers a FileAnswer and the
   * gateway sends its bytes with its Content-Type (one of `contentTypes`, else 500), `Content-Disposition: attachment`
   * and `Cache-Control: no-store`. Instead of `response`.
   */
  fileResponse?: { contentTypes: readonly string[]; description: string };
  /**
   * The operation may answer 202 with a challenge to sign (the signed retry, libs/contracts/src/wallet-auth): the RPC
   * answers a SignedOutcome, the gateway reads the two signature headers, and the document shows the 202 body (the
   * named response schema) and the headers.
   */
  signedRetry?: { challenge: 'SignedRequestChallenge' | 'AuthSignedRequestChallenge' };
  /** The operation reads `Service-Wallet-Signature` over a payload it issued before (no 202, no Request-Id): quote execution. */
  walletSignature?: true;
  /**
   * Fields of the success body shown once (secrets, bearer codes and links), as dot paths; `[]` steps into every item
   * of an array (`deviceCode.code`). The gateway's Idempotency-Key record keeps the answer without them, so a replay
   * answers the same resource with them left out (docs/api-conventions.md). Every operation whose answer carries a
   * secret declares it here.
   */
  shownOnce?: readonly string[];
  /** A POST the published API makes unsafe to send without `Idempotency-Key`: a request without one is 400 INVALID_INPUT. */
  idempotencyKey?: 'required';
  /**
   * Statuses beyond those every operation of its shape can answer (400 for a URL or body that is not well-formed,
   * 401, 403, 429, 500 and 503 always; 413 and 415 with a body; 404 with path parameters or when sandbox-only; 409 on
   * every POST through Idempotency-Key).
   */
  errors?: ErrorStatus[];
  /** Builds the RPC body from the validated request. */
  request: (input: OperationInput<P, Q, B>) => NoInfer<Body>;
}

/** Declares an operation; the type parameters are inferred, so `request` is checked against `rpc`. */
export function operation<const P extends string, Q = Record<string, never>, B = Record<string, never>, Body = unknown, Result = unknown>(
  declaration: HttpOperation<P, Q, B, Body, Result>,
): HttpOperation<P, Q, B, Body, Result> {
  return declaration;
}

/** Any declared operation, as the gateway and the document generator hold them. */
export type AnyHttpOperation = HttpOperation<string, any, any, any, any>;

/** Every status an operation can answer with an error: its shape's defaults and its own. */
export function errorStatusesOf(op: AnyHttpOperation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([400, 401, 403, 429, 500, 503, ...(op.errors ?? [])]);
  if (op.body || op.multipart) [413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  if (op.path.includes('{') || op.sandboxOnly) statuses.add(404); // sandbox-only: 404 to production credentials
  if (op.method === 'POST') statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}
