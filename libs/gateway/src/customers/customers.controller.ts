import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ConfirmContactRequest, CreateCustomerRequest, Customer, CustomersRpc, EndUserTerms, ListCustomersQuery, Page, UpdateCustomerRequest } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

const READ_ERRORS = [401, 403, 404, 429, 500, 503] as const;
const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] as const;

/** Customers: MANAGE for writes, VIEW for reads. */
@ApiTags('Customers')
@Controller('customers')
export class CustomersController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  @Post()
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Create a customer', body: CreateCustomerRequest, ok: 'Customer', okStatus: 201, errors: [400, 401, 403, 409, 413, 415, 429, 500, 503] })
  create(@Req() r: AuthenticatedRequest, @Body() body: CreateCustomerRequest): Promise<Customer> {
    return this.identity.call(CustomersRpc.create, { caller: r.caller, body });
  }

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List customers', query: ListCustomersQuery, ok: { page: 'Customer' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListCustomersQuery): Promise<Page<Customer>> {
    return this.identity.call(CustomersRpc.list, { caller: r.caller, body: query });
  }

  // Static paths before `:customerId`, so they are not taken for ids.
  @Get('end-user-terms')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Current end-user terms version and hosted URL', ok: 'EndUserTerms', errors: [401, 403, 429, 500, 503] })
  endUserTerms(@Req() r: AuthenticatedRequest): Promise<EndUserTerms> {
    return this.identity.call(CustomersRpc.endUserTerms, { caller: r.caller, body: {} });
  }

  @Get(':customerId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a customer', ok: 'Customer', errors: [...READ_ERRORS] })
  get(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string): Promise<Customer> {
    return this.identity.call(CustomersRpc.get, { caller: r.caller, body: { customerId } });
  }

  @Patch(':customerId')
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Update a customer (only the fields sent)', body: UpdateCustomerRequest, ok: 'Customer', errors: [...WRITE_ERRORS] })
  update(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string, @Body() patch: UpdateCustomerRequest): Promise<Customer> {
    return this.identity.call(CustomersRpc.update, { caller: r.caller, body: { customerId, patch } });
  }

  @Delete(':customerId')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Delete a customer; answers the customer as deleted (`isDeleted: true`). A second delete is 410; history stays in the event log',
    ok: 'Customer',
    okStatus: 200,
    errors: [401, 403, 404, 410, 429, 500, 503],
  })
  delete(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string): Promise<Customer> {
    return this.identity.call(CustomersRpc.delete, { caller: r.caller, body: { customerId } });
  }

  @Post(':customerId/verify-email')
  @HttpCode(202)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Send or resend the email verification code (sandbox: 123456, nothing sent)', ok: 'ContactCodeSent', okStatus: 202, errors: [401, 403, 404, 409, 423, 429, 500, 503] })
  verifyEmail(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string) {
    return this.identity.call(CustomersRpc.sendContactCode, { caller: r.caller, body: { customerId, channel: 'email' } });
  }

  @Post(':customerId/verify-email/confirm')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Confirm the email code; the email becomes VERIFIED', body: ConfirmContactRequest, ok: 'Customer', okStatus: 200, errors: [400, 401, 403, 404, 409, 423, 429, 500, 503] })
  confirmEmail(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string, @Body() body: ConfirmContactRequest): Promise<Customer> {
    return this.identity.call(CustomersRpc.confirmContactCode, { caller: r.caller, body: { customerId, channel: 'email', code: body.code } });
  }

  @Post(':customerId/verify-phone')
  @HttpCode(202)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Send or resend the SMS verification code (sandbox: 123456, nothing sent)', ok: 'ContactCodeSent', okStatus: 202, errors: [401, 403, 404, 409, 423, 429, 500, 503] })
  verifyPhone(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string) {
    return this.identity.call(CustomersRpc.sendContactCode, { caller: r.caller, body: { customerId, channel: 'phone' } });
  }

  @Post(':customerId/verify-phone/confirm')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Confirm the SMS code; the phone becomes VERIFIED', body: ConfirmContactRequest, ok: 'Customer', okStatus: 200, errors: [400, 401, 403, 404, 409, 423, 429, 500, 503] })
  confirmPhone(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string, @Body() body: ConfirmContactRequest): Promise<Customer> {
    return this.identity.call(CustomersRpc.confirmContactCode, { caller: r.caller, body: { customerId, channel: 'phone', code: body.code } });
  }
}
