import type { FileAnswer } from '../operations/http-operation';
import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type { EmptyBody } from '../rpc/rpc';
import type {
  AssignRailCreditRequest,
  ListRailExceptionsQuery,
  ListRailFilesQuery,
  RailConnectorList,
  RailExceptionView,
  RailFileDetail,
  RailFileView,
  RailImportResult,
  RailPaymentDetail,
  ResolveRailExceptionRequest,
  ReturnRailCreditRequest,
} from './rails.dto';

export interface RailFileIdBody {
  fileId: string;
}

export interface RailPaymentIdBody {
  paymentId: string;
}

export interface ResolveRailExceptionBody extends ResolveRailExceptionRequest {
  exceptionId: string;
}

export interface AssignRailCreditBody extends AssignRailCreditRequest {
  exceptionId: string;
}

export interface ReturnRailCreditBody extends ReturnRailCreditRequest {
  exceptionId: string;
}

export interface ImportRailFileBody {
  connectorId?: string;
  fileName: string;
  base64: string;
}

/** The production rails' operations (payments service): VIEWER reads, REVIEWER opens files and resolves, ADMIN imports. */
export const RailsOperatorRpc = {
  connectors: operatorRpc<EmptyBody, RailConnectorList>('payments.operator.rails.connectors', 'VIEWER'),
  listFiles: operatorRpc<ListRailFilesQuery, Page<RailFileView>>('payments.operator.rails.files.list', 'VIEWER'),
  getFile: operatorRpc<RailFileIdBody, RailFileDetail>('payments.operator.rails.files.get', 'VIEWER'),
  fileContent: operatorRpc<RailFileIdBody, FileAnswer>('payments.operator.rails.files.content', 'REVIEWER'),
  getPayment: operatorRpc<RailPaymentIdBody, RailPaymentDetail>('payments.operator.rails.payments.get', 'VIEWER'),
  importFile: operatorRpc<ImportRailFileBody, RailImportResult>('payments.operator.rails.imports.create', 'ADMIN'),
  listExceptions: operatorRpc<ListRailExceptionsQuery, Page<RailExceptionView>>('payments.operator.rails.exceptions.list', 'VIEWER'),
  resolveException: operatorRpc<ResolveRailExceptionBody, RailExceptionView>('payments.operator.rails.exceptions.resolve', 'REVIEWER'),
  assignCredit: operatorRpc<AssignRailCreditBody, RailExceptionView>('payments.operator.rails.exceptions.assign', 'REVIEWER'),
  returnCredit: operatorRpc<ReturnRailCreditBody, RailExceptionView>('payments.operator.rails.exceptions.return', 'REVIEWER'),
} as const;
