import { ErrorCode, statusOf } from './error-codes';
import { ErrorEnvelope } from './error-envelope';

/** An error meant for the API caller; carries the envelope across RPC and into the HTTP response unchanged. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }

  toEnvelope(): ErrorEnvelope {
    return { status: this.status, code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static fromEnvelope(envelope: ErrorEnvelope): ApiError {
    const error = new ApiError(envelope.code, envelope.message, envelope.details);
    (error as { status: number }).status = envelope.status;
    return error;
  }
}

/** 400 INVALID_INPUT naming the one field that is wrong (`details.errors[]`, as validation failures are). */
export function invalidInput(field: string, message: string): ApiError {
  return new ApiError('INVALID_INPUT', message, { errors: [{ field, message }] });
}
