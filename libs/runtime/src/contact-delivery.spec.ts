import { createServer, Server } from 'node:http';
import { HttpContactCodeSender } from './contact-delivery';
import { EgressClient } from './egress';

/**
 * Production contact codes go out through the egress client like webhooks: a gateway on a loopback address (here a
 * real server on 127.0.0.1, the only address this test connects to) is refused unless EGRESS_ALLOW_PRIVATE_NETWORKS
 * allows it, and a redirect is not followed.
 */
describe('HttpContactCodeSender', () => {
  let server: Server;
  let url: string;
  const received: string[] = [];
  const message = { customerId: 'Customer:1', channel: 'email' as const, destination: 'a@example.com', code: '482913', purpose: 'CONTACT_VERIFICATION' as const };

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.url ?? '');
      if (req.url === '/moved') res.writeHead(302, { location: '/send' }).end();
      else res.writeHead(202).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (received.length = 0));

  it('refuses a gateway on a private address by default: 503, nothing sent', async () => {
    const egress = new EgressClient({ allowPrivateNetworks: false });
    await expect(new HttpContactCodeSender(`${url}/send`, egress).send(message)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(new HttpContactCodeSender(url.replace('127.0.0.1', 'localhost') + '/send', egress).send(message)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(received).toEqual([]);
  });

  it('delivers to it with EGRESS_ALLOW_PRIVATE_NETWORKS=true, and takes a redirect as a refusal', async () => {
    const egress = new EgressClient({ allowPrivateNetworks: true });
    await new HttpContactCodeSender(`${url}/send`, egress).send(message);
    expect(received).toEqual(['/send']);
    await expect(new HttpContactCodeSender(`${url}/moved`, egress).send(message)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(received).toEqual(['/send', '/moved']);
  });
});
