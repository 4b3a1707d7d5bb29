import type { AgentAction } from '@payments/contracts';
import { ExistingAction } from './action.state';

/** The action as the API shows it: the quote as it was last seen, the transaction once it ran. */
export function toAgentAction(s: ExistingAction): AgentAction {
  const quote = s.quoteAfter ?? s.quote;
  return {
    id: s.actionId,
    agentId: s.agentId,
    customerId: s.customerId,
    platformCustomerId: s.platformCustomerId,
    status: s.status,
    type: s.type,
    ...(quote ? { quote } : {}),
    ...(s.transferDetails ? { transferDetails: s.transferDetails } : {}),
    ...(s.transaction ? { transaction: s.transaction } : {}),
    ...(s.rejectionReason !== undefined ? { rejectionReason: s.rejectionReason } : {}),
    ...(s.failureReason !== undefined ? { failureReason: s.failureReason } : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
