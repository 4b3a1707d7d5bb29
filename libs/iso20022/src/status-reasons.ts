import type { OutgoingFailureReason } from '@payments/contracts';

/**
 * ISO 20022 ExternalStatusReason1Code (pain.002 StsRsnInf/Rsn/Cd, also used as return reasons) → the published
 * OutgoingTransactionFailureReason. The code itself is kept by the caller as `failureDetail`. Codes about our own
 * (debtor) side or the file itself mean the payment never left: QUOTE_EXECUTION_FAILED, whose published meaning covers
 * internal failures with the debited amount refunded. An unknown or unspecified code falls back to the coarse
 * COUNTERPARTY_POST_TX_FAILED, as the published description prescribes.
 */
const REASONS: Readonly<Record<string, OutgoingFailureReason>> = {
  // The creditor's account: wrong, unknown or closed.
  AC01: 'ACCOUNT_INVALID', // IncorrectAccountNumber
  AC03: 'ACCOUNT_INVALID', // InvalidCreditorAccountNumber
  AC04: 'ACCOUNT_INVALID', // ClosedAccountNumber
  AC07: 'ACCOUNT_INVALID', // ClosedCreditorAccountNumber
  AC14: 'ACCOUNT_INVALID', // InvalidCreditorAccountType
  BE01: 'ACCOUNT_INVALID', // InconsistentWithEndCustomer
  BE04: 'ACCOUNT_INVALID', // MissingCreditorAddress
  BE05: 'ACCOUNT_INVALID', // UnrecognisedInitiatingParty
  RC01: 'ACCOUNT_INVALID', // BankIdentifierIncorrect
  RC07: 'ACCOUNT_INVALID', // InvalidCreditorBICIdentifier
  RC08: 'ACCOUNT_INVALID', // InvalidClearingSystemMemberIdentifier
  // The account exists but cannot take this payment.
  AC06: 'ACCOUNT_CANNOT_RECEIVE', // BlockedAccount
  AG01: 'ACCOUNT_CANNOT_RECEIVE', // TransactionForbidden
  AM03: 'ACCOUNT_CANNOT_RECEIVE', // NotAllowedCurrency
  CURR: 'ACCOUNT_CANNOT_RECEIVE', // IncorrectCurrency
  CNOR: 'ACCOUNT_CANNOT_RECEIVE', // CreditorBankIsNotRegistered (not reachable on this scheme)
  MD07: 'ACCOUNT_CANNOT_RECEIVE', // EndCustomerDeceased
  // Limits.
  AM02: 'LIMIT_EXCEEDED', // NotAllowedAmount
  AM14: 'LIMIT_EXCEEDED', // AmountExceedsAgreedLimit
  AM23: 'LIMIT_EXCEEDED', // AmountExceedsSettlementLimit
  // Compliance.
  RR01: 'COMPLIANCE_REJECTED', // MissingDebtorAccountOrIdentification
  RR02: 'COMPLIANCE_REJECTED', // MissingDebtorNameOrAddress
  RR03: 'COMPLIANCE_REJECTED', // MissingCreditorNameOrAddress
  RR04: 'COMPLIANCE_REJECTED', // RegulatoryReason
  // Our side or the file: the payment never left.
  AC02: 'QUOTE_EXECUTION_FAILED', // InvalidDebtorAccountNumber
  AC05: 'QUOTE_EXECUTION_FAILED', // ClosedDebtorAccountNumber
  AC13: 'QUOTE_EXECUTION_FAILED', // InvalidDebtorAccountType
  AG02: 'QUOTE_EXECUTION_FAILED', // InvalidBankOperationCode
  AM01: 'QUOTE_EXECUTION_FAILED', // ZeroAmount
  AM04: 'QUOTE_EXECUTION_FAILED', // InsufficientFunds (on our debtor account)
  AM05: 'QUOTE_EXECUTION_FAILED', // Duplication
  AM09: 'QUOTE_EXECUTION_FAILED', // WrongAmount
  AM10: 'QUOTE_EXECUTION_FAILED', // InvalidControlSum
  DNOR: 'QUOTE_EXECUTION_FAILED', // DebtorBankIsNotRegistered
  DT01: 'QUOTE_EXECUTION_FAILED', // InvalidDate
  DU01: 'QUOTE_EXECUTION_FAILED', // DuplicateMessageID
  DUPL: 'QUOTE_EXECUTION_FAILED', // DuplicatePayment
  FF01: 'QUOTE_EXECUTION_FAILED', // InvalidFileFormat
  TM01: 'QUOTE_EXECUTION_FAILED', // InvalidCutOffTime
  // Unspecified: the coarse fallback.
  MS02: 'COUNTERPARTY_POST_TX_FAILED', // NotSpecifiedReasonCustomerGenerated
  MS03: 'COUNTERPARTY_POST_TX_FAILED', // NotSpecifiedReasonAgentGenerated
  NARR: 'COUNTERPARTY_POST_TX_FAILED', // Narrative
};

export function failureReasonForStatusCode(code: string | undefined): OutgoingFailureReason {
  return (code && REASONS[code]) || 'COUNTERPARTY_POST_TX_FAILED';
}
