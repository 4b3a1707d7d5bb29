/**
 * Why a message was refused or could not be written. A file is refused whole: readers never return a partial result,
 * so an importer can record the refusal and change nothing.
 */
export type Iso20022ErrorCode =
  | 'TOO_LARGE'
  | 'NOT_XML'
  | 'DOCTYPE_FORBIDDEN'
  | 'WRONG_MESSAGE'
  | 'MISSING_ELEMENT'
  | 'INVALID_VALUE'
  | 'INVALID_AMOUNT'
  | 'UNKNOWN_CURRENCY'
  | 'TOTALS_MISMATCH'
  | 'INVALID_INPUT';

export class Iso20022Error extends Error {
  constructor(
    readonly code: Iso20022ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'Iso20022Error';
  }
}
