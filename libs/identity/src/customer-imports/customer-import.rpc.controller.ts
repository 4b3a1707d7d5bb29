import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CustomerCsvUploadBody, CustomerImportJob, CustomerImportJobAccepted, CustomerImportsRpc, RpcRequest } from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the bulk customer import; the gateway has checked the upload's size and encoding. */
@Controller()
export class CustomerImportRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(CustomerImportsRpc.upload)
  upload(@Payload() request: RpcRequest<CustomerCsvUploadBody>): Promise<CustomerImportJobAccepted> {
    return this.identity.customerImports.upload(request.caller, request.body, new Date().toISOString());
  }

  @MessagePattern(CustomerImportsRpc.get)
  get(@Payload() request: RpcRequest<{ jobId: string }>): Promise<CustomerImportJob> {
    return this.identity.customerImports.get(request.caller, request.body.jobId);
  }
}
