import { Controller, Inject } from '@nestjs/common';
import {
  AssignRailCreditBody,
  EmptyBody,
  FileAnswer,
  ImportRailFileBody,
  ListRailExceptionsQuery,
  ListRailFilesQuery,
  Page,
  RailConnectorList,
  RailExceptionView,
  RailFileDetail,
  RailFileIdBody,
  RailFileView,
  RailImportResult,
  RailPaymentDetail,
  RailPaymentIdBody,
  RailsOperatorRpc,
  ResolveRailExceptionBody,
  ReturnRailCreditBody,
  RpcRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import { Payments, PAYMENTS_SERVICE } from '../../payments';
import { PAYMENTS } from '../../payments.tokens';
import { RailsOperatorActions } from './rails-operator-actions';
import { RailsQueries } from './rails-queries';

/** Thin RPC adapter of the rails' operator API (`@Handles` has checked the operator and the role: operatorRpc). */
@Controller()
export class RailsOperatorRpcController {
  private readonly queries: RailsQueries;
  private readonly actions: RailsOperatorActions;

  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {
    this.queries = new RailsQueries(payments.host.dataSource, PAYMENTS_SERVICE);
    this.actions = new RailsOperatorActions(payments.host.dataSource, payments.host.store, PAYMENTS_SERVICE, payments.rails, this.queries);
  }

  @Handles(RailsOperatorRpc.connectors)
  async connectors(_r: RpcRequest<EmptyBody>): Promise<RailConnectorList> {
    return { data: await this.queries.connectors(this.payments.rails) };
  }

  @Handles(RailsOperatorRpc.listFiles)
  listFiles(r: RpcRequest<ListRailFilesQuery>): Promise<Page<RailFileView>> {
    return this.queries.listFiles(r.body);
  }

  @Handles(RailsOperatorRpc.getFile)
  getFile(r: RpcRequest<RailFileIdBody>): Promise<RailFileDetail> {
    return this.queries.file(r.body.fileId);
  }

  @Handles(RailsOperatorRpc.fileContent)
  fileContent(r: RpcRequest<RailFileIdBody>): Promise<FileAnswer> {
    return this.actions.fileContent(r.caller, r.body.fileId);
  }

  @Handles(RailsOperatorRpc.getPayment)
  getPayment(r: RpcRequest<RailPaymentIdBody>): Promise<RailPaymentDetail> {
    return this.queries.payment(r.body.paymentId);
  }

  @Handles(RailsOperatorRpc.importFile)
  importFile(r: RpcRequest<ImportRailFileBody>): Promise<RailImportResult> {
    return this.actions.importFile(r.caller, r.body);
  }

  @Handles(RailsOperatorRpc.listExceptions)
  listExceptions(r: RpcRequest<ListRailExceptionsQuery>): Promise<Page<RailExceptionView>> {
    return this.queries.listExceptions(r.body);
  }

  @Handles(RailsOperatorRpc.resolveException)
  resolveException(r: RpcRequest<ResolveRailExceptionBody>): Promise<RailExceptionView> {
    return this.actions.resolveException(r.caller, r.body.exceptionId, r.body.resolution, new Date().toISOString());
  }

  @Handles(RailsOperatorRpc.assignCredit)
  assignCredit(r: RpcRequest<AssignRailCreditBody>): Promise<RailExceptionView> {
    return this.actions.assignCredit(r.caller, r.body.exceptionId, r.body.internalAccountId, r.body.reason, new Date().toISOString());
  }

  @Handles(RailsOperatorRpc.returnCredit)
  returnCredit(r: RpcRequest<ReturnRailCreditBody>): Promise<RailExceptionView> {
    return this.actions.returnCredit(r.caller, r.body.exceptionId, r.body.reason, new Date().toISOString());
  }
}
