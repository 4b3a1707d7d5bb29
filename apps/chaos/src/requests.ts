import type { ApiClient } from './client';
import { tokenUnits } from './setup-stablecoins';
import { UMA_SENDER, until, World } from './setup';
import { walletStamp } from './wallet-client';
import type { OpRecord, PlannedOp } from './workload';

export interface Request {
  method: string;
  path: string;
  body: unknown;
  headers?: Record<string, string>;
}

const accountQuote = (source: string, destination: string, amount: number, description: string) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description,
});

/**
 * The HTTP request of an operation. A follow-up needs its earlier operation's answer (`previous`): undefined when
 * that was never acknowledged or did not leave what the follow-up needs (then the operation is skipped).
 */
export async function requestOf(op: PlannedOp, world: World, previous?: OpRecord): Promise<Request | undefined> {
  const customer = world.customers[op.customer];
  const answer = previous?.result.outcome === 'acked' ? previous.result.answer!.body : undefined;
  if (op.after !== undefined && !answer) return undefined;
  switch (op.kind) {
    case 'transferOut':
      return { method: 'POST', path: '/transfer-out', body: { source: { accountId: customer.usd }, destination: { accountId: customer.usdExternal[op.suffix!] }, amount: op.amount, remittanceInformation: op.tag } };
    case 'transferIn':
      return { method: 'POST', path: '/transfer-in', body: { source: { accountId: customer.usdExternal[op.suffix!] }, destination: { accountId: customer.usd }, amount: op.amount } };
    case 'quote': {
      const destination = op.quoteTo === 'external' ? customer.eurExternal[op.suffix!] : customer.eur!;
      return { method: 'POST', path: '/quotes', body: { ...accountQuote(customer.usd, destination, op.amount, op.tag), ...(op.immediate ? { immediatelyExecute: true } : {}) } };
    }
    case 'execute':
      return { method: 'POST', path: `/quotes/${answer.id}/execute`, body: {} };
    case 'fund':
      return { method: 'POST', path: `/sandbox/internal-accounts/${op.currency === 'EUR' ? customer.eur : customer.usd}/fund`, body: { amount: op.amount } };
    case 'realtimeQuote':
      return {
        method: 'POST',
        path: '/quotes',
        body: { source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: customer.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: op.amount, description: op.tag },
      };
    case 'send':
      return { method: 'POST', path: '/sandbox/send', body: { quoteId: answer.id, currencyCode: 'USD' } };
    case 'umaReceive':
      return { method: 'POST', path: '/sandbox/uma/receive', body: { senderUmaAddress: UMA_SENDER, receiverUmaAddress: customer.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: op.amount } };
    case 'card':
      return { method: 'POST', path: `/sandbox/cards/${world.cards.cardId}/simulate/${op.card!.simulation}`, body: { amount: op.amount, currency: { code: 'USD' }, merchant: { descriptor: op.card!.descriptor, mcc: '5814', country: 'US' } } };
    case 'cardMessage': {
      if (!previous?.resourceId) return undefined; // the authorization opened no transaction we know of
      const body = op.card!.simulation === 'return_reversal' ? { cardTransactionId: previous.resourceId } : { cardTransactionId: previous.resourceId, amount: op.amount };
      return { method: 'POST', path: `/sandbox/cards/${world.cards.cardId}/simulate/${op.card!.simulation}`, body };
    }
    case 'agentTransfer': {
      const holder = world.customers[world.agent.customer];
      return { method: 'POST', path: '/agents/me/transfer-out', body: { source: { accountId: holder.usd }, destination: { accountId: holder.usdExternal['789'] }, amount: op.amount } };
    }
    case 'agentDecide':
      if (answer.status !== 'PENDING_APPROVAL') return undefined;
      return { method: 'POST', path: `/agents/${world.agent.agentId}/actions/${answer.id}/${op.decision}`, body: op.decision === 'reject' ? { reason: `chaos: ${op.tag}` } : {} };
    case 'agentQuote': {
      const holder = world.customers[world.agent.customer];
      return { method: 'POST', path: '/agents/me/quotes', body: accountQuote(holder.usd, holder.eur!, op.amount, op.tag) };
    }
    case 'agentExecute':
      return { method: 'POST', path: `/agents/me/quotes/${answer.id}/execute`, body: {} };
    case 'mint': {
      const fundingSource = op.mintFunding === 'WIRE' ? { type: 'WIRE' } : { type: 'GRID_INTERNAL_ACCOUNT', accountId: customer.usd };
      return { method: 'POST', path: `/stablecoins/${world.stablecoin.stablecoinId}/mints`, body: { amount: tokenUnits(op.amount), fundingSource, destination: { accountId: world.stablecoin.sparkWallet } } };
    }
    case 'fundMint':
      if (answer.status !== 'PENDING_FUNDING') return undefined;
      return { method: 'POST', path: `/sandbox/stablecoin-operations/${answer.id}/fund`, body: undefined };
    case 'burn':
      return {
        method: 'POST',
        path: `/stablecoins/${world.stablecoin.stablecoinId}/burns`,
        body: { amount: tokenUnits(op.amount), source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: customer.usdExternal['789'], rail: 'ACH_CREDIT' } },
      };
    case 'walletQuote':
      return { method: 'POST', path: '/quotes', body: accountQuote(world.wallet.wallet, customer.usd, op.amount, op.tag) };
    case 'walletExecute': {
      // The wallet signs the quote's terms: a session stamp over its payloadToSign, no Request-Id (docs/wallet-auth.md).
      const payload = (answer.paymentInstructions as any[] | undefined)?.find((p) => p.accountOrWalletInfo?.accountType === 'EMBEDDED_WALLET')?.accountOrWalletInfo.payloadToSign;
      if (typeof payload !== 'string') return undefined;
      return { method: 'POST', path: `/quotes/${answer.id}/execute`, body: {}, headers: { 'Service-Wallet-Signature': await walletStamp(world.wallet.key, payload) } };
    }
    case 'prodTransferOut':
      return { method: 'POST', path: '/transfer-out', body: { source: { accountId: world.production.usd }, destination: { accountId: world.production.usdExternal }, amount: op.amount } };
    case 'prodTransferIn':
      return { method: 'POST', path: '/transfer-in', body: { source: { accountId: world.production.usdExternal }, destination: { accountId: world.production.usd }, amount: op.amount } };
  }
}

