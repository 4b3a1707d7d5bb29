import { Controller, Inject } from '@nestjs/common';
import {
  CustomerCsvUploadBody,
  CustomerImportJob,
  CustomerImportJobAccepted,
  CustomerImportJobIdBody,
  CustomerImportsRpc,
  RpcRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the bulk customer import; the gateway has checked the upload's size and encoding. */
@Controller()
export class CustomerImportRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(CustomerImportsRpc.upload)
  upload(request: RpcRequest<CustomerCsvUploadBody>): Promise<CustomerImportJobAccepted> {
    return this.identity.customerImports.upload(request.caller, request.body, new Date().toISOString());
  }

  @Handles(CustomerImportsRpc.get)
  get(request: RpcRequest<CustomerImportJobIdBody>): Promise<CustomerImportJob> {
    return this.identity.customerImports.get(request.caller, request.body.jobId);
  }
}
