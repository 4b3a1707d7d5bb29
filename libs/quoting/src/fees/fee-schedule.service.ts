import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  CryptoNetwork,
  ListFeeScheduleHistoryQuery,
  ListNetworkFeeSchedulesQuery,
  ListServiceFeeSchedulesQuery,
  NetworkFeeSchedule,
  NetworkFeeScheduleVersion,
  notConfigured,
  operatorActionStream,
  OperatorPrincipal,
  Page,
  RemoveFeeScheduleRequest,
  requireOperator,
  ServiceFeeSchedule,
  ServiceFeeScheduleVersion,
  SetNetworkFeeScheduleRequest,
  SetServiceFeeScheduleRequest,
} from '@payments/contracts';
import { CommandExecutor, queryRows } from '@payments/eventsourcing';
import { findCurrency } from '@payments/money';
import { awaitArrival, keysetPage, SqlWhere } from '@payments/runtime';
import { sandboxServiceFees, ServiceFees } from '../rates/fee-schedule';
import { NetworkFee, WITHDRAWAL_APPLICATION_FEE_BPS, WITHDRAWAL_NETWORK_FEES } from '../crypto-fees/withdrawal-fees';
import { feeScheduleDecider, FeeScheduleCommand } from './fee-schedule.decider';
import type { NetworkFeeScope, NetworkFeeValues, ServiceFeeScope, ServiceFeeValues } from './fee-schedule.events';
import { projectFeeSchedule } from './fee-schedule.projection';
import type { KnownFeeSchedule } from './fee-schedule.state';
import { FeeScheduleRow, FeeScheduleVersionRow, toNetworkFeeSchedule, toNetworkFeeScheduleVersion, toServiceFeeSchedule, toServiceFeeScheduleVersion } from './fee-schedule.view';
import { networkScheduleId, resolveNetworkFee, resolveServiceFees, serviceScheduleId } from './fee-scopes';

/** What a crypto withdrawal costs: the chain's fee and the service's share (basis points of the amount). */
export type WithdrawalFees = NetworkFee & { applicationFeeBps: number };

/** The service fees of quotes from one sending currency, per destination currency (quote creation, GET /exchange-rates). */
export interface ServiceFeePricing {
  serviceFeesFrom(caller: Pick<CallerContext, 'platformId' | 'mode'>, sendingCurrency: string): Promise<(destinationCurrency: string) => ServiceFees>;
}

/** The fees of a crypto withdrawal (the withdrawal fee estimate). */
export interface WithdrawalFeePricing {
  withdrawalFees(caller: Pick<CallerContext, 'platformId' | 'mode'>, currency: string, network: CryptoNetwork): Promise<WithdrawalFees>;
}

const invalid = (code: string, field: string, message: string) => new ApiError(code, `${field} ${message}`, { errors: [{ field, message }] });
/** The operator API path that configures network fees, named by the 501 of production estimates without one. */
export const NETWORK_FEES_PATH = 'PUT /operator/v1/fees/network';

/**
 * The operator's fee schedules: set, removed and read through the operator API (each change audited in its own
 * transaction), and read by pricing. Production quotes and withdrawal estimates are priced from them; the sandbox
 * keeps its built-in constants.
 */
