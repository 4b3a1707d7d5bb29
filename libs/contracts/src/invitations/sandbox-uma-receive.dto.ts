import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

/**
 * POST /sandbox/uma/receive: a UMA payment arrives for one of the platform's customers, named by `receiverUmaAddress`
 * or (interop §7) by `customerId`: exactly one of the two.
 */
export class SandboxUmaReceiveRequest {
  @IsString() @MaxLength(319) senderUmaAddress!: string;
  @OptionalNotNull() @IsString() @MaxLength(319) receiverUmaAddress?: string;
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @IsString() @Matches(/^[A-Z]{3,5}$/) receivingCurrencyCode!: string;
  /** In the smallest unit of receivingCurrencyCode. */
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) receivingCurrencyAmount!: number;
}
