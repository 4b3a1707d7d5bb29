import type { Pool } from 'pg';

/** What the checks need of the run's database: queries (a Pool in a run, so a PostgreSQL restart under it is survived; a Client in a spec). */
export type Sql = Pick<Pool, 'query'>;
