import { ArgumentsHost, Catch, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { ApiError, ErrorEnvelope, OUTAGE_ENVELOPE, statusOf } from '@payments/contracts';
import { DomainError, isInfrastructureFailure } from '@payments/eventsourcing';

/**
 * Turns whatever a service handler throws into the public error envelope, so the gateway can answer with it
 * unchanged. Rule failures keep their code; an outage of what the service needs (its database, the bus, a peer) is
 * 503 SERVICE_UNAVAILABLE, so the gateway answers 503 with Retry-After and a consumer calling it waits instead of
 * parking its message; anything else becomes INTERNAL_ERROR with no internals leaked.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly log: (message: string, error: unknown) => void = () => undefined) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => toEnvelope(exception, this.log));
  }
}

export function toEnvelope(exception: unknown, log: (message: string, error: unknown) => void): ErrorEnvelope {
  if (exception instanceof ApiError) return exception.toEnvelope();
  if (exception instanceof DomainError) {
    return { status: statusOf(exception.code), code: exception.code, message: exception.message, ...(exception.details ? { details: exception.details } : {}) };
  }
  if (isInfrastructureFailure(exception)) return OUTAGE_ENVELOPE;
  log('unexpected error in RPC handler', exception);
  return { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' };
}
