import { ApiError, ContactChannel, notConfigured } from '@payments/contracts';
import type { EgressClient } from './egress';

export interface ContactCodeMessage {
  customerId: string;
  channel: ContactChannel;
  destination: string;
  code: string;
  /** What the code is for: confirming a contact (identity) or logging in to an Embedded Wallet (wallet-auth). */
  purpose: 'CONTACT_VERIFICATION' | 'EMBEDDED_WALLET_LOGIN';
  /** EMBEDDED_WALLET_LOGIN: how the platform wants the message sent (its embeddedWalletConfig), for the gateway's template. */
  sender?: { appName?: string; sendFromEmailAddress?: string; sendFromEmailSenderName?: string; replyToEmailAddress?: string; logoUrl?: string };
}

/**
 * Delivers production one-time codes by email or SMS, for identity's contact verification and wallet-auth's OTP
 * credentials alike. Sandbox codes are fixed and never sent.
 */
export interface ContactCodeSender {
  /** Throws the 501 of a deployment that cannot deliver codes at all: asked before a code is recorded. */
  assertConfigured(): void;
  send(message: ContactCodeMessage): Promise<void>;
}

/**
 * Posts the code to the operator's own email/SMS gateway (CONTACT_DELIVERY_URL): this self-hosted platform ships no
 * email or SMS provider of its own. The code travels only in this request body and is never logged. The call goes
 * through the egress client like every outbound call made for a tenant: no redirects, and no private address unless
 * EGRESS_ALLOW_PRIVATE_NETWORKS allows it (a gateway inside the deployment's network needs it).
 */
export class HttpContactCodeSender implements ContactCodeSender {
  constructor(
    private readonly url: string,
    private readonly egress: EgressClient,
    private readonly timeoutMs = 5_000,
  ) {}

  assertConfigured(): void {}

  async send(message: ContactCodeMessage): Promise<void> {
    let status: number;
    try {
      ({ status } = await this.egress.post(this.url, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        timeoutMs: this.timeoutMs,
        purpose: 'contact code delivery',
      }));
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', `the ${message.channel} delivery provider is unreachable; request a new code`);
    }
    if (status < 200 || status > 299) throw new ApiError('SERVICE_UNAVAILABLE', `the ${message.channel} delivery provider refused the message (${status}); request a new code`);
  }
}

/**
 * Production without CONTACT_DELIVERY_URL: says so (501, a capability not configured, unlike the 503 of a provider
 * that is down) before a code is recorded, instead of pretending a code went out.
 */
export class UnconfiguredContactCodeSender implements ContactCodeSender {
  assertConfigured(): void {
    throw notConfigured('CONTACT_DELIVERY', 'no contact delivery provider is configured: production codes go out through the operator\'s email/SMS gateway (CONTACT_DELIVERY_URL)', 'CONTACT_DELIVERY_URL');
  }

  async send(): Promise<void> {
    this.assertConfigured();
  }
}
