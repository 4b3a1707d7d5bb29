import { useParams } from 'wouter';
import { decodedParam } from '../lib/route-param';

/** A detail page's id from its route (`/cards/:cardId` → `useRouteParam('cardId')`), decoded as the API knows it. */
export function useRouteParam(name: string): string {
  return decodedParam(useParams<Record<string, string>>()[name]);
}
