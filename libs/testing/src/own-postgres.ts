import { OwnPostgres as Server } from '@payments/embedded-postgres';
import { freePort } from './ports';

/** libs/embedded-postgres's PostgreSQL server of a test's own, on a port from freePort. */
export const OwnPostgres = {
  start: async (options: { maxConnections?: number } = {}): Promise<Server> => Server.start({ ...options, port: await freePort() }),
};
export type OwnPostgres = Server;
