/**
 * The sandbox provider's magic values (docs/stablecoins.md): the last three characters of what the platform sends
 * decide the simulated provider's answer. Pure: read by the sandbox provider and by tests' expectations.
 */
const suffixOf = (value: string) => value.slice(-3);

/** apiClientSecret: 002 refused at link; 003 / 004 linked, then REVOKED / INVALID at the next verification. */
export function sandboxCredentialPlan(apiClientSecret: string): 'REFUSE' | 'REVOKE_LATER' | 'INVALIDATE_LATER' | 'ACCEPT' {
  switch (suffixOf(apiClientSecret)) {
    case '002':
      return 'REFUSE';
    case '003':
      return 'REVOKE_LATER';
    case '004':
      return 'INVALIDATE_LATER';
    default:
      return 'ACCEPT';
  }
}

/** apiClientId ending in 005 reaches two provider accounts (the link must name one). */
export const sandboxProviderAccountCount = (apiClientId: string) => (suffixOf(apiClientId) === '005' ? 2 : 1);

/** providerTokenIdentifier: 001 still PENDING_REVIEW at the provider, 002 REJECTED, else PROVISIONED. */
export function sandboxIssuanceStatus(valueType: string): 'PENDING_REVIEW' | 'REJECTED' | 'PROVISIONED' {
  const suffix = suffixOf(valueType);
  return suffix === '001' ? 'PENDING_REVIEW' : suffix === '002' ? 'REJECTED' : 'PROVISIONED';
}

export type SandboxOperationPlan = 'FAIL_TRANSFER' | 'REJECT' | 'SHORT_FUNDING_WINDOW' | 'SLOW' | 'COMPLETE';

/**
 * The last three digits of the amount in the base currency's smallest unit (a token amount always ends in zeros: it
 * must be whole cents): 002 fails the transfer, 003 is rejected at once, 004 has a 60 s funding window, 005 is slow.
 */
export function sandboxOperationPlan(fiatAmount: number): SandboxOperationPlan {
  switch (suffixOf(String(fiatAmount).padStart(3, '0'))) {
    case '002':
      return 'FAIL_TRANSFER';
    case '003':
      return 'REJECT';
    case '004':
      return 'SHORT_FUNDING_WINDOW';
    case '005':
      return 'SLOW';
    default:
      return 'COMPLETE';
  }
}

/** Simulated durations (ms, before SANDBOX_TIME_SCALE): how long the provider sits in each stage. */
export const SANDBOX_PENDING_PROVIDER_MS = 2_000;
export const SANDBOX_PROCESSING_MS = 3_000;
export const SANDBOX_SLOW_PROCESSING_MS = 30_000;
export const SANDBOX_SHORT_FUNDING_WINDOW_MS = 60_000;
