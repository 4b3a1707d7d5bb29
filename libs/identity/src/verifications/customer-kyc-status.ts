import type { EntityManager } from 'typeorm';
import type { KycStatus } from '@payments/contracts';
import { CommandExecutor, DomainError } from '@payments/eventsourcing';
import { customerDecider } from '../customers/customer.decider';
import { projectCustomer } from '../customers/customer.projection';

/**
 * Moves the customer's kycStatus (kybStatus for businesses) through its own decider, inside the verification's
 * transaction. The customer stream then carries CustomerKycStatusChanged.v1, the source of CUSTOMER.KYC_* / KYB_*;
 * setting the status it already has appends nothing, so a repeated call has one effect.
 */
export async function setCustomerKycStatus(
  executor: CommandExecutor<EntityManager>,
  tx: EntityManager,
  target: { platformId: string; customerId: string; verificationId: string },
  kycStatus: KycStatus,
  now: string,
): Promise<void> {
  await executor.decideAndAppend(tx, {
    decider: customerDecider,
    streamId: target.customerId,
    platformId: target.platformId,
    metadata: { correlationId: target.verificationId, actor: 'verification' },
    command: { type: 'SetKycStatus', kycStatus, verificationId: target.verificationId, now },
    project: projectCustomer,
  });
}

/** The decision of a customer deleted while under review still stands on the verification; the customer keeps its end state. */
export async function setCustomerKycStatusIfLive(...args: Parameters<typeof setCustomerKycStatus>): Promise<void> {
  try {
    await setCustomerKycStatus(...args);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'USER_NOT_FOUND')) throw error;
  }
}
