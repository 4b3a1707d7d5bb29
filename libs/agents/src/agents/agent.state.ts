import { AgentEvent, AgentTerms, SpendReservation } from './agent.events';

export interface DeviceCode {
  codeHash: string;
  expiresAt: string;
  /** Redeemed, or replaced by a newer code before it was. */
  used: boolean;
  redeemed?: boolean;
}

export interface ExistingAgent extends AgentTerms {
  status: 'ACTIVE' | 'DELETED';
  isPaused: boolean;
  isConnected: boolean;
  deviceCodes: DeviceCode[];
  /** Reservations of the current UTC month (older ones no longer count against anything). */
  reservations: SpendReservation[];
  updatedAt: string;
}

export type AgentState = { status: 'NONE' } | ExistingAgent;

/** The UTC day (YYYY-MM-DD) and month (YYYY-MM) of an instant. */
export const dayOf = (at: string) => at.slice(0, 10);
export const monthOf = (at: string) => at.slice(0, 7);

/** Usage now: the reservations of today and of this month. */
export function usageAt(s: ExistingAgent, now: string): { dailySpend: number; dailyCount: number; monthlySpend: number } {
  const today = s.reservations.filter((r) => r.day === dayOf(now));
  return {
    dailySpend: today.reduce((sum, r) => sum + r.amount, 0),
    dailyCount: today.length,
    monthlySpend: s.reservations.filter((r) => r.month === monthOf(now)).reduce((sum, r) => sum + r.amount, 0),
  };
}

export function evolveAgent(state: AgentState, event: AgentEvent): AgentState {
  if (event.type === 'AgentCreated.v1') return { ...event.data, status: 'ACTIVE', isPaused: false, isConnected: false, deviceCodes: [], reservations: [], updatedAt: event.data.createdAt };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'AgentRenamed.v1':
      return { ...state, name: event.data.name, updatedAt: event.data.at };
    case 'AgentPaused.v1':
      return { ...state, isPaused: true, updatedAt: event.data.at };
    case 'AgentResumed.v1':
      return { ...state, isPaused: false, updatedAt: event.data.at };
    case 'AgentPolicyUpdated.v1':
      return { ...state, policy: event.data.policy, updatedAt: event.data.at };
    case 'AgentDeleted.v1':
      return { ...state, status: 'DELETED', updatedAt: event.data.at };
    case 'AgentDeviceCodeIssued.v1':
      return { ...state, deviceCodes: [...state.deviceCodes.map((c) => ({ ...c, used: true })), { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt, used: false }].slice(-20), updatedAt: event.data.at };
    case 'AgentConnected.v1':
      return { ...state, isConnected: true, deviceCodes: state.deviceCodes.map((c) => (c.codeHash === event.data.codeHash ? { ...c, used: true, redeemed: true } : c)), updatedAt: event.data.at };
    case 'AgentAccessTokenRevoked.v1':
      return { ...state, updatedAt: event.data.at };
    case 'AgentSpendReserved.v1': {
      const { at, ...reservation } = event.data;
      return { ...state, reservations: [...state.reservations.filter((r) => r.month === monthOf(at)), reservation] };
    }
    case 'AgentSpendReleased.v1':
      return { ...state, reservations: state.reservations.filter((r) => r.actionId !== event.data.actionId) };
  }
}
