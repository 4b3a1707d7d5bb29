import { useCallback, useEffect, useState } from 'react';
import { Link, Route, Router, Switch, useLocation } from 'wouter';
import { useSessionSecrets } from './api/client';
import { currentSession, Principal, Session, signOut } from './api/session';
import { Loading } from './components/problem';
import { SessionContext } from './components/session-context';
import { OPERATOR_ROUTES } from './pages/operator';
import { PLATFORM_ROUTES } from './pages/platform';
import type { RouteDef } from './routes';
import { SignIn } from './sign-in';

type State = { kind: 'loading' } | { kind: 'signed-out'; notice?: string } | { kind: 'signed-in'; session: Session };

/** The console: the session decides which views exist (a platform's in one mode, or an operator's). */
export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const ended = useCallback(() => setState({ kind: 'signed-out', notice: 'Your session ended. Sign in again.' }), []);
  useEffect(() => {
    currentSession().then(
      (session) => setState({ kind: 'signed-in', session }),
      () => setState({ kind: 'signed-out' }),
    );
  }, []);
  const session = state.kind === 'signed-in' ? state.session : undefined;
  useSessionSecrets(session?.csrfToken, ended);
  if (state.kind === 'loading') return <Loading what="the console" />;
  if (state.kind === 'signed-out') return <SignIn notice={state.notice} onSignedIn={(s) => setState({ kind: 'signed-in', session: s })} />;
  const routes = routesFor(state.session.principal);
  return (
    <SessionContext.Provider value={state.session}>
      <Router base="/console">
        <Shell principal={state.session.principal} routes={routes} onSignOut={() => signOut().finally(() => setState({ kind: 'signed-out', notice: 'Signed out.' }))}>
          <Switch>
            {routes.map((r) => (
              <Route key={r.path} path={r.path} component={r.component} />
            ))}
            <Route>
              <h1>Not found</h1>
              <p>
                There is no such page in the console. <Link href="~/console">Go home</Link>.
              </p>
            </Route>
          </Switch>
        </Shell>
      </Router>
    </SessionContext.Provider>
  );
}

function routesFor(principal: Principal): RouteDef[] {
  if (principal.audience === 'operator') return OPERATOR_ROUTES;
  return PLATFORM_ROUTES.filter((r) => !r.sandboxOnly || principal.mode === 'SANDBOX');
}

function Shell({ principal, routes, onSignOut, children }: { principal: Principal; routes: RouteDef[]; onSignOut: () => void; children: React.ReactNode }) {
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location]);
  const banner =
    principal.audience === 'operator'
      ? { className: 'banner-operator', text: `Operator: ${principal.name} (${principal.role})` }
      : principal.mode === 'SANDBOX'
        ? { className: 'banner-sandbox', text: 'SANDBOX: test data, no real money moves' }
        : { className: 'banner-production', text: 'PRODUCTION: real customers and real money' };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header>
        <div className={`mode-banner ${banner.className}`} role="note" data-testid="mode-banner">
          {banner.text}
        </div>
        <nav aria-label="Account" className="container-fluid top">
          <ul>
            <li>
              <strong>payments-platform</strong>
            </li>
          </ul>
          <ul>
            <li>
              <small>
                {principal.audience === 'platform' ? (
                  <>
                    {principal.platformId} · {principal.mode} · <code>{principal.clientId}</code>
                  </>
                ) : (
                  <code>{principal.clientId}</code>
                )}
              </small>
            </li>
            <li>
              <button type="button" className="secondary outline menu-toggle" aria-expanded={menuOpen} aria-controls="side-nav" onClick={() => setMenuOpen((o) => !o)}>
                Menu
              </button>
            </li>
            <li>
              <button type="button" className="secondary" onClick={onSignOut}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <div className="layout container-fluid">
        <nav id="side-nav" aria-label="Console" className={menuOpen ? 'open' : undefined}>
          <ul>
            {routes
              .filter((r) => r.nav)
              .map((r) => (
                <li key={r.path}>
                  {/* Home is /console itself: the server serves each path under one spelling, without a trailing slash. */}
                  <Link href={r.path === '/' ? '~/console' : r.path} aria-current={isCurrent(location, r.path) ? 'page' : undefined}>
                    {r.nav}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </>
  );
}

function isCurrent(location: string, path: string): boolean {
  return path === '/' ? location === '/' : location === path || location.startsWith(`${path}/`);
}
