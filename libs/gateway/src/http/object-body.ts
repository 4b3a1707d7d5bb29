import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ApiError } from '@payments/contracts';

/**
 * Every operation's body is an object: an array or a bare value is refused before validation looks at it (the
 * validation pipe would name no field). Its depth, array lengths and text were checked once parsed
 * (request-checks.ts), multipart fields included; listed before the validation pipe.
 */
export const requireObjectBody: PipeTransform = {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || metadata.data !== undefined) return value;
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ApiError('INVALID_INPUT', 'the request body must be a JSON object', { errors: [{ field: 'body', message: 'send a JSON object' }] });
    }
    return value;
  },
};
