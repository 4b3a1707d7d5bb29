import type { SignedOutcome, WalletSignatureHeaders } from '@payments/contracts';
import type { FastifyRequest as Request } from 'fastify';

/**
 * A challenge to sign, answered 202 by HttpErrorFilter. Thrown rather than returned because Nest writes a route's
 * declared status over whatever the handler sets; and the idempotency interceptor keeps no 202 for its key, so the
 * signed retry may carry the same Idempotency-Key as the first call.
 */
export class SignedChallengeIssued {
  constructor(readonly body: unknown) {}
}

/** The two headers of a signed retry; a header sent twice arrives joined and fails as malformed. */
export function walletSignatureHeaders(request: Request): WalletSignatureHeaders {
  const walletSignature = request.headers['service-wallet-signature'];
  const requestId = request.headers['request-id'];
  return {
    ...(typeof walletSignature === 'string' ? { walletSignature } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/** The result of a signed operation, or the 202 of its challenge. */
export function unwrapSignedOutcome(outcome: SignedOutcome<unknown, unknown>): unknown {
  if (outcome.challenge !== undefined) throw new SignedChallengeIssued(outcome.challenge);
  return outcome.result;
}
