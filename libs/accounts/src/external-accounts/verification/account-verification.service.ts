import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  AccountVerificationMethod,
  AccountVerificationMethodList,
  AccountVerificationMethodView,
  ApiError,
  DEFAULT_ACCOUNT_VERIFICATION_METHOD,
  ExternalAccount,
  ExternalAccountReview,
  invalidInput,
  isAccountVerificationMethod,
  isExternalAccountId,
  ListExternalAccountReviewsQuery,
  Mode,
  OperatorPrincipal,
  operatorActionStream,
  Page,
  RecordRailVerificationRequest,
} from '@payments/contracts';
import { CommandExecutor, queryRows } from '@payments/eventsourcing';
import { keysetPage, SqlWhere } from '@payments/runtime';
import { externalAccountDecider, ExternalAccountCommand, VerificationOutcome } from '../external-account.decider';
import { projectExternalAccount } from '../external-account.projection';
import { presentStored, toExternalAccount } from '../external-account.view';
import { accountVerificationMethodDecider } from './account-verification-method.decider';
import { accountVerificationMethodStreamId } from './account-verification-method.events';
import { projectAccountVerificationMethod } from './account-verification-method.projection';
import { EXTERNAL_ACCOUNT_CURRENCIES } from './verification-methods';

/** The operator who acts and the request's correlation id (for the events' metadata). */
export interface OperatorAct {
  operator: OperatorPrincipal;
  correlationId?: string;
}

interface ReviewRow {
  external_account_id: string;
  platform_id: string;
  mode: Mode;
  status: string;
  currency: string;
  verification_method: AccountVerificationMethod | null;
  body: ExternalAccount;
}

interface MethodRow {
  currency: string;
  method: AccountVerificationMethod;
  updated_at: Date;
  updated_by_id: string;
  updated_by_name: string;
}

/** Operators see a production account only; a sandbox, deleted or unknown one is the 404 of any unknown account. */
const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'external account not found');

/** Awaiting its verification: what the queue lists (the decider's `awaitingVerification`, in SQL). */
const AWAITING = `mode = 'PRODUCTION' AND deleted_at IS NULL AND status IN ('PENDING', 'UNDER_REVIEW')`;

/**
 * How production external accounts become ACTIVE: the method per currency (set by ADMIN operators), the operator
 * queue and its decisions (REVIEWER operators), and the entry point of payout rails that verify accounts. Each
 * operator action is recorded (`operatorActionStream`) in the transaction of its effect.
 */
