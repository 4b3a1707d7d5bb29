import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, StablecoinFundingInstructions } from '@payments/contracts';
import type { CredentialCheck, ProviderCredentials, ProviderOperationRequest, ProviderReport, ProviderStage, ProviderSubmission, ProviderToken, RecordedOperation, StablecoinProviderPort } from './provider.port';
import { FUNDING_WINDOW_MS, fundingRequiredOf } from './funding';

export interface BraleConfig {
  /** The API's base URL (e.g. https://api.brale.xyz); BRALE_API_URL. */
  apiUrl: string;
  /** The OAuth2 token endpoint (client credentials); BRALE_AUTH_URL. */
  authUrl: string;
  timeoutMs: number;
}

/** Spark stablecoins issued through Brale carry 6 decimals; Brale's API has no token metadata endpoint to ask. */
const SPARK_TOKEN_DECIMALS = 6;
const TRANSFER_STAGES: Record<string, ProviderStage> = { pending: 'PENDING_PROVIDER', processing: 'PROCESSING', complete: 'COMPLETED', canceled: 'FAILED', failed: 'FAILED' };
const POLL_MS = 30_000;

/**
 * The Brale adapter (production): OAuth2 client-credentials tokens per link, accounts, custodial Spark addresses and
 * transfers (`value_type` / `transfer_type` pairs, Idempotency-Key on every create). Amounts cross as decimal strings.
 * Only built when BRALE_API_URL is configured; otherwise production answers 501 (stablecoin-providers.ts).
 */
export class BraleStablecoinProvider implements StablecoinProviderPort {
  /** Access tokens by cacheKeyOf: per link (owner) and secret, never by the client id alone. */
  private readonly tokens = new Map<string, { token: string; until: number }>();
  /** Keys the secret's hash in cache keys; random per process, as the cache is (a key never outlives it). */
  private readonly cacheKey = randomBytes(32);

  constructor(private readonly config: BraleConfig) {}

