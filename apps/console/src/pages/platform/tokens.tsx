import { useState } from 'react';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Id, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { PERMISSIONS } from '../../lib/values';

interface Token {
  id: string;
  name: string;
  clientId: string;
  clientSecret?: string;
  permissions: string[];
  createdAt?: string;
}

/** API tokens of this mode: created with the secret shown this once, listed without it, deleted (they stop at once). */
export function TokensPage() {
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<string>();
  return (
    <>
      <h1>API tokens</h1>
      <section aria-labelledby="new-token">
        <h2 id="new-token">Create a token</h2>
        <ActionForm
          submitLabel="Create token"
          fields={[
            { name: 'name', label: 'Name', required: true },
            ...PERMISSIONS.map((p) => ({ name: `permission-${p}`, label: `Permission ${p}`, type: 'checkbox' as const, defaultValue: p === 'VIEW' ? 'true' : undefined })),
          ]}
          onSubmit={async (v, { idempotencyKey }) => {
            const permissions = PERMISSIONS.filter((p) => v[`permission-${p}`] === true);
            const created = await api.post<Token>('/tokens', { name: v.name, permissions }, { idempotencyKey });
            setRound((r) => r + 1);
            return created;
          }}
          done={(result) => {
            const token = result as Token;
            return (
              <article className="shown-once" aria-labelledby="secret-heading">
                <h3 id="secret-heading">Copy the secret now: it is shown this once</h3>
                <p>
                  Client id: <code className="secret" data-testid="new-client-id">{token.clientId}</code>
                </p>
                <p>
                  Client secret: <code className="secret" data-testid="new-client-secret">{token.clientSecret}</code>
                </p>
                <p>Only its hash is kept: if it is lost, delete this token and create another.</p>
              </article>
            );
          }}
        />
      </section>
      <section aria-labelledby="tokens">
        <h2 id="tokens">Tokens</h2>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        <ListView<Token>
          key={round}
          path="/tokens"
          noun="tokens"
          columns={[
            { label: 'Token', cell: (t) => <Id value={t.id} /> },
            { label: 'Name', field: 'name' },
            { label: 'Client id', cell: (t) => <code className="id">{t.clientId}</code> },
            { label: 'Permissions', cell: (t) => t.permissions.join(', ') },
            { label: 'Created', cell: (t) => <Time iso={t.createdAt} /> },
            {
              label: 'Delete',
              cell: (t) => (
                <button
                  type="button"
                  className="secondary outline"
                  aria-label={`Delete token ${t.name}`}
                  onClick={async () => {
                    if (!window.confirm(`Delete the token "${t.name}"? Clients using it stop working at once.`)) return;
                    setProblem(undefined);
                    try {
                      await api.delete(`/tokens/${encodeURIComponent(t.id)}`);
                      setRound((r) => r + 1);
                    } catch (error) {
                      setProblem(error instanceof Error ? error.message : String(error));
                    }
                  }}
                >
                  Delete
                </button>
              ),
            },
          ]}
        />
      </section>
    </>
  );
}