export class FeeScheduleService implements ServiceFeePricing, WithdrawalFeePricing {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    /** How long a set waits for a platform created a moment ago (its config comes from identity's events). */
    private readonly platformArrivalWaitMs: number,
  ) {}

  async setService(caller: CallerContext, request: SetServiceFeeScheduleRequest, now: string): Promise<ServiceFeeSchedule> {
    const operator = requireOperator(caller, 'ADMIN');
    const values = this.serviceValues(request);
    await this.assertPlatform(values.scope.platformId);
    const scheduleId = serviceScheduleId(values.scope);
    const state = await this.run(caller, operator, values.scope.platformId, { type: 'SetFeeSchedule', ...values, scheduleId, operator: ref(operator), reason: request.reason ?? null, now }, 'fees.set-service', now);
    return toServiceFeeSchedule(rowOf(state));
  }

  async setNetwork(caller: CallerContext, request: SetNetworkFeeScheduleRequest, now: string): Promise<NetworkFeeSchedule> {
    const operator = requireOperator(caller, 'ADMIN');
    const values = this.networkValues(request);
    await this.assertPlatform(values.scope.platformId);
    const scheduleId = networkScheduleId(values.scope);
    const state = await this.run(caller, operator, values.scope.platformId, { type: 'SetFeeSchedule', ...values, scheduleId, operator: ref(operator), reason: request.reason ?? null, now }, 'fees.set-network', now);
    return toNetworkFeeSchedule(rowOf(state));
  }

  async removeService(caller: CallerContext, request: RemoveFeeScheduleRequest, now: string): Promise<ServiceFeeScheduleVersion> {
    const state = await this.remove(caller, request, 'SERVICE', 'fees.remove-service', now);
    return toServiceFeeScheduleVersion(versionOf(state));
  }

  async removeNetwork(caller: CallerContext, request: RemoveFeeScheduleRequest, now: string): Promise<NetworkFeeScheduleVersion> {
    const state = await this.remove(caller, request, 'NETWORK', 'fees.remove-network', now);
    return toNetworkFeeScheduleVersion(versionOf(state));
  }

  listService(query: ListServiceFeeSchedulesQuery): Promise<Page<ServiceFeeSchedule>> {
    const where = this.owned(new SqlWhere().add(`kind = 'SERVICE'`), query.platformId)
      .add(`scope->>'sourceCurrency' = ?`, query.sourceCurrency)
      .add(`scope->>'destinationCurrency' = ?`, query.destinationCurrency);
    return this.current(where, query, toServiceFeeSchedule);
  }

  listNetwork(query: ListNetworkFeeSchedulesQuery): Promise<Page<NetworkFeeSchedule>> {
    const where = this.owned(new SqlWhere().add(`kind = 'NETWORK'`), query.platformId)
      .add(`scope->>'currency' = ?`, query.currency)
      .add(`scope->>'cryptoNetwork' = ?`, query.cryptoNetwork);
    return this.current(where, query, toNetworkFeeSchedule);
  }

  serviceHistory(query: ListFeeScheduleHistoryQuery): Promise<Page<ServiceFeeScheduleVersion>> {
    return this.history('SERVICE', query, toServiceFeeScheduleVersion);
  }

  networkHistory(query: ListFeeScheduleHistoryQuery): Promise<Page<NetworkFeeScheduleVersion>> {
    return this.history('NETWORK', query, toNetworkFeeScheduleVersion);
  }

  /** Sandbox: the built-in fees. Production: the configured schedules (resolveServiceFees), no fee without any. */
  async serviceFeesFrom(caller: Pick<CallerContext, 'platformId' | 'mode'>, sendingCurrency: string): Promise<(destinationCurrency: string) => ServiceFees> {
    if (caller.mode === 'SANDBOX') return () => sandboxServiceFees(sendingCurrency);
    const rows = await queryRows<FeeScheduleRow>(this.dataSource, `SELECT * FROM fee_schedules WHERE kind = 'SERVICE' AND (platform_id = $1 OR platform_id IS NULL)`, [caller.platformId]);
    const schedules = rows.map((r) => inForce<ServiceFeeScope, ServiceFeeValues>(r));
    return (destinationCurrency) => resolveServiceFees(schedules, caller.platformId, sendingCurrency, destinationCurrency);
  }

  /**
   * Sandbox: the built-in network table and 0.1%. Production: the configured entry of the platform, else of the
   * deployment; none is a 501 naming the operator API, as charging nothing for the chain's fee would lose money.
   */
  async withdrawalFees(caller: Pick<CallerContext, 'platformId' | 'mode'>, currency: string, network: CryptoNetwork): Promise<WithdrawalFees> {
    if (caller.mode === 'SANDBOX') {
      const fee = WITHDRAWAL_NETWORK_FEES[currency]?.[network];
      if (!fee) throw new Error(`no sandbox network fee for ${currency} on ${network}`); // the estimator checked the network first
      return { ...fee, applicationFeeBps: WITHDRAWAL_APPLICATION_FEE_BPS };
    }
    const rows = await queryRows<FeeScheduleRow>(
      this.dataSource,
      `SELECT * FROM fee_schedules WHERE kind = 'NETWORK' AND (platform_id = $1 OR platform_id IS NULL) AND scope->>'currency' = $2 AND scope->>'cryptoNetwork' = $3`,
      [caller.platformId, currency, network],
    );
    const fee = resolveNetworkFee(rows.map((r) => inForce<NetworkFeeScope, NetworkFeeValues>(r)), caller.platformId, currency, network);
    if (!fee) {
      throw notConfigured(
        'WITHDRAWAL_NETWORK_FEE',
        `no network fee is configured for ${currency} withdrawals on ${network} in production: the operator sets one with ${NETWORK_FEES_PATH}`,
        NETWORK_FEES_PATH,
        { currency, cryptoNetwork: network },
      );
    }
    return { networkFee: fee.networkFee, networkFeeAsset: fee.networkFeeAsset, applicationFeeBps: fee.applicationFeeBps };
  }

  private async run(caller: CallerContext, operator: OperatorPrincipal, platformId: string | null, command: FeeScheduleCommand, action: string, now: string): Promise<KnownFeeSchedule> {
    const { scheduleId } = command;
    const details = command.type === 'SetFeeSchedule' ? { ...command.scope, ...command.fees } : undefined;
    const result = await this.executor.execute({
      decider: feeScheduleDecider,
      streamId: scheduleId,
      platformId,
      metadata: { correlationId: caller.correlationId, actor: operator.operatorId },
      command,
      project: projectFeeSchedule,
      // The audit record commits with the change, and only when there is one (the same values again decide nothing).
      also: [
        operatorActionStream({
          actionId: uuidv7(),
          operator,
          action,
          target: { type: scheduleId.slice(0, scheduleId.indexOf(':')), id: scheduleId },
          ...(platformId ? { platformId } : {}),
          ...(command.reason ? { reason: command.reason } : {}),
          ...(details ? { details } : {}),
          occurredAt: now,
        }),
      ],
    });
    if (result.state.status === 'NONE') throw new ApiError('NOT_FOUND', `no fee schedule ${scheduleId}`);
    return result.state;
  }

  private async remove(caller: CallerContext, request: RemoveFeeScheduleRequest, kind: 'SERVICE' | 'NETWORK', action: string, now: string): Promise<KnownFeeSchedule> {
    const operator = requireOperator(caller, 'ADMIN');
    // Only a schedule of this kind in force is removed here: any other id (another kind's included) is 404.
    const [row] = await queryRows<{ platform_id: string | null }>(this.dataSource, `SELECT platform_id FROM fee_schedules WHERE schedule_id = $1 AND kind = $2`, [request.scheduleId, kind]);
    if (!row) throw new ApiError('NOT_FOUND', `no fee schedule ${request.scheduleId} is in force`);
    const command: FeeScheduleCommand = { type: 'RemoveFeeSchedule', scheduleId: request.scheduleId, operator: ref(operator), reason: request.reason ?? null, now };
    return this.run(caller, operator, row.platform_id, command, action, now);
  }

  /** A platform's schedule needs the platform: quoting knows it from its config (identity's events). */
  private async assertPlatform(platformId: string | null): Promise<void> {
    if (!platformId) return;
    const known = await awaitArrival(async () => {
      const rows = await queryRows(this.dataSource, `SELECT 1 FROM platform_currency_configs WHERE platform_id = $1 LIMIT 1`, [platformId]);
      return rows.length > 0 ? true : undefined;
    }, this.platformArrivalWaitMs);
    if (!known) throw new ApiError('REFERENCE_NOT_FOUND', 'platform not found', { errors: [{ field: 'platformId', message: 'no such platform' }] });
  }

  private serviceValues(request: SetServiceFeeScheduleRequest): { scope: ServiceFeeScope; fees: ServiceFeeValues } {
    const { sourceCurrency: source, destinationCurrency: destination } = request;
    if ((source === undefined) !== (destination === undefined)) {
      const field = source === undefined ? 'sourceCurrency' : 'destinationCurrency';
      throw invalid('INVALID_INPUT', field, 'is required with the other: a corridor names both currencies, a default neither');
    }
    for (const [field, code] of [['sourceCurrency', source], ['destinationCurrency', destination]] as const) {
      if (code !== undefined && !findCurrency(code)) throw invalid('INVALID_CURRENCY', field, `${code} is not a supported currency`);
    }
    if (source !== undefined && source === destination) throw invalid('SAME_CURRENCY', 'destinationCurrency', 'must differ from sourceCurrency (a same-currency transfer is not quoted)');
    const seen = new Set<string>();
    request.fixedFees.forEach((fee, i) => {
      const field = `fixedFees[${i}].currency`;
      if (!findCurrency(fee.currency)) throw invalid('INVALID_CURRENCY', field, `${fee.currency} is not a supported currency`);
      if (seen.has(fee.currency)) throw invalid('INVALID_INPUT', field, `${fee.currency} is named twice`);
      if (source !== undefined && fee.currency !== source) throw invalid('INVALID_CURRENCY', field, `must be the corridor's source currency ${source}: the fixed fee is charged in the sending currency`);
      seen.add(fee.currency);
    });
    const fixedFees = request.fixedFees.map((f) => ({ currency: f.currency, amount: f.amount })).sort((a, b) => (a.currency < b.currency ? -1 : 1));
    return {
      scope: { kind: 'SERVICE', platformId: request.platformId ?? null, sourceCurrency: source ?? null, destinationCurrency: destination ?? null },
      fees: { variableFeeBps: request.variableFeeBps, fixedFees },
    };
  }

  private networkValues(request: SetNetworkFeeScheduleRequest): { scope: NetworkFeeScope; fees: NetworkFeeValues } {
    const networks = WITHDRAWAL_NETWORK_FEES[request.currency];
    if (!networks || Object.keys(networks).length === 0) throw invalid('INVALID_CURRENCY', 'currency', `${request.currency} is not withdrawn to an external address on any network`);
    // Which chains a currency lives on is a fact of the currency, kept in the network table (its fees are the sandbox's).
    const chain = networks[request.cryptoNetwork];
    if (!chain) throw invalid('INVALID_INPUT', 'cryptoNetwork', `${request.currency} is not on ${request.cryptoNetwork}; one of ${Object.keys(networks).join(', ')}`);
    return {
      scope: { kind: 'NETWORK', platformId: request.platformId ?? null, currency: request.currency, cryptoNetwork: request.cryptoNetwork },
      fees: { networkFee: request.networkFee, networkFeeAsset: request.networkFeeAsset ?? chain.networkFeeAsset, applicationFeeBps: request.applicationFeeBps },
    };
  }

  private owned(where: SqlWhere, platformId: string | undefined): SqlWhere {
    if (platformId === 'deployment') return where.add('platform_id IS NULL');
    return where.add('platform_id = ?', platformId);
  }

  private current<T>(where: SqlWhere, query: { limit?: number; cursor?: string }, toItem: (row: FeeScheduleRow) => T): Promise<Page<T>> {
    return keysetPage<FeeScheduleRow, T>({
      db: this.dataSource,
      from: `FROM fee_schedules WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'schedule_id',
      order: 'asc',
      limit: query.limit,
      cursor: query.cursor,
      toItem,
      keyOf: (row) => row.schedule_id,
    });
  }

  private history<T>(kind: 'SERVICE' | 'NETWORK', query: ListFeeScheduleHistoryQuery, toItem: (row: FeeScheduleVersionRow) => T): Promise<Page<T>> {
    const where = this.owned(new SqlWhere().add('kind = ?', kind), query.platformId).add('schedule_id = ?', query.scheduleId);
    return keysetPage<FeeScheduleVersionRow & { seq: string }, T>({
      db: this.dataSource,
      from: `FROM fee_schedule_versions WHERE ${where.sql}`,
      params: where.params,
      // The append order, as sortable text (the keyset compares text).
      keyColumn: `lpad(position::text, 20, '0')`,
      select: `*, lpad(position::text, 20, '0') AS seq`,
      limit: query.limit,
      cursor: query.cursor,
      toItem,
      keyOf: (row) => row.seq,
    });
  }
}

const ref = (operator: OperatorPrincipal) => ({ id: operator.operatorId, name: operator.name });

function inForce<Scope, Fees>(row: FeeScheduleRow): { scheduleId: string; version: number; scope: Scope; fees: Fees } {
  return { scheduleId: row.schedule_id, version: row.version, scope: row.scope as Scope, fees: row.fees as Fees };
}

/** The schedule as the state after a change holds it, in the shape of its row. */
function rowOf(state: KnownFeeSchedule): FeeScheduleRow {
  return { schedule_id: state.scheduleId, kind: state.scope.kind, platform_id: state.scope.platformId, scope: state.scope, fees: state.fees, version: state.version, updated_at: new Date(state.updatedAt), updated_by: state.updatedBy };
}

function versionOf(state: KnownFeeSchedule): FeeScheduleVersionRow {
  return { ...rowOf(state), position: '', change: state.status === 'REMOVED' ? 'REMOVED' : 'SET', changed_by: state.updatedBy, reason: state.reason, changed_at: new Date(state.updatedAt) };
}
