import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { HttpResult } from '@payments/testing';

/**
 * Holds every e2e response to the OpenAPI documents the gateway serves (GET /openapi.json and /operator/v1/openapi.json at its origin): a response
 * to a documented operation must have a documented status, and a JSON body must validate against that status's
 * schema. Anything else throws, naming the request, the status, what did not validate and the body, so the test
 * that made the call fails. Routes the document does not describe (the hosted KYC page, ops endpoints, unknown
 * paths, undocumented methods) and non-JSON bodies are not checked. With OPENAPI_CONFORMANCE=report, violations
 * are written to stderr instead of thrown, to survey every one of them in a single run.
 */
export interface ResponseConformance {
  check(method: string, url: string, result: HttpResult): Promise<void>;
}

type Json = Record<string, unknown>;

interface Operation {
  template: string;
  pattern: RegExp;
  /** Literal segments before the first parameter, so `/customers/external-accounts` wins over `/customers/{customerId}`. */
  specificity: number[];
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

interface CompiledDocument {
  /** By method (upper case): the operations, most specific path first. */
  operations: Map<string, Operation[]>;
  validators: Map<string, ValidateFunction | null>;
  ajv: Ajv2020;
}

const DOCUMENT_ID = 'https://conformance.local/openapi.json';
/** The platform API's document and the operator API's: every operation of either is held to its own document. */
const OPENAPI_PATHS = ['/openapi.json', '/operator/v1/openapi.json'];
const BODY_EXCERPT_MAX = 2_000;

/** Documents are fetched once per gateway origin and compiled once per distinct content (restarts move the port). */
const byOrigin = new Map<string, Promise<CompiledDocument[]>>();
const byContent = new Map<string, CompiledDocument>();

export function responseConformance(): ResponseConformance {
  const reportOnly = process.env.OPENAPI_CONFORMANCE === 'report';
  return {
    async check(method, url, result) {
      try {
        await conform(method, url, result);
      } catch (error) {
        if (!reportOnly || !(error instanceof Error) || !error.message.startsWith('OpenAPI conformance')) throw error;
        process.stderr.write(`${error.message}\n`);
      }
    },
  };
}

async function conform(method: string, url: string, result: HttpResult): Promise<void> {
  const target = new URL(url);
  let document: CompiledDocument | undefined;
  let operation: Operation | undefined;
  for (const candidate of await documentsOf(target.origin)) {
    operation = (candidate.operations.get(method.toUpperCase()) ?? []).find((op) => op.pattern.test(target.pathname));
    document = candidate;
    if (operation) break;
  }
  if (!operation || !document) return;
  const where = `${method.toUpperCase()} ${target.pathname}${target.search} (${operation.template})`;
  const response = operation.responses[String(result.status)] ?? operation.responses[`${String(result.status)[0]}XX`] ?? operation.responses.default;
  if (!response) {
    const documented = Object.keys(operation.responses).join(', ');
    throw new Error(`OpenAPI conformance: ${where} answered ${result.status}, which the operation does not document (documented: ${documented}). Body: ${excerpt(result.body)}`);
  }
  const contentType = result.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(contentType) || result.body === undefined || typeof result.body === 'string') return;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    throw new Error(`OpenAPI conformance: ${where} answered ${result.status} with a JSON body, but the document declares no body for it. Body: ${excerpt(result.body)}`);
  }
  const validate = validatorOf(document, `${method.toUpperCase()} ${operation.template} ${result.status}`, schema);
  if (validate && !validate(result.body)) {
    throw new Error(
      `OpenAPI conformance: the ${result.status} body of ${where} does not match the document:\n${describe(validate.errors ?? [])}\nBody: ${excerpt(result.body)}`,
    );
  }
}

function documentsOf(origin: string): Promise<CompiledDocument[]> {
  let pending = byOrigin.get(origin);
  if (!pending) {
    pending = Promise.all(OPENAPI_PATHS.map((path) => load(origin, path))).then((documents) => documents.filter((d): d is CompiledDocument => d !== null));
    byOrigin.set(origin, pending);
    pending.catch(() => byOrigin.delete(origin)); // a failed fetch is retried by the next call
  }
  return pending;
}

async function load(origin: string, path: string): Promise<CompiledDocument | null> {
  const response = await fetch(`${origin}${path}`);
  if (response.status === 404) return null; // not a gateway: nothing to hold it to
  if (!response.ok) throw new Error(`OpenAPI conformance: GET ${origin}${path} answered ${response.status}`);
  const text = await response.text();
  let compiled = byContent.get(text);
  if (!compiled) {
    compiled = compile(JSON.parse(text) as Json);
    byContent.set(text, compiled);
  }
  return compiled;
}

function compile(document: Json): CompiledDocument {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const format of formatsIn(document)) if (!ajv.formats[format]) ajv.addFormat(format, true); // unknown formats: annotations only
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });

  const servers = (document.servers as { url?: string }[] | undefined) ?? [];
  const base = serverPath(servers[0]?.url);
  const operations = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const full = `${base}${template}`;
    const segments = full.split('/').filter(Boolean);
    // As the gateway routes: one spelling, no trailing slash (a path with one is an unknown route, not this operation).
    const pattern = new RegExp(`^/${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : escapeRegExp(s))).join('/')}$`);
    const specificity = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? 0 : 1));
    for (const [method, operation] of Object.entries(item)) {
      const responses = (operation as Json | undefined)?.responses;
      if (!responses || typeof responses !== 'object') continue; // `parameters`, `summary`... of the path item
      const list = operations.get(method.toUpperCase()) ?? [];
      list.push({ template, pattern, specificity, responses: responses as Operation['responses'] });
      operations.set(method.toUpperCase(), list);
    }
  }
  for (const list of operations.values()) list.sort((a, b) => compareSpecificity(b.specificity, a.specificity));
  return { operations, validators: new Map(), ajv };
}

/** `/2025-10-13` of `servers[0].url`, absolute or relative; '' without servers (paths then carry the prefix). */
function serverPath(url: string | undefined): string {
  if (!url) return '';
  return new URL(url, 'http://server.local').pathname.replace(/\/$/, '');
}

function compareSpecificity(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

function validatorOf(document: CompiledDocument, key: string, schema: Json): ValidateFunction | null {
  if (!document.validators.has(key)) document.validators.set(key, document.ajv.compile(intoDocument(schema) as Json));
  return document.validators.get(key) ?? null;
}

/** A response schema's local `$ref`s (`#/components/schemas/X`) pointed at the document registered with ajv. */
function intoDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(intoDocument);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : intoDocument(value)]),
  );
}

function formatsIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => formatsIn(item, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') found.add(value);
      else formatsIn(value, found);
    }
  }
  return found;
}

function describe(errors: ErrorObject[]): string {
  return errors
    .slice(0, 20)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} [${e.schemaPath.replace(DOCUMENT_ID, '')}]`)
    .join('\n');
}

function excerpt(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined) return '(none)';
  return text.length > BODY_EXCERPT_MAX ? `${text.slice(0, BODY_EXCERPT_MAX)}… (${text.length} characters)` : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
