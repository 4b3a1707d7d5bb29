import { UnconfiguredContactCodeSender } from './contact-delivery';

describe('UnconfiguredContactCodeSender (production without CONTACT_DELIVERY_URL)', () => {
  it('answers 501 naming CONTACT_DELIVERY_URL, asked before a code is issued and again if a send slips through', async () => {
    const sender = new UnconfiguredContactCodeSender();
    const expected = { status: 501, code: 'NOT_IMPLEMENTED', message: expect.stringContaining('CONTACT_DELIVERY_URL'), details: { capability: 'CONTACT_DELIVERY', configure: 'CONTACT_DELIVERY_URL' } };
    expect(() => sender.assertConfigured()).toThrow(expect.objectContaining(expected));
    await expect(sender.send()).rejects.toMatchObject(expected);
  });
});
