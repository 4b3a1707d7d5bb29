import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldError } from '@payments/contracts';

/**
 * class-validator on every body: unknown fields are rejected (naming them), types are not coerced, and failures
 * become 400 INVALID_INPUT with `details.errors[] = {field, message, constraint}` (dot paths for nested fields).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true, // one message per field: the first rule it breaks
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ApiError('INVALID_INPUT', summarize(flatten(errors)), { errors: flatten(errors) }),
  });
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([name, message]) => ({
      field,
      message: name === 'whitelistValidation' ? `unknown field ${field}` : message,
      constraint: { [name]: true },
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

function summarize(errors: FieldError[]): string {
  const fields = [...new Set(errors.map((e) => e.field))];
  return `invalid request: ${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}`;
}
