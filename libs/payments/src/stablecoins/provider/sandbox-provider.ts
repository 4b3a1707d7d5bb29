import { createHash, createHmac } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { bech32m } from '@scure/base';
import type { StablecoinFundingInstructions } from '@payments/contracts';
import type { CredentialCheck, ProviderCredentials, ProviderOperationRequest, ProviderReport, ProviderSubmission, ProviderToken, RecordedOperation, StablecoinProviderPort } from './provider.port';
import { FUNDING_WINDOW_MS, fundingRequiredOf } from './funding';
import {
  SANDBOX_PENDING_PROVIDER_MS,
  SANDBOX_PROCESSING_MS,
  SANDBOX_SHORT_FUNDING_WINDOW_MS,
  SANDBOX_SLOW_PROCESSING_MS,
  sandboxCredentialPlan,
  sandboxIssuanceStatus,
  sandboxOperationPlan,
  sandboxProviderAccountCount,
} from './sandbox-plan';

const KSUID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Spark's regtest prefix: sandbox deposit addresses live on a test network. */
const SANDBOX_SPARK_HRP = 'sparkrt';

/**
 * The simulated provider of the sandbox: deterministic answers from the magic values (sandbox-plan.ts) and the facts
 * the operation recorded (when it was submitted and funded), with every delay scaled by SANDBOX_TIME_SCALE. It keeps no
 * state of its own, so a restart changes nothing it says.
 */
export class SandboxStablecoinProvider implements StablecoinProviderPort {
  constructor(
    private readonly timeScale: number,
    /** Derives the deposit addresses and account numbers (never secret, but not guessable across deployments). */
    private readonly seed: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(credentials: ProviderCredentials, initial: boolean): Promise<CredentialCheck> {
    const providerAccountIds = Array.from({ length: sandboxProviderAccountCount(credentials.apiClientId) }, (_, i) => ksuidOf(`${credentials.apiClientId}/${i}`));
    switch (sandboxCredentialPlan(credentials.apiClientSecret)) {
      case 'REFUSE':
        return { status: 'INVALID', providerAccountIds: [] };
      case 'REVOKE_LATER':
        return { status: initial ? 'ACTIVE' : 'REVOKED', providerAccountIds };
      case 'INVALIDATE_LATER':
        return { status: initial ? 'ACTIVE' : 'INVALID', providerAccountIds };
      case 'ACCEPT':
        return { status: 'ACTIVE', providerAccountIds };
    }
  }

  async token(_credentials: ProviderCredentials, _providerAccountId: string, valueType: string): Promise<ProviderToken> {
    return { name: `${valueType} Sandbox Dollar`, symbol: valueType.slice(0, 12).toUpperCase(), decimals: 6, baseCurrency: 'USD', issuanceStatus: sandboxIssuanceStatus(valueType) };
  }

  async submit(_credentials: ProviderCredentials, request: ProviderOperationRequest): Promise<ProviderSubmission> {
    const plan = sandboxOperationPlan(request.fiatAmount);
    const providerOperationId = ksuidOf(`transfer/${request.operationId}`);
    if (plan === 'REJECT') return { providerOperationId, stage: 'FAILED', providerStatus: 'rejected', failureReason: 'PROVIDER_REJECTED' };
    if (fundingRequiredOf(request)) {
      const fundingWindowMs = plan === 'SHORT_FUNDING_WINDOW' ? SANDBOX_SHORT_FUNDING_WINDOW_MS * this.timeScale : FUNDING_WINDOW_MS;
      return { providerOperationId, stage: 'PENDING_FUNDING', providerStatus: 'awaiting_funds', fundingInstructions: this.instructions(request), fundingWindowMs };
    }
    return { providerOperationId, stage: 'PENDING_PROVIDER', providerStatus: 'pending', nextCheckInMs: SANDBOX_PENDING_PROVIDER_MS * this.timeScale };
  }

  async status(_credentials: ProviderCredentials, operation: RecordedOperation): Promise<ProviderReport> {
    if (operation.fundingRequired && !operation.fundedAt) return { stage: 'PENDING_FUNDING', providerStatus: 'awaiting_funds' };
    const plan = sandboxOperationPlan(operation.fiatAmount);
    const elapsed = this.now() - Date.parse(operation.fundedAt ?? operation.submittedAt);
    const pendingMs = SANDBOX_PENDING_PROVIDER_MS * this.timeScale;
    const processingMs = (plan === 'SLOW' ? SANDBOX_SLOW_PROCESSING_MS : SANDBOX_PROCESSING_MS) * this.timeScale;
    if (elapsed < pendingMs) return { stage: 'PENDING_PROVIDER', providerStatus: 'pending', nextCheckInMs: pendingMs - elapsed };
    if (elapsed < pendingMs + processingMs) return { stage: 'PROCESSING', providerStatus: 'processing', nextCheckInMs: pendingMs + processingMs - elapsed };
    if (plan === 'FAIL_TRANSFER') return { stage: 'FAILED', providerStatus: 'failed', failureReason: 'PROVIDER_TRANSFER_FAILED' };
    return { stage: 'COMPLETED', providerStatus: 'complete' };
  }

  private instructions(request: ProviderOperationRequest): StablecoinFundingInstructions {
    if (request.operationType === 'BURN') {
      return { rail: 'SPARK', network: 'SPARK', address: this.depositAddress(request.operationId), valueType: request.valueType };
    }
    const digits = BigInt(`0x${this.mac(`account/${request.operationId}`).subarray(0, 8).toString('hex')}`).toString().padStart(12, '0').slice(-12);
    return {
      rail: 'WIRE',
      bankName: 'Sandbox Reserve Bank',
      accountNumber: digits,
      routingNumber: '021000021',
      beneficiaryName: 'Sandbox Stablecoin Reserve',
      reference: `SC${request.operationId.slice(-12).replace(/-/g, '').toUpperCase()}`,
      amount: String(request.fiatAmount),
      currency: request.fiatCurrency,
    };
  }

  /** A well-formed Spark regtest address (bech32m over the identity key's protobuf field) the tokens are sent to. */
  private depositAddress(operationId: string): string {
    const publicKey = secp256k1.getPublicKey(this.mac(`deposit/${operationId}`), true);
    const payload = Uint8Array.from([0x0a, publicKey.length, ...publicKey]);
    return bech32m.encode(SANDBOX_SPARK_HRP, bech32m.toWords(payload), 200);
  }

  private mac(label: string): Buffer {
    return createHmac('sha256', this.seed).update(label).digest();
  }
}

/** A KSUID-shaped id (26 base62 characters), as the provider's ids look. */
function ksuidOf(label: string): string {
  const digest = createHash('sha256').update(label).digest();
  return Array.from(digest.subarray(0, 26), (byte) => KSUID_ALPHABET[byte % KSUID_ALPHABET.length]).join('');
}
