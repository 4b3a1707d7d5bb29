import type { EventEnvelope } from './envelope';

/**
 * `public`: the event leaves its service (its topic carries it, in its public form; consumers and the documentation
 * in docs/events/ build on it). `internal`: it stays in the service's log (saga steps, bookkeeping, secrets).
 */
export type EventVisibility = 'public' | 'internal';

/** The services that write events; each one's topic is `payments.<service>.events.v1`. */
export type EventService = 'identity' | 'accounts' | 'quoting' | 'payments' | 'webhooks' | 'wallet-auth' | 'cards' | 'agents';

/** The topic of a service's public events (the same naming as the bus's serviceTopic, DESIGN §5). */
export const eventTopicOf = (service: EventService): string => `payments.${service}.events.v1`;

/**
 * The public data of an event, by the name of its TypeScript declaration (exported from libs/contracts): the type
 * gives consumers their typing, the name gives tools/contracts its JSON Schema. `T` is carried by the type only.
 */
export interface DataSchema<T> {
  readonly typeName: string;
  /** Never set: keeps `T` for inference. */
  readonly __data?: T;
}

export const dataSchema = <T>(typeName: string): DataSchema<T> => ({ typeName });

interface DeclarationBase<TType extends string> {
  /** `<name>.v<version>`: the envelope's `type`. */
  readonly type: TType;
  readonly name: string;
  readonly version: number;
  readonly service: EventService;
  readonly description: string;
  /**
   * Declared alike by several services (each publishes its own on its topic): one type, one data schema, one file in
   * docs/events. Only `OperatorActionRecorded.v1` is, so the audit log reads every service's operator actions as one.
   */
  readonly shared?: true;
}

export interface PublicEventDeclaration<TType extends string = string, TStored = any, TPublic = any> extends DeclarationBase<TType> {
  readonly visibility: 'public';
  readonly data: DataSchema<TPublic>;
  /** The public form of the stored data (drops internal fields and secrets); identity when they are the same. */
  readonly publicData: (data: TStored) => TPublic;
}

export interface InternalEventDeclaration<TType extends string = string> extends DeclarationBase<TType> {
  readonly visibility: 'internal';
}

export type EventDeclaration = PublicEventDeclaration<string, any, any> | InternalEventDeclaration;

interface EventSpec<N extends string, V extends number> {
  name: N;
  version: V;
  service: EventService;
  description: string;
}

/**
 * Declares one event type a service writes, once. A public event names its data type (`data`), and when what it
 * stores holds more than it publishes (internals, secrets) its projection `publicData`; an internal one only its name.
 */
export function defineEvent<const N extends string, const V extends number, TPublic>(
  spec: EventSpec<N, V> & { visibility: 'public'; data: DataSchema<TPublic>; publicData?: undefined },
): PublicEventDeclaration<`${N}.v${V}`, TPublic, TPublic>;
export function defineEvent<const N extends string, const V extends number, TPublic, TStored>(
  spec: EventSpec<N, V> & { visibility: 'public'; data: DataSchema<TPublic>; publicData: (data: TStored) => TPublic },
): PublicEventDeclaration<`${N}.v${V}`, TStored, TPublic>;
export function defineEvent<const N extends string, const V extends number>(spec: EventSpec<N, V> & { visibility: 'internal' }): InternalEventDeclaration<`${N}.v${V}`>;
export function defineEvent(spec: EventSpec<string, number> & { visibility: EventVisibility; data?: DataSchema<unknown>; publicData?: (data: unknown) => unknown }): EventDeclaration {
  const type = `${spec.name}.v${spec.version}`;
  const base = { type, name: spec.name, version: spec.version, service: spec.service, description: spec.description };
  if (spec.visibility === 'internal') return { ...base, visibility: 'internal' };
  if (!spec.data) throw new Error(`public event ${type} declares no data type`);
  return { ...base, visibility: 'public', data: spec.data, publicData: spec.publicData ?? ((data: unknown) => data) };
}

/** Every event type one service writes, public or internal, and the topic its public events go to. */
export interface EventCatalogue<TEvents extends readonly EventDeclaration[] = readonly EventDeclaration[]> {
  readonly service: EventService;
  readonly topic: string;
  readonly events: TEvents;
  /** The declaration of an envelope type, or undefined when the service never declared it. */
  declaration(type: string): TEvents[number] | undefined;
  /** The types that leave the service, in declaration order. */
  readonly publicTypes: readonly string[];
}

