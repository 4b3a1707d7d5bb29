import { CallerContext, ListCustomersQuery } from '@payments/contracts';
import { SqlWhere } from '@payments/runtime';

/** GET /customers filters as SQL over the read model, always scoped to the caller's platform and mode. */
export function customerListFilters(caller: CallerContext, query: ListCustomersQuery): SqlWhere {
  return new SqlWhere()
    .add('platform_id = ?', caller.platformId)
    .add('mode = ?', caller.mode)
    .add(query.isIncludingDeleted === 'true' ? 'TRUE' : 'deleted_at IS NULL')
    .add('platform_customer_id = ?', query.platformCustomerId)
    .add('customer_type = ?', query.customerType)
    .add('region = ?', query.region)
    .add('? = ANY(currencies)', query.currency)
    .add('lower(uma_address) = lower(?)', query.umaAddress)
    .add('created_at > ?', query.createdAfter)
    .add('created_at < ?', query.createdBefore)
    .add('updated_at > ?', query.updatedAfter)
    .add('updated_at < ?', query.updatedBefore);
}
