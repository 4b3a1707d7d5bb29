import { call } from './client';

export type Principal =
  | { audience: 'platform'; platformId: string; mode: 'SANDBOX' | 'PRODUCTION'; clientId: string }
  | { audience: 'operator'; operatorId: string; name: string; role: 'ADMIN' | 'REVIEWER' | 'VIEWER'; clientId: string };

export interface Session {
  principal: Principal;
  csrfToken: string;
  expiresAt: string;
  idleTimeoutSeconds: number;
}

export const currentSession = () => call<Session>('GET', '/console/session', { session: true });

export const signIn = (audience: 'platform' | 'operator', clientId: string, clientSecret: string) =>
  call<Session>('POST', '/console/session', { session: true, body: { audience, clientId, clientSecret } });

export const signOut = () => call<void>('DELETE', '/console/session', { session: true });
