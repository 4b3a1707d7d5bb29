import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, throwError } from 'rxjs';
import { ApiError } from '@payments/contracts';
import type { AuthenticatedRequest } from './basic-auth.guard';
import { HttpErrorFilter } from '../errors/http-error.filter';
import { sourceAddress } from './failed-auth-throttle';
import { credentialPathKeys } from './failed-attempts';
import { FailureWindows, LimitedKey } from './failure-windows';

/**
 * On operations whose path holds the credential (`auth: 'none'`, operation-routes.ts): an attempt is refused with 429
 * RATE_LIMITED and Retry-After before the service is asked when its code, its source address or the gateway as a
 * whole has failed too often (failed-attempts.ts, counted by failure-windows.ts); a 4xx answer is counted as a failure.
 */
@Injectable()
export class FailedAttemptsInterceptor implements NestInterceptor {
  constructor(
    private readonly attempts: FailureWindows,
    private readonly errors: HttpErrorFilter,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const keys = attemptKeysOf(request);
    const retryAfterSeconds = this.attempts.retryAfter(keys);
    if (retryAfterSeconds > 0) throw new ApiError('RATE_LIMITED', 'too many failed attempts: try again later', { retryAfterSeconds });
    return next.handle().pipe(
      catchError((error: unknown) => {
        const status = this.errors.toEnvelope(error).status;
        if (status >= 400 && status < 500 && status !== 429) this.attempts.fail(keys);
        return throwError(() => error);
      }),
    );
  }
}

/** The credential as the path gives it, in one spelling (codes compare without case or dashes), and the source. */
function attemptKeysOf(request: AuthenticatedRequest): LimitedKey[] {
  const credential = Object.values((request.params ?? {}) as Record<string, string>).join('/').toUpperCase().replace(/[^A-Z0-9/]/g, '');
  return credentialPathKeys(credential, sourceAddress(request));
}
