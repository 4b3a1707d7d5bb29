import { eventually } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * UMA invitations through the gateway: two platforms, real HTTP, the payments service on PostgreSQL, the webhook
 * dispatcher delivering INVITATION_CLAIMED to a real local endpoint of the inviting platform.
 */
describe('UMA invitations', () => {
  let t: TestPlatform;
  let inviter: TestTenant & { platformId?: string };
  let invitee: TestTenant & { platformId?: string };
  const receiver = new WebhookReceiver();
  let n = 0;

  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform();
    inviter = await t.createTenant('inviter');
    invitee = await t.createTenant('invitee');
    for (const [tenant, path] of [[inviter, '/inviter'], [invitee, '/invitee']] as const) {
      expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url(path) } })).status).toBe(200);
      // Not waiting for the TEST webhook (never retried, so one lost attempt would fail the suite): identity's log
      // orders this change before the customers created below, so the dispatcher knows the endpoint by any claim.
    }
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  /** A customer of `auth`'s platform with a fresh UMA address (holding USD, the platform default). */
  const customerWithUma = async (auth: string): Promise<{ id: string; uma: string }> => {
    const uma = `$alice.${n++}@inviter.example`;
    const res = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Alice Inviter', umaAddress: uma } });
    expect(res.status).toBe(201);
    return { id: res.body.id, uma };
  };
  const create = (auth: string, body: Record<string, unknown>) => t.call('POST', '/invitations', { auth, body });
  const claim = (auth: string, code: string, inviteeUma = '$bob@invitee.example') => t.call('POST', `/invitations/${code}/claim`, { auth, body: { inviteeUma } });
  const cancel = (auth: string, code: string) => t.call('POST', `/invitations/${code}/cancel`, { auth });
  const pending = async (body: Record<string, unknown> = {}) => {
    const { uma } = await customerWithUma(inviter.sandbox);
    const res = await create(inviter.sandbox, { inviterUma: uma, ...body });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };

  it('creates a PENDING invitation with an unguessable code, a link, and a 30-day expiry', async () => {
    const { uma } = await customerWithUma(inviter.sandbox);
    const before = Date.now();
    const res = await create(inviter.sandbox, { inviterUma: uma.toUpperCase(), firstName: 'Bob', amountToSend: 2_500 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING', inviterUma: uma, firstName: 'Bob', amountToSend: { amount: 2_500, currency: { code: 'USD', decimals: 2 } } });
    expect(res.body.code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(res.body.url).toMatch(new RegExp(`^http://localhost:\\d+/invitations/${res.body.code}$`));
    const days = (Date.parse(res.body.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    const other = await create(inviter.sandbox, { inviterUma: uma });
    expect(other.body.code).not.toBe(res.body.code);
    expect(other.body).not.toHaveProperty('amountToSend');
  });

  it('shows an invitation to every platform of its mode by code, and to nobody in the other mode', async () => {
    const invitation = await pending();
    expect(await t.call('GET', `/invitations/${invitation.code}`, { auth: inviter.sandbox })).toMatchObject({ status: 200, body: invitation });
    expect(await t.call('GET', `/invitations/${invitation.code}`, { auth: invitee.sandbox })).toMatchObject({ status: 200, body: invitation });
    for (const auth of [inviter.production, invitee.production]) {
      expect(await t.call('GET', `/invitations/${invitation.code}`, { auth })).toMatchObject({ status: 404, body: { status: 404, code: 'INVITATION_NOT_FOUND' } });
    }
    expect((await t.call('GET', '/invitations/AAAAAAAAAAAAAAAA', { auth: inviter.sandbox })).body.code).toBe('INVITATION_NOT_FOUND');
    expect((await t.call('GET', '/invitations/not-a-code', { auth: inviter.sandbox })).body.code).toBe('INVITATION_NOT_FOUND');
  });

  it('is claimed by the invitee\'s platform: the inviter sees CLAIMED and receives INVITATION_CLAIMED, once', async () => {
    const invitation = await pending({ amountToSend: 1_000 });
    const res = await claim(invitee.sandbox, invitation.code, '$Bob@Invitee.example');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: invitation.code, status: 'CLAIMED', inviteeUma: '$bob@invitee.example', claimedAt: expect.any(String) });
    expect((await t.call('GET', `/invitations/${invitation.code}`, { auth: inviter.sandbox })).body).toEqual(res.body);

    const [event] = await t.platform.payments.host.dataSource.query(`SELECT platform_id, data FROM payments.events WHERE type = 'InvitationClaimed.v1' AND stream_id = $1`, [`Invitation:${invitation.code}`]);
    expect(event.platform_id).toBe(inviter.platformId);
    expect(event.data.invitation).toEqual(res.body);

    const hook = await eventually(async () => receiver.at('/inviter', 'INVITATION_CLAIMED').find((h) => h.json.data.code === invitation.code), { what: 'INVITATION_CLAIMED webhook' });
    expect(hook.json.data).toEqual(res.body);
    expect(receiver.at('/invitee', 'INVITATION_CLAIMED')).toEqual([]);

    expect(await claim(invitee.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_ALREADY_CLAIMED' } });
    expect(await cancel(inviter.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_ALREADY_CLAIMED' } });
    expect((await t.call('GET', `/invitations/${invitation.code}`, { auth: inviter.sandbox })).body.status).toBe('CLAIMED');
  });

  it('is cancelled by its platform only, then cannot be claimed or cancelled again', async () => {
    const invitation = await pending();
    expect(await cancel(invitee.sandbox, invitation.code)).toMatchObject({ status: 403, body: { status: 403, code: 'FORBIDDEN' } });
    expect(await cancel(inviter.production, invitation.code)).toMatchObject({ status: 404, body: { code: 'INVITATION_NOT_FOUND' } });
    const res = await cancel(inviter.sandbox, invitation.code);
    expect(res).toMatchObject({ status: 200, body: { code: invitation.code, status: 'CANCELLED' } });
    expect(await claim(invitee.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_CANCELLED' } });
    expect(await cancel(inviter.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_CANCELLED' } });
    expect((await t.call('GET', `/invitations/${invitation.code}`, { auth: invitee.sandbox })).body.status).toBe('CANCELLED');
  });

  it('expires at expiresAt: EXPIRED, and neither claimable nor cancellable', async () => {
    const invitation = await pending({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect(invitation.status).toBe('PENDING');
    await eventually(async () => (await t.call('GET', `/invitations/${invitation.code}`, { auth: inviter.sandbox })).body.status === 'EXPIRED', { what: 'EXPIRED', timeoutMs: 10_000 });
    expect(await claim(invitee.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_EXPIRED' } });
    expect(await cancel(inviter.sandbox, invitation.code)).toMatchObject({ status: 400, body: { code: 'INVITATION_EXPIRED' } });
  });

  it('refuses bad creations: malformed or unknown inviter, a foreign customer, past expiry, a currency the inviter lacks', async () => {
    const { uma } = await customerWithUma(inviter.sandbox);
    const foreign = await customerWithUma(invitee.sandbox);
    const refused: [Record<string, unknown>, number, string][] = [
      [{ inviterUma: 'alice@example.com' }, 400, 'INVALID_UMA_ADDRESS'],
      [{ inviterUma: '$nobody@inviter.example' }, 404, 'USER_NOT_FOUND'],
      [{ inviterUma: foreign.uma }, 404, 'USER_NOT_FOUND'],
      [{ inviterUma: uma, expiresAt: new Date(Date.now() - 1_000).toISOString() }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, expiresAt: '2026-13-01T00:00:00Z' }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, amountToSend: 100, currency: 'EUR' }, 400, 'INVALID_CURRENCY'],
      [{ inviterUma: uma, currency: 'USD' }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, amountToSend: 0 }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, amountToSend: 1.5 }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, amountToSend: Number.MAX_SAFE_INTEGER + 2 }, 400, 'INVALID_INPUT'],
      [{ inviterUma: uma, unknown: 1 }, 400, 'INVALID_INPUT'],
    ];
    for (const [body, status, code] of refused) {
      expect({ body, res: (await create(inviter.sandbox, body)).body }).toMatchObject({ body, res: { status, code } });
    }
  });

  it('refuses a malformed invitee address and the inviter claiming its own invitation', async () => {
    const invitation = await pending();
    expect(await claim(invitee.sandbox, invitation.code, 'bob')).toMatchObject({ status: 400, body: { code: 'INVALID_UMA_ADDRESS' } });
    expect(await claim(invitee.sandbox, invitation.code, invitation.inviterUma)).toMatchObject({ status: 400, body: { code: 'SELF_PAYMENT' } });
    expect(await claim(invitee.sandbox, 'AAAAAAAAAAAAAAAA')).toMatchObject({ status: 404, body: { code: 'INVITATION_NOT_FOUND' } });
    expect((await t.call('GET', `/invitations/${invitation.code}`, { auth: inviter.sandbox })).body.status).toBe('PENDING');
  });

  it('needs TRANSACT to create, claim and cancel; VIEW reads', async () => {
    const invitation = await pending();
    const token = (await t.call('POST', '/tokens', { auth: invitee.sandbox, body: { name: 'viewer', permissions: ['VIEW'] } })).body;
    const viewer = `Basic ${Buffer.from(`${token.clientId}:${token.clientSecret}`).toString('base64')}`;
    expect((await t.call('GET', `/invitations/${invitation.code}`, { auth: viewer })).status).toBe(200);
    expect((await claim(viewer, invitation.code)).status).toBe(403);
    expect((await cancel(viewer, invitation.code)).status).toBe(403);
    expect((await create(viewer, { inviterUma: invitation.inviterUma })).status).toBe(403);
  });
});
