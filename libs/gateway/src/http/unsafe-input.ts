import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ApiError } from '@payments/contracts';
import { jsonBodyProblem } from './json-body-problem';

/**
 * The body check of the request checks (request-checks.ts) as a global pipe too, so a multipart body's text fields
 * are named for what they are and every body is an object. (A JSON body passes it a second time, cheaply: its depth
 * is bounded by then.) Listed before the validation pipe, so the field is named for what it is, not for its format.
 */
export const refuseUnsafeRouteBody: PipeTransform = {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || metadata.data !== undefined) return value;
    // Every operation's body is an object: an array or a bare value is refused before validation looks at it.
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ApiError('INVALID_INPUT', 'the request body must be a JSON object', { errors: [{ field: 'body', message: 'send a JSON object' }] });
    }
    const problem = jsonBodyProblem(value);
    if (problem) throw new ApiError('INVALID_INPUT', problem.message, { errors: [problem] });
    return value;
  },
};
