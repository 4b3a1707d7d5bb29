export * from './errors';
export { DEFAULT_MAX_BYTES, type ReadOptions } from './xml';
export { formatMinor, parseDecimalToMinor } from './amounts';
export { iban, bic, sepaText, reference } from './identifiers';
export * from './pain001';
export * from './pain002';
export * from './camt054';
export { failureReasonForStatusCode } from './status-reasons';
export * from './transliteration';
