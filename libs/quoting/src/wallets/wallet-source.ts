import { ApiError, CallerContext, canonicalJson, PaymentInstructions, WalletAuthRpc } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

/** What a quote from an Embedded Wallet binds its signature to. */
export interface WalletQuoteTerms {
  quoteId: string;
  accountId: string;
  destination: unknown;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: string;
  lockedCurrencyAmount: number;
  expiresAt: string;
}

/**
 * The paymentInstructions entry of a quote paid from an Embedded Wallet: its `payloadToSign` (an activity-shaped
 * JSON string whose `unsignedTransaction` is the hex of the quote's terms) is what a session of the wallet stamps to
 * execute the quote.
 */
export function walletPaymentInstructions(terms: WalletQuoteTerms, now: string): PaymentInstructions[] {
  const payloadToSign = JSON.stringify({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: String(Date.parse(now)),
    organizationId: terms.accountId,
    parameters: { signWith: terms.accountId, type: 'TRANSACTION_TYPE_SPARK', unsignedTransaction: Buffer.from(canonicalJson(terms)).toString('hex') },
    generateAppProofs: true,
  });
  return [
    {
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
      instructionsNotes: 'Stamp payloadToSign with a session key of the Embedded Wallet and send it as Service-Wallet-Signature to POST /quotes/{quoteId}/execute.',
    },
  ];
}

/** The payloadToSign of a quote's EMBEDDED_WALLET entry, if it has one. */
export function walletPayloadOf(instructions: PaymentInstructions[] | undefined): string | undefined {
  const entry = instructions?.find((i) => i.accountOrWalletInfo.accountType === 'EMBEDDED_WALLET');
  const payload = entry?.accountOrWalletInfo.payloadToSign;
  return typeof payload === 'string' ? payload : undefined;
}

/** Checks an Embedded Wallet's signature over a payload quoting issued (wallet-auth owns sessions and their keys). */
export interface WalletSignatures {
  verify(caller: CallerContext, accountId: string, payloadToSign: string, walletSignature: string | undefined): Promise<void>;
  close(): Promise<void>;
}

export class RpcWalletSignatures implements WalletSignatures {
  private readonly client: ServiceClient;

  constructor(endpoint: { host: string; port: number }, timeoutMs: number) {
    this.client = new ServiceClient({ name: 'wallet-auth', ...endpoint }, timeoutMs);
  }

  async verify(caller: CallerContext, accountId: string, payloadToSign: string, walletSignature: string | undefined): Promise<void> {
    if (walletSignature === undefined) {
      throw new ApiError('WALLET_SIGNATURE_MISSING', 'a quote from an Embedded Wallet is executed with Service-Wallet-Signature over its payloadToSign', { reason: 'Service-Wallet-Signature missing' });
    }
    await this.client.call(WalletAuthRpc.verifyPayloadSignature, { caller, body: { accountId, payloadToSign, walletSignature } });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
