import { FormEvent, useState } from 'react';
import type { ApiProblem } from './api/client';
import { Session, signIn } from './api/session';
import { ProblemNotice } from './components/problem';
import { asProblem } from './components/use-api';

/** Sign-in with API credentials (a platform's, sandbox or production) or an operator's; nothing is kept in the browser. */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (session: Session) => void; notice?: string }) {
  const [audience, setAudience] = useState<'platform' | 'operator'>('platform');
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(undefined);
    try {
      onSignedIn(await signIn(audience, String(data.get('clientId') ?? '').trim(), String(data.get('clientSecret') ?? '')));
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="container sign-in">
      <h1>payments-platform console</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={submit}>
        <fieldset>
          <legend>Sign in with</legend>
          <label>
            <input type="radio" name="audience" value="platform" checked={audience === 'platform'} onChange={() => setAudience('platform')} /> Platform API credentials (sandbox or production)
          </label>
          <label>
            <input type="radio" name="audience" value="operator" checked={audience === 'operator'} onChange={() => setAudience('operator')} /> Operator credentials (<code>op_…</code>)
          </label>
        </fieldset>
        <label htmlFor="clientId">
          Client id
          <input id="clientId" name="clientId" required autoComplete="username" />
        </label>
        <label htmlFor="clientSecret">
          Client secret
          <input id="clientSecret" name="clientSecret" type="password" required autoComplete="current-password" />
        </label>
        <ProblemNotice problem={problem} />
        <button type="submit" aria-busy={busy} disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        <small>
          <code>npm start</code> prints sandbox credentials; <code>npm run admin -- operator:create --name NAME --role ADMIN</code> makes an operator. The
          secret is sent once, over this page's connection, and kept only on the server for the length of the session.
        </small>
      </p>
    </main>
  );
}