/** How long an authorization's card transaction may take to be listed (payments learns it from the cards topic). */
const CARD_LISTING_TIMEOUT_MS = 120_000;

/**
 * What an acknowledged answer names: the resource (a card simulation answers only its issuer token: the card
 * transaction it opened is found in GET /transactions, as a platform would) and the transaction it made.
 */
export async function resolveResource(op: PlannedOp, body: any, world: World, client: ApiClient, previous?: OpRecord): Promise<Pick<OpRecord, 'resourceId' | 'transactionId'>> {
  switch (op.kind) {
    case 'card': {
      if (op.card!.decline) return { resourceId: undefined };
      const token = body.issuerTransactionToken as string;
      const path = `/transactions?type=CARD&accountId=${encodeURIComponent(world.cards.account)}&limit=100`;
      const found = await until(`the card transaction of ${token}`, async () => ((await client.must('GET', path)).data as any[] | undefined)?.find((t) => t.issuerTransactionToken === token)?.id as string | undefined, CARD_LISTING_TIMEOUT_MS).catch(() => undefined);
      return { resourceId: found };
    }
    case 'cardMessage':
      return { resourceId: previous?.resourceId };
    case 'send':
      return { resourceId: body.id, transactionId: body.id };
    case 'agentTransfer':
    case 'agentDecide':
    case 'agentExecute':
      return { resourceId: body.id, transactionId: body.transaction?.id };
    default:
      return { resourceId: body.id, transactionId: body.transactionId };
  }
}
