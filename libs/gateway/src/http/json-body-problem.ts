import type { FieldError } from '@payments/contracts';
import { printable, textProblem } from './text-problem';

/** Far beyond any request DTO (they nest a handful of levels), far below what recursive code downstream survives. */
export const JSON_DEPTH_MAX = 64;
/** No operation takes a list anywhere near this long; the body limit alone would allow ~500,000 elements. */
export const JSON_ARRAY_LENGTH_MAX = 10_000;

interface Node {
  value: unknown;
  depth: number;
  parent?: Node;
  key?: string;
}

/**
 * The first thing in a parsed JSON body the services must never see: nesting deeper than JSON_DEPTH_MAX, an array
 * longer than JSON_ARRAY_LENGTH_MAX, or a string or object key that is not storable text (textProblem). An explicit
 * stack rather than recursion, so a body nested 100,000 levels (JSON.parse handles that) cannot overflow it; the walk
 * stops at the depth bound anyway. Fields are dot paths, as the validation pipe names them.
 */
export function jsonBodyProblem(body: unknown): FieldError | undefined {
  const stack: Node[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { field: fieldOf(node), ...problem, message: `${fieldOf(node)} ${problem.message}` };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= JSON_DEPTH_MAX) {
      return { field: fieldOf(node), message: `the request body is nested deeper than ${JSON_DEPTH_MAX} levels`, constraint: { maxDepth: JSON_DEPTH_MAX } };
    }
    if (Array.isArray(value)) {
      if (value.length > JSON_ARRAY_LENGTH_MAX) {
        return { field: fieldOf(node), message: `${fieldOf(node)} has more than ${JSON_ARRAY_LENGTH_MAX} elements`, constraint: { maxArrayLength: JSON_ARRAY_LENGTH_MAX } };
      }
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: node, key: String(i) });
      continue;
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const problem = textProblem(key);
      if (problem) {
        const field = fieldOf({ value: undefined, depth, parent: node, key: printable(key) });
        return { field, ...problem, message: `the field name ${field} ${problem.message}` };
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]], depth: depth + 1, parent: node, key: keys[i] });
  }
  return undefined;
}

/** The dot path of a node (`address.line1`, `items.3`); `body` for the body itself. Built only for the answer. */
function fieldOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.push(n.key);
  return keys.length === 0 ? 'body' : keys.reverse().join('.');
}
