import { Link } from 'wouter';
import { Id } from '../../components/format';
import { ListView } from '../../components/list-view';
import type { OperatorPlatformView } from './types';

const q = (name: string, value: string) => `?${new URLSearchParams({ [name]: value }).toString()}`;

/** Every platform of the deployment, oldest first, with the ways into what the operator views hold of each. */
export function PlatformsPage() {
  return (
    <>
      <h1>Platforms</h1>
      <p>Every platform of the deployment. The operator API shows each one's id, name and creation; its credentials stay with the platform.</p>
      <ListView<OperatorPlatformView>
        path="/platforms"
        noun="platforms"
        columns={[
          { label: 'Name', field: 'name' },
          { label: 'Id', cell: (p) => <Id value={p.id} /> },
          { label: 'Created', field: 'createdAt' },
          {
            label: 'Its records',
            cell: (p) => (
              <span className="actions">
                <Link href={`/kyc-reviews${q('platformId', p.id)}`} aria-label={`KYC reviews of ${p.name}`}>
                  KYC reviews
                </Link>
                <Link href={`/account-reviews${q('platformId', p.id)}`} aria-label={`Account reviews of ${p.name}`}>
                  Account reviews
                </Link>
                <Link href={`/audit-log${q('platformId', p.id)}`} aria-label={`Audit log of ${p.name}`}>
                  Audit log
                </Link>
              </span>
            ),
          },
        ]}
      />
    </>
  );
}
