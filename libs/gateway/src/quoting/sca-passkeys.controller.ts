import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CallerContext, Customer, CustomersRpc, EnrolScaPasskeyRequest, ScaCustomerRef, ScaPasskey, ScaPasskeyRegistrationOptions, ScaPasskeysRpc } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const OPTIONS =
  'Starts the enrolment of the customer\'s SCA passkey (one per customer): WebAuthn creation options for ' +
  '`navigator.credentials.create` (attestation none, user verification required) with a single-use challenge that ' +
  'expires at `expiresAt` (5 minutes), and the origins the ceremony may run on. 409 PASSKEY_ALREADY_ENROLLED when ' +
  'one is enrolled; 409 SCA_NOT_REQUIRED for customers outside the EU/EEA.';
const ENROL =
  'Completes the enrolment: `registrationResponse` is the browser\'s RegistrationResponseJSON, `origin` the page\'s ' +
  'origin (one of passkeyAllowedOrigins). Verified with @simplewebauthn/server (challenge, origin, RP ID, user presence ' +
  'and verification, key); failures are 400 INVALID_INPUT naming the failed check. The passkey then authorizes ' +
  'PASSKEY challenges of the customer\'s quotes.';

/** SCA passkey enrolment (quoting owns it; identity answers whether the customer exists on the caller's platform). */
@ApiTags('Strong Customer Authentication')
@Controller('customers/:customerId/sca/passkey')
export class ScaPasskeysController {
  constructor(
    @Inject(QUOTING_CLIENT) private readonly quoting: ServiceClient,
    @Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient,
  ) {}

  @Post('registration-options')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Begin enrolling the customer\'s SCA passkey', description: OPTIONS, ok: 'ScaPasskeyRegistrationOptions', errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] })
  async registrationOptions(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string): Promise<ScaPasskeyRegistrationOptions> {
    return this.quoting.call(ScaPasskeysRpc.registrationOptions, { caller: r.caller, body: await this.customer(r.caller, customerId) });
  }

  @Post()
  @HttpCode(201)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Enrol the customer\'s SCA passkey', description: ENROL, body: EnrolScaPasskeyRequest, ok: 'ScaPasskey', okStatus: 201, errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] })
  async enrol(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string, @Body() body: EnrolScaPasskeyRequest): Promise<ScaPasskey> {
    return this.quoting.call(ScaPasskeysRpc.enrol, { caller: r.caller, body: { ...(await this.customer(r.caller, customerId)), ...body } });
  }

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get the customer\'s SCA passkey', ok: 'ScaPasskey', errors: [401, 403, 404, 429, 500, 503] })
  async get(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string): Promise<ScaPasskey> {
    return this.quoting.call(ScaPasskeysRpc.get, { caller: r.caller, body: await this.customer(r.caller, customerId) });
  }

  @Delete()
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Remove the customer\'s SCA passkey (a new one can then be enrolled)', okStatus: 204, errors: [401, 403, 404, 429, 500, 503] })
  async remove(@Req() r: AuthenticatedRequest, @Param('customerId') customerId: string): Promise<void> {
    await this.quoting.call(ScaPasskeysRpc.remove, { caller: r.caller, body: await this.customer(r.caller, customerId) });
  }

  /** 404 unless the customer is the caller's (platform and mode); quoting has no customer view of its own yet. */
  private async customer(caller: CallerContext, customerId: string): Promise<ScaCustomerRef> {
    const customer = await this.identity.call<Customer>(CustomersRpc.get, { caller, body: { customerId } });
    return { customerId: customer.id, customerRegion: customer.region ?? null };
  }
}
