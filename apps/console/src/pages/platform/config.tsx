import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { KeyValues } from '../../components/format';
import { LoadedView } from '../../components/loaded-view';
import { useApi } from '../../components/use-api';

/** The platform's configuration in this mode, and a change of any of its fields as JSON (PATCH: only what is sent changes). */
export function ConfigPage() {
  const config = useApi<Record<string, unknown>>('/config');
  return (
    <>
      <h1>Configuration</h1>
      <LoadedView loaded={config} what="the configuration">
        {(data) => <KeyValues data={data} />}
      </LoadedView>
      <h2>Change</h2>
      <ActionForm
        submitLabel="Save changes"
        fields={[{ name: 'patch', label: 'Fields to change, as JSON', type: 'textarea', required: true, placeholder: '{"umaDomain": "pay.example.com"}' }]}
        onSubmit={async (v) => {
          let body: unknown;
          try {
            body = JSON.parse(String(v.patch));
          } catch {
            throw new Error('that is not valid JSON');
          }
          const updated = await api.patch('/config', body);
          config.reload();
          return updated;
        }}
        done={() => <p>Saved.</p>}
      />
    </>
  );
}
