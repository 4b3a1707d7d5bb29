import type { StablecoinOperation } from '@payments/contracts';
import { ExistingOperation } from './operation.state';

/** The operation as the API shows it: never the provider's ids, the payout account's details or the hold. */
export function toStablecoinOperation(s: ExistingOperation): StablecoinOperation {
  return {
    id: s.operationId,
    stablecoinId: s.stablecoinId,
    operationType: s.operationType,
    status: s.status,
    amount: s.amount,
    provider: s.provider,
    providerEnvironment: s.providerEnvironment,
    stablecoinProviderAccountId: s.stablecoinProviderAccountId,
    source: s.source,
    ...(s.fundingInstructions ? { fundingInstructions: s.fundingInstructions } : {}),
    destination: s.destination,
    ...(s.estimatedDelivery ? { estimatedDelivery: s.estimatedDelivery } : {}),
    ...(s.expiresAt ? { expiresAt: s.expiresAt } : {}),
    ...(s.providerStatus ? { providerStatus: s.providerStatus } : {}),
    ...(s.failureReason ? { failureReason: s.failureReason } : {}),
    ...(s.description !== undefined ? { description: s.description } : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
