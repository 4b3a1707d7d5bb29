import { ValidateIf } from 'class-validator';

/**
 * An optional field that may be left out but not set to null: class-validator's @IsOptional skips every rule for
 * null as well, which would let `{"supportedCurrencies": null}` through. Absent skips validation; null is checked
 * (and fails the type rules).
 */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
