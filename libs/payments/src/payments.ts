import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceClient, ServiceHost, subscriptionWork } from '@payments/runtime';
import { QuoteExecution } from './quote-execution/quote-execution';
import { paymentsMigrations } from './payments.migrations';
import { paymentsDirectoryMigrations } from './customers/customers.migrations';
import { CustomerDirectory } from './customers/customer-directory';
import { CUSTOMER_ARRIVAL_WAIT_MS, InvitationParts, openInvitationParts } from './invitations/invitation-parts';
import { invitationsMigrations } from './invitations/invitations.migrations';
import type { InvitationService } from './invitations/invitation.service';
import type { UmaReceiveService } from './uma-receive/uma-receive.service';
import { Peers } from './rpc/peers';
import { Stablecoins } from './stablecoins/stablecoins';
import { stablecoinsMigrations } from './stablecoins/stablecoins.migrations';
import { TransactionSaga } from './saga/transaction-saga';
import { CardTransactionsConsumer } from './transactions/card-transactions.consumer';
import { TransactionApprovals } from './transactions/transaction-approvals';
import { TransactionQueries } from './transactions/transaction-queries';
import { TransferService } from './transfers/transfer.service';
import { openRails } from './rails/rails.open';
import { prenoteRequestsWork } from './rails/nacha/prenotes';
import type { Rails } from './rails/rails';
import { railsMigrations } from './rails/rails.migrations';
import type { RailsConfig } from '@payments/contracts';

export const PAYMENTS_SERVICE = 'payments';

export interface PaymentsOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  /** Where payments reaches accounts (currencies, external accounts, the ledger) and quoting (funding quotes). */
  accounts: { host: string; port: number };
  quoting: { host: string; port: number };
  rpcTimeoutMs: number;
  /** Origin of invitation links (PUBLIC_URL, else the gateway's local URL). */
  publicUrl?: string;
  /** SECRET_HASH_KEY: stablecoin provider secrets are sealed under a key derived from it (shared with identity). */
  secretHashKey: Buffer;
  /** The production stablecoin provider (BRALE_API_URL / BRALE_AUTH_URL); unset: 501 in production. */
  brale?: { apiUrl: string; authUrl: string };
  /** EGRESS_ALLOW_PRIVATE_NETWORKS: rail bridges on private addresses (refused by default). */
  egressAllowPrivateNetworks?: boolean;
  /** The production rail connectors (RAILS_CONFIG_FILE); none: production payments outside the ledger answer 501. */
  rails?: RailsConfig;
  log?: (message: string, error?: unknown) => void;
}

/** The payments service's parts, wired once: used by its RPC controller and tests. */
export class Payments {
  private constructor(
    readonly host: ServiceHost,
    readonly saga: TransactionSaga,
    readonly transfers: TransferService,
    readonly transactions: TransactionQueries,
    readonly quoteExecution: QuoteExecution,
    /** Consumes quoting's QuoteExecuted.v1; runs while the server runs. */
    readonly quoteEvents: BackgroundWork,
    readonly invitations: InvitationService,
    readonly umaReceive: UmaReceiveService,
    /** Keeps the customer directory (invitations, UMA receive) from identity's Customer events. */
    readonly identityEvents: BackgroundWork,
    /** The platform's approval of incoming payments (POST /transactions/{id}/approve and /reject). */
    readonly approvals: TransactionApprovals,
    /** Keeps card transactions (type CARD) in the transactions read model from the cards service's CardTransactionUpdated.v1. */
    readonly cardEvents: BackgroundWork,
    /** Stablecoin provider links, registered stablecoins, mint and burn operations. */
    readonly stablecoins: Stablecoins,
    /** The production rail connectors, their files, outcomes and exceptions. */
    readonly rails: Rails,
    /** The connectors' background work (batching files, the inbox, sending to bridges). */
    readonly railWork: BackgroundWork,
  ) {}

  static async open(options: PaymentsOptions): Promise<Payments> {
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: PAYMENTS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [paymentsMigrations, paymentsDirectoryMigrations, invitationsMigrations, stablecoinsMigrations, railsMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const peers = new Peers(
      new ServiceClient({ name: 'accounts', ...options.accounts }, options.rpcTimeoutMs),
      new ServiceClient({ name: 'quoting', ...options.quoting }, options.rpcTimeoutMs),
    );
    const saga = new TransactionSaga(host.dataSource, host.store, host.executor, host.timers, peers);
    Object.assign(timerHandlers, saga.timerHandlers());
    const rails = openRails(host, saga, peers, timerHandlers, { config: options.rails, schema: PAYMENTS_SERVICE, publicUrl: options.publicUrl ?? 'http://localhost:3000', egressAllowPrivateNetworks: options.egressAllowPrivateNetworks, log: options.log });
    const customers = new CustomerDirectory(host.dataSource, CUSTOMER_ARRIVAL_WAIT_MS);
    const transfers = new TransferService(peers, saga, host.claims, options.sandboxTimeScale, rails, customers);
    const quoteExecution = new QuoteExecution(host.dataSource, PAYMENTS_SERVICE, saga, peers, options.sandboxTimeScale, rails);
    // The RPC clients close after the subscription stops.
    const quoteEvents = subscriptionWork(() => quoteExecution.subscribe(options.bus), () => peers.close());
    const parts: InvitationParts = openInvitationParts(host, saga, timerHandlers, peers, { ...options, schema: PAYMENTS_SERVICE });
    const transactions = new TransactionQueries(host.dataSource, peers.ledger);
    const approvals = new TransactionApprovals(saga, transactions, host.claims);
    const cardTransactions = new CardTransactionsConsumer(host.dataSource, PAYMENTS_SERVICE, options.log);
    const cardEvents = subscriptionWork(() => cardTransactions.subscribe(options.bus));
    const stablecoins = Stablecoins.open(host, peers, timerHandlers, { sandboxTimeScale: options.sandboxTimeScale, secretHashKey: options.secretHashKey, brale: options.brale, rpcTimeoutMs: options.rpcTimeoutMs, customers, log: options.log });
    // Production accounts verified by their payout rail get their ACH prenote from accounts' ExternalAccountCreated.v1.
    const prenotes = prenoteRequestsWork(rails, { dataSource: host.dataSource, schema: PAYMENTS_SERVICE, bus: options.bus });
    const railWork: BackgroundWork = {
      start: async () => {
        rails.start();
        await prenotes.start();
      },
      stop: async () => {
        await prenotes.stop();
        await rails.stop();
      },
    };
    return new Payments(host, saga, transfers, transactions, quoteExecution, quoteEvents, parts.invitations, parts.umaReceive, parts.identityEvents, approvals, cardEvents, stablecoins, rails, railWork);
  }
}
