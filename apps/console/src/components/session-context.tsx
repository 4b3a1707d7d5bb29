import { createContext, useContext } from 'react';
import type { Session } from '../api/session';

/** The signed-in session, provided by the app once it knows it: pages read who is signed in here, never fetch it. */
export const SessionContext = createContext<Session | undefined>(undefined);

/**
 * The mode of the signed-in platform credential: the sandbox-only parts of a page are offered only where they can
 * work. Undefined for an operator (or outside a session).
 */
export function useSessionMode(): 'SANDBOX' | 'PRODUCTION' | undefined {
  const principal = useContext(SessionContext)?.principal;
  return principal?.audience === 'platform' ? principal.mode : undefined;
}
