import type { ApiProblem } from '../api/client';

/** The API's error, as it said it: the message first, the code and status for support. */
export function ProblemNotice({ problem }: { problem: ApiProblem | undefined }) {
  if (!problem) return null;
  return (
    <div role="alert" className="problem">
      <strong>{problem.message}</strong>
      <small>
        {' '}
        ({problem.code}
        {problem.status ? `, HTTP ${problem.status}` : ''})
      </small>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" className="loading">
      Loading {what}…
    </p>
  );
}
