import type { ApiClient } from './client';
import { CustomerWorld, until } from './setup';

/** The card the workload's card simulations run on: the cardholder (an APPROVED customer) and its funding account. */
export interface CardWorld {
  cardId: string;
  customer: number;
  account: string;
}

/** The sandbox issuer refuses funding sources whose id ends in 002 or 003 (docs/cards.md): such a customer holds no card. */
const refusedSource = (accountId: string) => ['002', '003'].includes(accountId.slice(-3));

/** A virtual card on the USD account of the first customer the sandbox issuer accepts, once it is ACTIVE. */
export async function setUpCard(client: ApiClient, customers: CustomerWorld[]): Promise<CardWorld> {
  const customer = customers.findIndex((c) => c.client === 'sandbox' && !refusedSource(c.usd));
  if (customer < 0) throw new Error('no customer account the sandbox issuer accepts');
  const { id, usd } = customers[customer];
  // platformCardId's last three characters decide the sandbox issuer: 'x' activates at once.
  const card = await client.must('POST', '/cards', { cardholderId: id, form: 'VIRTUAL', fundingSources: [usd], platformCardId: 'chaos-card-x' }, 'chaos-card');
  await until(`card ${card.id} ACTIVE`, async () => (await client.must('GET', `/cards/${card.id}`)).state === 'ACTIVE');
  return { cardId: card.id, customer, account: usd };
}
