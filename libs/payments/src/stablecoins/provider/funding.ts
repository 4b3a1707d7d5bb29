import type { ProviderOperationRequest } from './provider.port';

/** How long operations wait for the issuer's funds (real time): a week, as the provider's deposit instructions live. */
export const FUNDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Wire-funded mints and external-source burns wait for the issuer's funds; every other source moves at once. */
export function fundingRequiredOf(request: Pick<ProviderOperationRequest, 'operationType' | 'source'>): boolean {
  return request.operationType === 'MINT' ? request.source.type === 'WIRE' : request.source.type === 'EXTERNAL_ACCOUNT';
}
