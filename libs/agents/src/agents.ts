import { AGENTS_EVENTS } from '@payments/contracts';
import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { ServiceHost } from '@payments/runtime';
import { ActionRunner } from './actions/action-runner';
import { AgentSecrets } from './agent-secrets';
import { AgentManagement, CredentialLifetimes, DEFAULT_LIFETIMES } from './agents/agent-management';
import { AgentOperations } from './agents/agent-operations';
import { agentsMigrations } from './agents.migrations';
import { AgentPeers } from './peers';

export const AGENTS_SERVICE = 'agents';

type Endpoint = { host: string; port: number };

export interface AgentsOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  /** SECRET_HASH_KEY: device codes and access tokens are kept as hashes keyed from it. */
  secretHashKey: Buffer;
  identity: Endpoint;
  accounts: Endpoint;
  quoting: Endpoint;
  payments: Endpoint;
  rpcTimeoutMs: number;
  /** How long device codes and access tokens work (AGENT_DEVICE_CODE_TTL_SECONDS, AGENT_ACCESS_TOKEN_TTL_SECONDS). */
  lifetimes?: CredentialLifetimes;
  log?: (message: string, error?: unknown) => void;
}

/** The agents service's parts, wired once: used by its RPC controller and tests. */
export class Agents {
  private constructor(
    readonly host: ServiceHost,
    readonly management: AgentManagement,
    readonly operations: AgentOperations,
    readonly actions: ActionRunner,
    private readonly peers: AgentPeers,
  ) {}

  static async open(options: AgentsOptions): Promise<Agents> {
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: AGENTS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [agentsMigrations],
      entities: [],
      sandboxTimeScale: 1,
      timerHandlers,
      events: AGENTS_EVENTS,
      log: options.log,
    });
    const log = options.log ?? (() => undefined);
    const peers = new AgentPeers({ identity: options.identity, accounts: options.accounts, quoting: options.quoting, payments: options.payments }, options.rpcTimeoutMs);
    const actions = new ActionRunner(host.dataSource, host.store, host.executor, host.timers, peers, host.claims, log);
    const management = new AgentManagement(host.dataSource, host.store, host.executor, host.claims, peers, new AgentSecrets(options.secretHashKey), actions, options.lifetimes ?? DEFAULT_LIFETIMES);
    const operations = new AgentOperations(host.dataSource, peers, management, actions);
    Object.assign(timerHandlers, actions.timerHandlers());
    return new Agents(host, management, operations, actions, peers);
  }

  /** Closes the RPC clients (the host is stopped by the server). */
  close(): Promise<void> {
    return this.peers.close();
  }
}