  async verify(credentials: ProviderCredentials, initial = true): Promise<CredentialCheck> {
    // Linking proves the secret to the provider now: a token cached for the same client id (another link, another
    // platform, another secret) must never stand in for that proof.
    const token = await this.accessToken(credentials, initial).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'STABLECOIN_PROVIDER_ACCOUNT_INVALID') return undefined;
      throw error;
    });
    if (!token) return { status: 'INVALID', providerAccountIds: [] };
    const body = await this.request<{ accounts?: string[] }>(credentials, 'GET', '/accounts');
    return { status: 'ACTIVE', providerAccountIds: body.accounts ?? [] };
  }

  async token(credentials: ProviderCredentials, providerAccountId: string, valueType: string): Promise<ProviderToken> {
    const address = await this.custodialSparkAddress(credentials, providerAccountId);
    const query = `transfer_type=spark&value_type=${encodeURIComponent(valueType)}`;
    await this.request(credentials, 'GET', `/accounts/${providerAccountId}/addresses/${address.id}/balance?${query}`);
    return { name: valueType, symbol: valueType, decimals: SPARK_TOKEN_DECIMALS, baseCurrency: 'USD', issuanceStatus: 'PROVISIONED' };
  }

  async submit(credentials: ProviderCredentials, request: ProviderOperationRequest): Promise<ProviderSubmission> {
    const account = request.providerAccountId;
    const custodial = await this.custodialSparkAddress(credentials, account);
    const fiat = { value: decimalOf(request.fiatAmount, 2), currency: request.fiatCurrency };
    const token = { value_type: request.valueType, transfer_type: 'spark' };
    const body =
      request.operationType === 'MINT'
        ? { amount: fiat, source: { value_type: request.fiatCurrency, transfer_type: fiatRailOf(request.source.type) }, destination: { ...token, address_id: await this.externalAddress(credentials, account, request) } }
        : { amount: fiat, source: { ...token, address_id: custodial.id }, destination: { value_type: request.fiatCurrency, transfer_type: request.payout!.rail.toLowerCase(), address_id: await this.externalAddress(credentials, account, request) } };
    const created = await this.request<{ id: string }>(credentials, 'POST', `/accounts/${account}/transfers`, body, request.operationId);
    const report = await this.status(credentials, { operationId: request.operationId, providerAccountId: account, providerOperationId: created.id, amount: request.amount, fiatAmount: request.fiatAmount, fundingRequired: fundingRequiredOf(request), submittedAt: new Date().toISOString() });
    const fundingInstructions: StablecoinFundingInstructions | undefined =
      report.stage !== 'PENDING_FUNDING' ? undefined : request.operationType === 'BURN' ? { rail: 'SPARK', network: 'SPARK', address: custodial.address, valueType: request.valueType } : { rail: 'WIRE', reference: created.id };
    return { ...report, providerOperationId: created.id, fundingInstructions, fundingWindowMs: FUNDING_WINDOW_MS };
  }

  async status(credentials: ProviderCredentials, operation: RecordedOperation): Promise<ProviderReport> {
    const transfer = await this.request<{ status?: string }>(credentials, 'GET', `/accounts/${operation.providerAccountId}/transfers/${operation.providerOperationId}`);
    const providerStatus = String(transfer.status ?? 'unknown').slice(0, 32);
    const stage = operation.fundingRequired && providerStatus === 'pending' ? 'PENDING_FUNDING' : (TRANSFER_STAGES[providerStatus] ?? 'PENDING_PROVIDER');
    if (stage === 'FAILED') return { stage, providerStatus, failureReason: 'PROVIDER_TRANSFER_FAILED' };
    return stage === 'COMPLETED' ? { stage, providerStatus } : { stage, providerStatus, nextCheckInMs: POLL_MS };
  }

  private async custodialSparkAddress(credentials: ProviderCredentials, account: string): Promise<{ id: string; address: string }> {
    const body = await this.request<{ addresses?: { id: string; type?: string; address?: string; transfer_types?: string[] }[] }>(credentials, 'GET', `/accounts/${account}/addresses`);
    const found = body.addresses?.find((a) => a.type === 'internal' && a.transfer_types?.includes('spark') && a.address);
    if (!found) throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'the provider account has no custodial Spark address');
    return { id: found.id, address: found.address! };
  }

  /** Registers the counterparty (the Spark wallet minted to, or the bank account paid) as an external address. */
  private async externalAddress(credentials: ProviderCredentials, account: string, request: ProviderOperationRequest): Promise<string> {
    const body =
      request.operationType === 'MINT'
        ? { name: `Mint ${request.operationId}`, transfer_types: ['spark'], address: request.tokenDestinationAddress }
        : { name: `Payout ${request.operationId}`, transfer_types: [request.payout!.rail.toLowerCase()], ...bankFieldsOf(request.payout!.accountInfo) };
    const created = await this.request<{ id: string }>(credentials, 'POST', `/accounts/${account}/addresses/external`, body, `${request.operationId}/address`);
    return created.id;
  }

  private async accessToken(credentials: ProviderCredentials, fresh = false): Promise<string> {
    const key = this.cacheKeyOf(credentials);
    const cached = fresh ? undefined : this.tokens.get(key);
    if (cached && cached.until > Date.now()) return cached.token;
    const basic = Buffer.from(`${credentials.apiClientId}:${credentials.apiClientSecret}`).toString('base64');
    const response = await this.fetch(this.config.authUrl, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    if (response.status === 400 || response.status === 401 || response.status === 403) throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'the provider refused the credentials');
    if (!response.ok) throw unavailable(`token endpoint answered ${response.status}`);
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw unavailable('token endpoint answered no access_token');
    // Refreshed a minute before the provider's expiry.
    this.tokens.set(key, { token: body.access_token, until: Date.now() + Math.max(0, (body.expires_in ?? 300) - 60) * 1000 });
    return body.access_token;
  }

  /** The link (owner), environment, client id and an HMAC of the secret: a different secret or link never hits. */
  private cacheKeyOf(credentials: ProviderCredentials): string {
    const secret = createHmac('sha256', this.cacheKey).update(credentials.apiClientSecret).digest('base64url');
    return JSON.stringify([credentials.owner, credentials.environment, credentials.apiClientId, secret]);
  }

  private async request<T>(credentials: ProviderCredentials, method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const token = await this.accessToken(credentials);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const response = await this.fetch(`${this.config.apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401 || response.status === 403) {
      this.tokens.delete(this.cacheKeyOf(credentials));
      throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'the provider refused the credentials');
    }
    if (response.status === 404) throw new ApiError('INVALID_INPUT', `the provider knows no such resource (${method} ${path.split('?')[0]})`);
    if (response.status >= 400 && response.status < 500) throw new ApiError('INVALID_INPUT', `the provider refused the request (${response.status})`);
    if (!response.ok) throw unavailable(`${method} ${path.split('?')[0]} answered ${response.status}`);
    return (await response.json()) as T;
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.config.timeoutMs) });
    } catch (error) {
      throw unavailable(error instanceof Error ? error.message : String(error));
    }
  }
}

const unavailable = (what: string) => new ApiError('SERVICE_UNAVAILABLE', `the stablecoin provider could not be reached (${what})`);

/** 12345 with 2 decimals → "123.45" (no float on the way). */
export function decimalOf(minor: number, decimals: number): string {
  const digits = String(minor).padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

function fiatRailOf(type: string): string {
  return type === 'ACH_DEBIT' ? 'ach_debit' : type === 'SAME_DAY_ACH_DEBIT' ? 'same_day_ach_debit' : 'wire';
}

function bankFieldsOf(accountInfo: Record<string, unknown>): Record<string, unknown> {
  const beneficiary = accountInfo.beneficiary as { fullName?: string; legalName?: string } | undefined;
  return { account_number: accountInfo.accountNumber, routing_number: accountInfo.routingNumber, owner: beneficiary?.fullName ?? beneficiary?.legalName, account_type: String(accountInfo.bankAccountType ?? 'CHECKING').toLowerCase() };
}