export function defineCatalogue<const TEvents extends readonly EventDeclaration[]>(service: EventService, events: TEvents): EventCatalogue<TEvents> {
  const byType = new Map<string, TEvents[number]>();
  for (const event of events) {
    if (event.service !== service) throw new Error(`${event.type} is declared for ${event.service}, listed in the ${service} catalogue`);
    if (byType.has(event.type)) throw new Error(`${event.type} is declared twice in the ${service} catalogue`);
    byType.set(event.type, event);
  }
  return {
    service,
    topic: eventTopicOf(service),
    events,
    declaration: (type) => byType.get(type),
    publicTypes: events.filter((e) => e.visibility === 'public').map((e) => e.type),
  };
}

// ---- Typing -------------------------------------------------------------------------------------------------------

/** An envelope whose `type` is one declared public event and whose `data` is that event's public data. */
export type DecodedEvent<TType extends string, TData> = Omit<EventEnvelope<TData>, 'type' | 'data'> & { type: TType; data: TData };

type DeclarationsOf<C> = C extends EventCatalogue<infer E> ? E[number] : never;
type DecodedOf<D> = D extends PublicEventDeclaration<infer T, any, infer P> ? DecodedEvent<T, P> : never;

/** The discriminated union (on `type`) of the public events of a catalogue, or of several (a union of catalogues). */
export type PublicEventOf<C> = DecodedOf<DeclarationsOf<C>>;

/** The public data of one declared type. */
export type PublicDataOf<C, TType extends string> = Extract<PublicEventOf<C>, { type: TType }>['data'];

type StoredDataOf<C, TType> = Extract<DeclarationsOf<C>, { type: TType }> extends PublicEventDeclaration<any, infer S, any> ? S : unknown;
type Undeclared<C, E extends { type: string }> = Exclude<E['type'], DeclarationsOf<C>['type']>;
type Mismatched<C, E extends { type: string; data: unknown }> = E extends unknown ? (E['data'] extends StoredDataOf<C, E['type']> ? never : E['type']) : never;

/**
 * `true` when every event of a service's union `E` is declared in catalogue `C` and the data it stores fits the
 * declaration's projection; otherwise a type naming the offenders. Services assert it next to their event unions:
 * `const _declared: Catalogued<typeof PAYMENTS_EVENTS, TransactionEvent> = true;`
 */
export type Catalogued<C, E extends { type: string; data: unknown }> = [Undeclared<C, E> | Mismatched<C, E>] extends [never]
  ? true
  : { undeclared: Undeclared<C, E>; dataDoesNotFitDeclaration: Mismatched<C, E> };

// ---- Runtime ------------------------------------------------------------------------------------------------------

/**
 * What the relay puts on the topic for a committed event: its public form, or undefined when the event does not
 * leave the service (declared internal, or never declared: an undeclared event is not published).
 */
export function publicEnvelope(catalogue: EventCatalogue, envelope: EventEnvelope): EventEnvelope | undefined {
  const declaration = catalogue.declaration(envelope.type);
  if (declaration?.visibility !== 'public') return undefined;
  return { ...envelope, data: declaration.publicData(envelope.data) };
}

/**
 * A consumer's view of a delivered envelope: the typed public event when the topic's catalogue declares its type
 * public, else undefined (a type this code does not know yet, or one that should never have left its service):
 * consumers ignore it.
 */
export function decode<C extends EventCatalogue<any>>(catalogue: C, envelope: EventEnvelope): PublicEventOf<C> | undefined {
  return catalogue.declaration(envelope.type)?.visibility === 'public' && isObject(envelope.data) ? (envelope as PublicEventOf<C>) : undefined;
}

/** decode() for a consumer of several topics (event type names are unique across services). */
export function decodeAny<const Cs extends readonly EventCatalogue<any>[]>(catalogues: Cs, envelope: EventEnvelope): PublicEventOf<Cs[number]> | undefined {
  for (const catalogue of catalogues) {
    const event = decode(catalogue, envelope);
    if (event) return event as PublicEventOf<Cs[number]>;
  }
  return undefined;
}

/** Narrows a decoded event to the types a consumer handles: `if (!isOneOf(event, 'CustomerCreated.v1', 'CustomerDeleted.v1')) return;` */
export function isOneOf<E extends { type: string }, const T extends E['type']>(event: E | undefined, ...types: T[]): event is Extract<E, { type: T }> {
  return event !== undefined && (types as readonly string[]).includes(event.type);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---- Projections --------------------------------------------------------------------------------------------------

/** A projection dropping top-level fields (internals such as a saga's plan). */
export const withoutFields =
  <T>(...fields: string[]) =>
  (data: T): T =>
    Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([key]) => !fields.includes(key))) as T;

/** A projection dropping fields at any depth of the data (secrets and write-only PII, e.g. a nested documentNumber). */
export const redacting =
  <T>(...fields: string[]) =>
  (data: T): T =>
    redactDeep(data, fields) as T;

function redactDeep(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, fields));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !fields.includes(key))
      .map(([key, item]) => [key, redactDeep(item, fields)]),
  );
}
