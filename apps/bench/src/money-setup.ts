/** What the money rows need: payers with a funded USD account and an ACTIVE USD external account each, and a quote. */
export interface MoneySetup {
  payers: { customerId: string; usd: string; external: string }[];
  quoteId: string;
}

type Headers = Record<string, string>;

async function json(url: string, method: string, path: string, headers: Headers, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

const pause = () => new Promise((r) => setTimeout(r, 50));

/** One payer (sandbox suffix 789 on the external account: the payout succeeds). */
async function payer(url: string, headers: Headers, i: number) {
  const customer = await json(url, 'POST', '/customers', headers, { customerType: 'INDIVIDUAL', fullName: `Bench Payer ${i}`, region: 'US' });
  const account = async (code: string): Promise<string> => {
    for (;;) {
      const page = await json(url, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=${code}`, headers);
      if (page.data[0]) return page.data[0].id;
      await pause();
    }
  };
  const usd = await account('USD');
  await json(url, 'POST', `/sandbox/internal-accounts/${usd}/fund`, headers, { amount: 100_000_000_000 });
  const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } };
  const accountNumber = `44${String(i).padStart(5, '0')}789`;
  const external = await json(url, 'POST', '/customers/external-accounts', headers, { customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary } });
  while ((await json(url, 'GET', `/customers/external-accounts/${external.id}`, headers)).status !== 'ACTIVE') await pause();
  return { customerId: customer.id as string, usd, external: external.id as string };
}

/** `count` payers, ten at a time, and one USD→EUR quote of the first. */
export async function moneySetup(url: string, headers: Headers, count: number): Promise<MoneySetup> {
  const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
  await json(url, 'PATCH', '/config', headers, { supportedCurrencies: [currency('USD'), currency('EUR')] });
  const payers: MoneySetup['payers'] = [];
  for (let i = 0; i < count; i += 10) payers.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, k) => payer(url, headers, i + k)))));
  let eur: string | undefined;
  while (!eur) {
    eur = (await json(url, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(payers[0].customerId)}&currency=EUR`, headers)).data[0]?.id;
    if (!eur) await pause();
  }
  const quote = await json(url, 'POST', '/quotes', headers, { source: { sourceType: 'ACCOUNT', accountId: payers[0].usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
  return { payers, quoteId: quote.id };
}
