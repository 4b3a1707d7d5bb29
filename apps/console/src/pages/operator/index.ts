import type { RouteDef } from '../../routes';
import { AccountReviewDetailPage, AccountReviewsPage, VerificationMethodsPage } from './account-reviews';
import { AuditLogPage } from './audit-log';
import { FeesPage } from './fees';
import { KycReviewDetailPage, KycReviewsPage } from './kyc-reviews';
import { LedgerChecksPage } from './ledger-checks';
import { OperatorHomePage } from './home';
import { PlatformsPage } from './platforms';
import { RailExceptionsPage, RailFileDetailPage, RailsPage } from './rails';
import { RatesPage } from './rates';

/** The views of operator credentials, in the navigation's order. */
export const OPERATOR_ROUTES: RouteDef[] = [
  { path: '/', component: OperatorHomePage, nav: 'Overview' },
  { path: '/kyc-reviews', component: KycReviewsPage, nav: 'KYC/KYB reviews' },
  { path: '/kyc-reviews/:verificationId', component: KycReviewDetailPage },
  { path: '/account-reviews', component: AccountReviewsPage, nav: 'Account verification' },
  { path: '/account-reviews/:accountId', component: AccountReviewDetailPage },
  { path: '/verification-methods', component: VerificationMethodsPage, nav: 'Verification methods' },
  { path: '/rails', component: RailsPage, nav: 'Rail files' },
  { path: '/rails/files/:fileId', component: RailFileDetailPage },
  { path: '/rails/exceptions', component: RailExceptionsPage, nav: 'Rail exceptions' },
  { path: '/rates', component: RatesPage, nav: 'Rates' },
  { path: '/fees', component: FeesPage, nav: 'Fees' },
  { path: '/ledger-checks', component: LedgerChecksPage, nav: 'Ledger checks' },
  { path: '/platforms', component: PlatformsPage, nav: 'Platforms' },
  { path: '/audit-log', component: AuditLogPage, nav: 'Audit log' },
];
