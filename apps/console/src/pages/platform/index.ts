import type { RouteDef } from '../../routes';
import { AccountsPage, ExternalAccountNewPage, ExternalAccountsPage } from './accounts';
import { AgentDetailPage, AgentsPage, ApprovalsPage } from './agents';
import { CardDetailPage, CardsPage } from './cards';
import { ConfigPage } from './config';
import { CustomerDetailPage, CustomerNewPage, CustomersPage } from './customers';
import { HomePage } from './home';
import { QuoteDetailPage, QuotesPage } from './quotes';
import { SandboxPage } from './sandbox';
import { TokensPage } from './tokens';
import { TransactionDetailPage, TransactionsPage, TransferNewPage } from './transactions';
import { WebhookDeliveryPage, WebhooksPage } from './webhooks';

/** The views of platform credentials, in the navigation's order. */
export const PLATFORM_ROUTES: RouteDef[] = [
  { path: '/', component: HomePage, nav: 'Home' },
  { path: '/customers', component: CustomersPage, nav: 'Customers' },
  { path: '/customers/new', component: CustomerNewPage },
  { path: '/customers/:customerId', component: CustomerDetailPage },
  { path: '/accounts', component: AccountsPage, nav: 'Internal accounts' },
  { path: '/external-accounts', component: ExternalAccountsPage, nav: 'External accounts' },
  { path: '/external-accounts/new', component: ExternalAccountNewPage },
  { path: '/transactions', component: TransactionsPage, nav: 'Transactions' },
  { path: '/transactions/:transactionId', component: TransactionDetailPage },
  { path: '/transfers/new', component: TransferNewPage, nav: 'New transfer' },
  { path: '/quotes', component: QuotesPage, nav: 'Quotes' },
  { path: '/quotes/:quoteId', component: QuoteDetailPage },
  { path: '/cards', component: CardsPage, nav: 'Cards' },
  { path: '/cards/:cardId', component: CardDetailPage },
  { path: '/agents', component: AgentsPage, nav: 'Agents' },
  { path: '/agents/:agentId', component: AgentDetailPage },
  { path: '/approvals', component: ApprovalsPage, nav: 'Approvals' },
  { path: '/webhooks', component: WebhooksPage, nav: 'Webhooks' },
  { path: '/webhooks/:webhookId', component: WebhookDeliveryPage },
  { path: '/tokens', component: TokensPage, nav: 'API tokens' },
  { path: '/config', component: ConfigPage, nav: 'Configuration' },
  { path: '/sandbox', component: SandboxPage, nav: 'Sandbox tools', sandboxOnly: true },
];
