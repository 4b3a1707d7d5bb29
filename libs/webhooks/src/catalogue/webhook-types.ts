/** Webhook `type` values this build sends (docs/webhooks.md has the catalogue). */
export const TEST_WEBHOOK = 'TEST';
export const CUSTOMER_KYC_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export const VERIFICATION_STATUSES = ['IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'RESOLVE_ERRORS', 'APPROVED', 'REJECTED'] as const;

export const webhookTypes = {
  customer: (customerType: string, status: string) => `CUSTOMER.${customerType === 'BUSINESS' ? 'KYB' : 'KYC'}_${status}`,
  verification: (status: string) => `VERIFICATION.${status}`,
  externalAccountStatus: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
  internalAccountBalance: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  bulkUpload: (outcome: 'COMPLETED' | 'FAILED') => `BULK_UPLOAD.${outcome}`,
  payment: (direction: string, status: string) => `${direction === 'INCOMING' ? 'INCOMING' : 'OUTGOING'}_PAYMENT.${status}`,
  invitationClaimed: 'INVITATION_CLAIMED',
  /** The seed's spelling (lower case), not the published CARD.STATE_CHANGE. */
  cardStateChange: 'card.state_change',
  cardFundingSourceChange: 'card.funding_source_change',
  /** CARD_TRANSACTION.AUTHORIZED, .PARTIALLY_SETTLED, .SETTLED, .REFUNDED, .EXCEPTION. */
  cardTransaction: (status: string) => `CARD_TRANSACTION.${status}`,
  /** An agent action waits for the platform (POST /agents/{agentId}/actions/{actionId}/approve or /reject). */
  agentActionPendingApproval: 'AGENT_ACTION.PENDING_APPROVAL',
  /** STABLECOIN_OPERATION.CREATED, .PENDING_FUNDING, ... .COMPLETED, .FAILED, .EXPIRED (not in the published enum, which has no stablecoin webhooks). */
  stablecoinOperation: (status: string) => `STABLECOIN_OPERATION.${status}`,
} as const;
