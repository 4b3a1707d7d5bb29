import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { basicAuth, eventually, http } from '@payments/testing';
import { checkPage, launchChromium, SCREENSHOTS } from './browser';
import { Credential, PlatformProcess, startPlatformProcess } from './platform-process';
import { WebhookEndpoint } from './webhook-endpoint';

/**
 * The console as a person uses it: `npm start`'s process (built), Debian's Chromium driven by Playwright, a webhook
 * endpoint on loopback. Every page visited is screenshotted into test-output/console and checked with axe-core.
 * The steps run in order and share the browser: a later one starts where the earlier one left the platform.
 */
describe('console in a real browser', () => {
  let platform: PlatformProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const endpoint = new WebhookEndpoint();
  const cspViolations: string[] = [];
  const state: { customerId?: string; internalId?: string; externalId?: string; transactionId?: string; operators?: { alice: Credential; bob: Credential; admin: Credential } } = {};

  beforeAll(async () => {
    await endpoint.start();
    // Sandbox rails settle in milliseconds rather than seconds; webhooks may go to loopback (the endpoint above).
    platform = await startPlatformProcess({ SANDBOX_TIME_SCALE: '0.01', EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Paris' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => m.text().includes('Content Security Policy') && cspViolations.push(m.text()));
    page.on('dialog', (d) => void d.accept());
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await endpoint.stop();
  }, 60_000);

  const go = (path: string) => page.goto(`${platform.origin}${path}`);
  /** A link of the console's navigation (pages also link to some of the same places). */
  const nav = (name: string) => page.locator('#side-nav').getByRole('link', { name, exact: true });
  const signIn = async (kind: 'platform' | 'operator', credential: Credential) => {
    await go('/console');
    await page.getByLabel(kind === 'operator' ? 'Operator credentials' : 'Platform API credentials').check();
    await page.getByLabel('Client id').fill(credential.clientId);
    await page.getByLabel('Client secret').fill(credential.clientSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('mode-banner').waitFor();
  };
  const signOut = async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  };
  /** Clicks the page's Refresh until `text` shows (what a person waiting for an asynchronous outcome does). */
  const untilShown = async (text: string | RegExp, where = page.locator('main'), refresh?: () => Promise<unknown>) =>
    eventually(
      async () => {
        if (await where.getByText(text).first().isVisible()) return true;
        await refresh?.();
        return false;
      },
      { timeoutMs: 30_000, intervalMs: 1_000, what: `"${text}" on ${page.url()}` },
    ).catch(async (error: unknown) => {
      await page.screenshot({ path: join(SCREENSHOTS, `failed-${Date.now()}.png`), fullPage: true });
      throw error;
    });

  it('GET / says what this is and links the console, the API references and health', async () => {
    const res = await go('/');
    expect(res!.headers()['content-security-policy']).toContain("default-src 'none'");
    for (const name of ['Console', 'API reference', 'Operator API reference']) await expect(page.getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    await checkPage(page, '01-landing');
  });

  it('refuses a wrong secret with the API’s message, then signs in with sandbox credentials: HttpOnly SameSite=Strict cookie, nothing in storage', async () => {
    const res = await go('/console');
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await checkPage(page, '02-sign-in');
    await page.getByLabel('Client id').fill(platform.sandbox.clientId);
    await page.getByLabel('Client secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('UNAUTHORIZED');
    await signIn('platform', platform.sandbox);
    await expect(page.getByTestId('mode-banner').textContent()).resolves.toContain('SANDBOX');
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const stored = await page.evaluate(() => {
      const { localStorage, sessionStorage } = globalThis as unknown as Record<string, object>;
      return JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    });
    expect(stored).not.toContain(platform.sandbox.clientSecret);
    expect(stored).not.toContain(cookie.value);
    await checkPage(page, '03-home-sandbox');
  });

  it('points the webhooks at the endpoint and sends a test webhook', async () => {
    await nav('Webhooks').click();
    await page.getByLabel('Webhook endpoint URL').fill(endpoint.url);
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Send a test webhook' }).click();
    await page.getByText('The endpoint answered HTTP 200.').waitFor();
    await expect(page.getByTestId('webhook-public-key').textContent()).resolves.toContain('BEGIN PUBLIC KEY');
    expect(endpoint.received.some((w) => w.type === 'TEST')).toBe(true);
    await checkPage(page, '04-webhooks');
  });

  it('creates a customer, submits it and sees it approved (the sandbox decides)', async () => {
    await nav('Customers').click();
    await checkPage(page, '05-customers');
    await page.getByRole('link', { name: 'New customer' }).click();
    await page.getByLabel('Full name (individual)').fill('Ada Lovelace');
    await page.getByLabel('Your customer id').fill('ada-console');
    await page.getByLabel('Birth date (individual)').fill('1815-12-10');
    await page.getByLabel('Nationality (individual)').fill('GB');
    await page.getByLabel('Address line 1').fill('12 St James Square');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Postal code').fill('SW1Y 4JH');
    await page.getByLabel('Country').fill('GB');
    await checkPage(page, '06-customer-new');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.waitForURL(/\/console\/customers\/Customer/);
    state.customerId = decodeURIComponent(page.url().split('/customers/')[1]);
    await page.getByRole('button', { name: 'Submit for verification' }).click();
    await untilShown('APPROVED', page.locator('section', { has: page.getByRole('heading', { name: 'KYC/KYB' }) }), () => page.reload());
    await checkPage(page, '07-customer');
  });

  it('adds an external account and waits for it to be ACTIVE', async () => {
    await go('/console/external-accounts/new');
    await page.getByLabel('Customer id').fill(state.customerId!);
    await page.getByLabel('Account number (US bank)').fill('4400123000');
    await page.getByLabel('Bank name').fill('Test Bank');
    await page.getByLabel('Beneficiary full name').fill('Ada Lovelace');
    await page.getByLabel('Beneficiary address line 1').fill('1 Main St');
    await page.getByLabel('Beneficiary city').fill('Springfield');
    await page.getByLabel('Beneficiary postal code').fill('12345');
    await page.getByRole('button', { name: 'Add external account' }).click();
    await page.waitForURL(/external-accounts\?customerId=/);
    await untilShown('ACTIVE', page.locator('main table').first(), () => page.getByRole('button', { name: 'Refresh' }).first().click());
    state.externalId = (await page.locator('main table').first().locator('tbody tr code.id').first().textContent())!;
    await checkPage(page, '08-external-accounts');
  });

  it('funds the customer’s account in the sandbox tools', async () => {
    await nav('Sandbox tools').click();
    await page.getByLabel('Amount (in the account currency)').fill('100.00');
    await page.getByRole('button', { name: 'Fund account' }).click();
    await page.getByText('Funded: the balance is now 100.00 USD.').waitFor();
    await checkPage(page, '09-sandbox-tools');
  });

  it('sends a transfer out, watches it complete and its webhook delivered', async () => {
    await nav('New transfer').click();
    await page.getByRole('combobox', { name: /^Internal account/ }).selectOption({ index: 1 });
    await page.getByRole('combobox', { name: /^External account/ }).selectOption(state.externalId!);
    await page.getByLabel(/^Amount/).fill('25.00');
    state.internalId = await page.getByRole('combobox', { name: /^Internal account/ }).inputValue();
    await checkPage(page, '10-transfer-new');
    await page.getByRole('button', { name: 'Send transfer' }).click();
    await page.waitForURL(/\/console\/transactions\/Transaction/);
    state.transactionId = decodeURIComponent(page.url().split('/transactions/')[1]);
    const webhooks = page.locator('section', { has: page.getByRole('heading', { name: 'Webhooks about it' }) });
    await untilShown('COMPLETED', page.getByTestId('transaction-status')); // the page follows a pending transaction by itself
    await untilShown('DELIVERED', webhooks);
    expect(endpoint.about(state.transactionId).length).toBeGreaterThan(0);
    await expect(page.locator('main').textContent()).resolves.toContain('25.00 USD');
    await checkPage(page, '11-transaction');
    await nav('Transactions').click();
    await page.getByRole('link', { name: state.transactionId }).waitFor();
    await checkPage(page, '12-transactions');
  });

  it('a transfer whose answer was lost on the way, sent again from the same form, is one transfer', async () => {
    const sandbox = basicAuth(platform.sandbox.clientId, platform.sandbox.clientSecret);
    const count = async () => (await http('GET', `${platform.origin}/2025-10-13/transactions?customerId=${encodeURIComponent(state.customerId!)}&limit=100`, { auth: sandbox })).body.data.length;
    const before = await count();
    await nav('New transfer').click();
    await page.getByRole('combobox', { name: /^Internal account/ }).selectOption(state.internalId!);
    await page.getByRole('combobox', { name: /^External account/ }).selectOption(state.externalId!);
    await page.getByLabel(/^Amount/).fill('7.00');
    // The server does the transfer; its answer never reaches the browser (a dropped connection).
    let lost = 0;
    await page.route('**/console/api/transfer-out', async (route) => {
      if (lost++ > 0) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Send transfer' }).click();
    await page.getByRole('alert').filter({ hasText: 'could not be reached' }).waitFor();
    expect(await count()).toBe(before + 1);
    await page.getByRole('button', { name: 'Send transfer' }).click(); // the person tries again
    await page.waitForURL(/\/console\/transactions\/Transaction/);
    await page.unroute('**/console/api/transfer-out');
    expect(await count()).toBe(before + 1);
  });

  it('a delivery the endpoint refuses is dead-lettered; once the endpoint is fixed, Redeliver delivers it', async () => {
    endpoint.status = 410; // gone: the dispatcher gives up at once
    await nav('New transfer').click();
    await page.getByRole('combobox', { name: /^Internal account/ }).selectOption({ index: 1 });
    await page.getByRole('combobox', { name: /^External account/ }).selectOption(state.externalId!);
    await page.getByLabel(/^Amount/).fill('5.00');
    await page.getByRole('button', { name: 'Send transfer' }).click();
    await page.waitForURL(/\/console\/transactions\/Transaction/);
    const failedTx = decodeURIComponent(page.url().split('/transactions/')[1]);
    const webhooks = page.locator('section', { has: page.getByRole('heading', { name: 'Webhooks about it' }) });
    // The first webhook about it met the 410; those after it dead-letter unsent (the endpoint is disabled).
    await untilShown('HTTP 410', webhooks, () => page.getByRole('button', { name: 'Refresh' }).first().click());
    const before = endpoint.about(failedTx).length;
    await webhooks.locator('tr', { hasText: 'HTTP 410' }).first().getByRole('link').click();
    await page.getByText('DEAD_LETTER').first().waitFor();
    const delivery = page.url();
    // 410 disabled the endpoint: the webhooks page says so, and saving it again turns it back on.
    endpoint.status = 200;
    await nav('Webhooks').click();
    await page.getByText('The endpoint answered 410 Gone and is disabled').waitFor();
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByText('Saved.').waitFor();
    await page.goto(delivery);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await untilShown('DELIVERED', page.locator('main dl'), () => page.getByRole('button', { name: 'Refresh' }).click());
    expect(endpoint.about(failedTx).length).toBe(before + 1);
    await checkPage(page, '13-webhook-delivery');
  });

  it('creates a token (its secret shown once, and it works), then deletes it (and it stops working)', async () => {
    await nav('API tokens').click();
    await page.getByLabel('Name').fill('console-made');
    await page.getByRole('button', { name: 'Create token' }).click();
    const clientId = (await page.getByTestId('new-client-id').textContent())!;
    const secret = (await page.getByTestId('new-client-secret').textContent())!;
    const config = () => http('GET', `${platform.origin}/2025-10-13/config`, { auth: basicAuth(clientId, secret) });
    expect((await config()).status).toBe(200);
    await page.getByRole('cell', { name: clientId }).waitFor();
    await checkPage(page, '14-tokens');
    await page.reload();
    await expect(page.locator('main').textContent()).resolves.not.toContain(secret); // shown once
    await page.getByRole('button', { name: 'Delete token console-made' }).click();
    await page.getByRole('cell', { name: clientId }).waitFor({ state: 'detached' });
    expect((await config()).status).toBe(401);
  });

  it('issues a card to the approved customer and runs a card network simulation on it', async () => {
    await nav('Cards').click();
    await page.getByLabel('Cardholder customer id').fill(state.customerId!);
    await page.getByLabel('Funding source internal account ids').fill(state.internalId!);
    await page.getByRole('button', { name: 'Issue card' }).click();
    await page.waitForURL(/\/console\/cards\/Card/);
    await untilShown('ACTIVE', page.locator('main dl').first(), () => page.reload());
    await page.getByLabel(/^Amount/).fill('4.50');
    await page.getByRole('button', { name: 'Run simulation' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'card transaction' });
    await untilShown(/AUTHORIZED|SETTLED/, outcome);
    await expect(outcome.textContent()).resolves.toContain('authorization');
    await checkPage(page, '15-card-simulation');
  });

  it('every platform page is usable and clean: navigation, axe, and the phone width', async () => {
    const links = await page.locator('#side-nav a').evaluateAll((as) => as.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '']));
    for (const [label, href] of links) {
      await go(href);
      await page.locator('h1').first().waitFor();
      await checkPage(page, `20-platform-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const path of ['/console', '/console/transactions', `/console/transactions/${encodeURIComponent(state.transactionId!)}`]) {
        await go(path);
        await page.locator('h1').first().waitFor();
        await expect(page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
      }
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('#side-nav').getByRole('link', { name: 'Customers' }).waitFor();
      await checkPage(page, '21-phone-menu');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('production: the mode is shown, a customer submitted waits for the operators', async () => {
    await signOut();
    await signIn('platform', platform.production);
    await expect(page.getByTestId('mode-banner').textContent()).resolves.toContain('PRODUCTION');
    await page.getByRole('link', { name: 'Sandbox tools' }).waitFor({ state: 'detached' });
    await checkPage(page, '30-home-production');
    // A production customer needs a UMA address or the platform's umaDomain: the form says so, in the API's words.
    await go('/console/customers/new');
    await page.getByLabel('Full name (individual)').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('set umaDomain in the platform configuration');
    await nav('Configuration').click();
    await page.getByLabel('Fields to change, as JSON').fill('{"umaDomain": "console.example.com"}');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await go('/console/customers/new');
    await page.getByLabel('Full name (individual)').fill('Grace Hopper');
    await page.getByLabel('Birth date (individual)').fill('1990-12-10');
    await page.getByLabel('Nationality (individual)').fill('US');
    await page.getByLabel('Address line 1').fill('1 Main St');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('State or region').fill('IL');
    await page.getByLabel('Postal code').fill('62701');
    await page.getByLabel('Country').fill('US');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.waitForURL(/\/console\/customers\/Customer/);
    state.customerId = decodeURIComponent(page.url().split('/customers/')[1]);
    await page.getByRole('button', { name: 'Submit for verification' }).click();
    await page.getByText('PENDING_MANUAL_REVIEW').first().waitFor();
    await checkPage(page, '31-customer-production-submitted');
  });

  it('two reviewers approve it in the KYC queue (four-eyes), and the platform sees it APPROVED', async () => {
    state.operators = {
      alice: await platform.createOperator('Alice', 'REVIEWER'),
      bob: await platform.createOperator('Bob', 'REVIEWER'),
      admin: await platform.createOperator('Olive', 'ADMIN'),
    };
    for (const [who, after] of [
      ['alice', 'AWAITING_SECOND_APPROVAL'],
      ['bob', 'APPROVED'],
    ] as const) {
      await signOut();
      await signIn('operator', state.operators[who]);
      await nav('KYC/KYB reviews').click();
      await page.getByRole('link', { name: /^Verification:/ }).first().click();
      await page.getByText(state.customerId!).first().waitFor();
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await untilShown(after, page.locator('main'), () => page.reload());
      await checkPage(page, `32-kyc-review-${who}`);
    }
    await signOut();
    await signIn('platform', platform.production);
    await go(`/console/customers/${encodeURIComponent(state.customerId!)}`);
    await untilShown('APPROVED', page.locator('section', { has: page.getByRole('heading', { name: 'KYC/KYB' }) }), () => page.reload());
  });

  it('every operator page is usable and clean', async () => {
    await signOut();
    await signIn('operator', state.operators!.admin);
    await expect(page.getByTestId('mode-banner').textContent()).resolves.toContain('Operator: Olive (ADMIN)');
    const links = await page.locator('#side-nav a').evaluateAll((as) => as.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '']));
    expect(links.length).toBeGreaterThan(5);
    for (const [label, href] of links) {
      await go(href);
      await page.locator('h1').first().waitFor();
      await checkPage(page, `40-operator-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
  });

  it('signing out ends the session on the server: the old cookie opens nothing', async () => {
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'console_session');
    await signOut();
    const stale = await http('GET', `${platform.origin}/console/api/me`, { headers: { cookie: `console_session=${cookie.value}` } });
    expect(stale.status).toBe(401);
    expect(cspViolations).toEqual([]);
    // Where the pictures are, for whoever reads the run's output.
    process.stdout.write(`console screenshots: ${SCREENSHOTS}\n`);
  });
});