export class AccountVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
  ) {}

  async listMethods(): Promise<AccountVerificationMethodList> {
    const rows = await queryRows<MethodRow>(this.dataSource, `SELECT * FROM account_verification_methods`);
    const configured = new Map(rows.map((row) => [row.currency, row]));
    return { defaultMethod: DEFAULT_ACCOUNT_VERIFICATION_METHOD, data: EXTERNAL_ACCOUNT_CURRENCIES.map((currency) => methodView(currency, configured.get(currency))) };
  }

  /** ADMIN: the method of new production accounts in `currency`; setting the one it has records nothing. */
  async setMethod(act: OperatorAct, currency: string, method: AccountVerificationMethod, now: string): Promise<AccountVerificationMethodView> {
    if (!EXTERNAL_ACCOUNT_CURRENCIES.includes(currency)) {
      throw invalidInput('currency', `external accounts do not accept ${currency}: one of ${EXTERNAL_ACCOUNT_CURRENCIES.join(', ')}`);
    }
    if (!isAccountVerificationMethod(method)) throw invalidInput('method', 'method must be OPERATOR_APPROVAL or PAYOUT_RAIL');
    const { operator } = act;
    await this.executor.execute({
      decider: accountVerificationMethodDecider,
      streamId: accountVerificationMethodStreamId(currency),
      platformId: null,
      metadata: { correlationId: act.correlationId, actor: operator.operatorId },
      command: { type: 'SetAccountVerificationMethod', currency, method, operator: { id: operator.operatorId, name: operator.name }, now },
      project: projectAccountVerificationMethod,
      also: [
        operatorActionStream({
          actionId: uuidv7(),
          operator,
          action: 'account-verification.configure',
          target: { type: 'AccountVerificationMethod', id: currency },
          details: { currency, method },
          occurredAt: now,
        }),
      ],
    });
    const rows = await queryRows<MethodRow>(this.dataSource, `SELECT * FROM account_verification_methods WHERE currency = $1`, [currency]);
    return methodView(currency, rows[0]);
  }

  /** The queue: production accounts awaiting `verificationMethod` (OPERATOR_APPROVAL by default), oldest first. */
  async listReviews(query: ListExternalAccountReviewsQuery): Promise<Page<ExternalAccountReview>> {
    const where = new SqlWhere()
      .add(AWAITING)
      .add('verification_method = ?', query.verificationMethod ?? DEFAULT_ACCOUNT_VERIFICATION_METHOD)
      .add('platform_id = ?', query.platformId)
      .add('currency = ?', query.currency);
    return keysetPage<ReviewRow, ExternalAccountReview>({
      db: this.dataSource,
      from: `FROM external_accounts WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'external_account_id',
      order: 'asc',
      limit: query.limit,
      cursor: query.cursor,
      select: 'external_account_id, platform_id, mode, status, currency, verification_method, body',
      toItem: toReview,
      keyOf: (row) => row.external_account_id,
    });
  }

  /** Any live production account (awaiting, decided, or waiting for its rail); else 404. */
  async getReview(externalAccountId: string): Promise<ExternalAccountReview> {
    return toReview(await this.productionRow(externalAccountId));
  }

  /** REVIEWER: ACTIVE (it can receive), once. */
  approve(act: OperatorAct, externalAccountId: string, reason: string | undefined, now: string): Promise<ExternalAccountReview> {
    return this.decide(act, externalAccountId, 'VERIFIED', reason, now);
  }

  /** REVIEWER: UNVERIFIED (the published status of a failed verification), once; the reason is required. */
  reject(act: OperatorAct, externalAccountId: string, reason: string, now: string): Promise<ExternalAccountReview> {
    if (typeof reason !== 'string' || reason.trim() === '') throw invalidInput('reason', 'a rejection needs a reason');
    return this.decide(act, externalAccountId, 'FAILED', reason, now);
  }

  /**
   * The port of payout rails that verify accounts (PAYOUT_RAIL; the ACH prenote is the first to come, nothing calls
   * it yet), served as AccountsRpc.recordRailVerification. A production account of `platformId` waiting for its rail
   * becomes ACTIVE (VERIFIED) or UNVERIFIED (FAILED); the status change publishes the same webhook as every other.
   * The outcome already recorded again appends nothing; another one, or an account that does not wait for a rail, is 409.
   */
  async recordRailVerification(request: RecordRailVerificationRequest, now: string): Promise<ExternalAccount> {
    const { externalAccountId, platformId, mode, outcome, rail, reason } = request;
    if (outcome !== 'VERIFIED' && outcome !== 'FAILED') throw invalidInput('outcome', 'outcome must be VERIFIED or FAILED');
    if (typeof rail !== 'string' || rail.trim() === '') throw invalidInput('rail', 'name the rail that verified the account');
    const rows = isExternalAccountId(externalAccountId)
      ? await queryRows<{ platform_id: string }>(this.dataSource, `SELECT platform_id FROM external_accounts WHERE external_account_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`, [
          externalAccountId,
          platformId,
          mode,
        ])
      : [];
    if (!rows[0]) throw notFound();
    const command: ExternalAccountCommand = { type: 'RecordRailVerification', outcome, rail, ...(typeof reason === 'string' ? { reason } : {}), now };
    const result = await this.executor.execute({
      decider: externalAccountDecider,
      streamId: externalAccountId,
      platformId,
      metadata: { correlationId: externalAccountId, actor: `rail:${rail}` },
      command,
      project: projectExternalAccount,
    });
    if (result.state.status === 'NONE') throw notFound();
    return toExternalAccount(result.state);
  }

  private async decide(act: OperatorAct, externalAccountId: string, outcome: VerificationOutcome, reason: string | undefined, now: string): Promise<ExternalAccountReview> {
    const row = await this.productionRow(externalAccountId);
    const { operator } = act;
    const status = outcome === 'VERIFIED' ? 'ACTIVE' : 'UNVERIFIED';
    await this.executor.execute({
      decider: externalAccountDecider,
      streamId: externalAccountId,
      platformId: row.platform_id,
      metadata: { correlationId: act.correlationId, actor: operator.operatorId },
      command: { type: 'DecideExternalAccount', outcome, now },
      project: projectExternalAccount,
      also: [
        operatorActionStream({
          actionId: uuidv7(),
          operator,
          action: outcome === 'VERIFIED' ? 'external-account.approve' : 'external-account.reject',
          target: { type: 'ExternalAccount', id: externalAccountId },
          platformId: row.platform_id,
          ...(reason ? { reason } : {}),
          details: { status, currency: row.currency },
          occurredAt: now,
        }),
      ],
    });
    return this.getReview(externalAccountId);
  }

  private async productionRow(externalAccountId: string): Promise<ReviewRow> {
    const rows = isExternalAccountId(externalAccountId)
      ? await queryRows<ReviewRow>(
          this.dataSource,
          `SELECT external_account_id, platform_id, mode, status, currency, verification_method, body FROM external_accounts
            WHERE external_account_id = $1 AND mode = 'PRODUCTION' AND deleted_at IS NULL`,
          [externalAccountId],
        )
      : [];
    if (!rows[0]) throw notFound();
    return rows[0];
  }
}

function toReview(row: ReviewRow): ExternalAccountReview {
  const account = presentStored(row.body);
  return {
    id: row.external_account_id,
    platformId: row.platform_id,
    ...(account.customerId ? { customerId: account.customerId } : {}),
    currency: row.currency,
    status: account.status,
    verificationMethod: row.verification_method ?? DEFAULT_ACCOUNT_VERIFICATION_METHOD,
    ...(account.beneficiaryVerificationStatus ? { beneficiaryVerificationStatus: account.beneficiaryVerificationStatus } : {}),
    createdAt: account.createdAt,
    account,
  };
}

function methodView(currency: string, row: MethodRow | undefined): AccountVerificationMethodView {
  if (!row) return { currency, method: DEFAULT_ACCOUNT_VERIFICATION_METHOD, configured: false };
  return { currency, method: row.method, configured: true, updatedAt: new Date(row.updated_at).toISOString(), updatedBy: { id: row.updated_by_id, name: row.updated_by_name } };
}
