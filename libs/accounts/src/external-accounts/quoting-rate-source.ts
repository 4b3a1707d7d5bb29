import { Mode, QuotingRpc } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';
import type { RateSource } from './receiver-lookup';

/**
 * Receiver-lookup rates from the quoting service, which owns exchange rates (QuotingRpc.midRates). Accounts starts
 * before quoting, so the client only connects when a lookup asks; the same currency needs no call. Quoting down or
 * slow is a 503, never a silently shorter currency list.
 */
export class QuotingRateSource implements RateSource {
  private readonly client: ServiceClient;

  constructor(endpoint: { host: string; port: number }, timeoutMs: number) {
    this.client = new ServiceClient({ name: 'quoting', ...endpoint }, timeoutMs);
  }

  async estimate(platformId: string, mode: Mode, from: string, to: string): Promise<number | undefined> {
    if (from === to) return 1;
    const caller = { platformId, mode, clientId: 'accounts', permissions: [] };
    const answer = await this.client.call(QuotingRpc.midRates, { caller, body: { pairs: [{ from, to }] } });
    return answer.rates[0]?.rate ?? undefined;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
