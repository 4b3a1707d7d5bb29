import { DynamicModule, Module } from '@nestjs/common';
import { ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { Agents, AGENTS_SERVICE } from './agents';
import { AgentsRpcController } from './agents.rpc.controller';
import { AGENTS } from './agents.tokens';

@Module({})
class AgentsRpcModule {
  static forAgents(agents: Agents): DynamicModule {
    return { module: AgentsRpcModule, controllers: [AgentsRpcController], providers: [{ provide: AGENTS, useValue: agents }] };
  }
}

/** Serves the agents RPC, its relay and timers, and its ops server. */
export function startAgentsServer(
  agents: Agents,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  return startServiceServer({ name: AGENTS_SERVICE, module: AgentsRpcModule.forAgents(agents), host: agents.host, rpc, ops, background: [{ start: async () => undefined, stop: () => agents.close() }], log });
}
