// The event contract files in docs/events/, as entries of generate.js's OUTPUTS: one JSON Schema per public event
// (`<Type>.v<N>.json`: the bus envelope with its typed `data`) and the AsyncAPI 3 document of the service topics.
// What is public, its data type and its topic come from the catalogues in libs/contracts/src/events (the one
// declaration); the schemas come from the TypeScript types through type-schemas.js (the one generator).
const fs = require('node:fs');
const path = require('node:path');
const { typeSchemas } = require('./type-schemas');

const ROOT = path.resolve(__dirname, '../..');
const CONTRACTS_ENTRY = path.join(ROOT, 'libs/contracts/src/index.ts');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');
const CATALOGUES = path.join(ROOT, 'libs/contracts/src/events/catalogues.ts');
const EVENTS_DIR = 'docs/events';
const DEFINITIONS = '#/definitions/';
/** The services whose topics carry events, in document order (the webhook dispatcher writes none). */
const SERVICES = ['identity', 'accounts', 'quoting', 'payments', 'cards', 'agents'];

/**
 * The catalogues (TypeScript). Under jest (which hands every module it loads a `jest` binding) the file is transformed
 * like any other; plain node compiles the catalogue files with swc on the fly (they import only types from outside
 * libs/contracts/src/events). Node's own type stripping (on by default since Node 24) is not enough: it loads the
 * file as an ES module, whose extensionless relative imports do not resolve.
 */
function loadCatalogues() {
  if (typeof jest === 'undefined') registerTypeScript();
  return require(CATALOGUES).EVENT_CATALOGUES;
}

function registerTypeScript() {
  const { transformSync } = require('@swc/core');
  require.extensions['.ts'] = (module, filename) => {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
}

/** The public events of every service topic, in catalogue order. */
function publicEvents() {
  const catalogues = loadCatalogues();
  return SERVICES.map((service) => ({ catalogue: catalogues[service], events: catalogues[service].events.filter((e) => e.visibility === 'public') }));
}

/** Each public event type once, with every catalogue that publishes it (a shared type has several). */
function eventsByType() {
  const byType = new Map();
  for (const { catalogue, events } of publicEvents()) {
    for (const event of events) {
      const entry = byType.get(event.type) ?? { event, catalogues: [] };
      entry.catalogues.push(catalogue);
      byType.set(event.type, entry);
    }
  }
  return [...byType.values()];
}

let cached;
/** Every schema once (one TypeScript program for all of them): the envelope and the public data types. */
function schemas() {
  if (!cached) {
    const dataTypes = [...new Set(publicEvents().flatMap(({ events }) => events.map((e) => e.data.typeName)))];
    cached = typeSchemas({ path: CONTRACTS_ENTRY, tsconfig: TSCONFIG, types: ['AnyEventEnvelope', ...dataTypes], refPrefix: DEFINITIONS });
  }
  return cached;
}

/** The definitions `roots` reference, transitively, by name. */
function closure(all, roots) {
  const found = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(DEFINITIONS)) {
        const name = decodeURIComponent(value.slice(DEFINITIONS.length));
        if (!found.has(name)) {
          found.add(name);
          if (!all[name]) throw new Error(`no schema for ${name}`);
          visit(all[name]);
        }
      } else visit(value);
    }
  };
  roots.forEach(visit);
  return Object.fromEntries([...found].sort().map((name) => [name, all[name]]));
}

/** The JSON Schema of one public event's envelope: EventEnvelope with `type` fixed and `data` its declared type. */
function eventSchema(catalogues, event) {
  const all = schemas();
  let envelope = all.AnyEventEnvelope;
  while (envelope && envelope.$ref) envelope = all[decodeURIComponent(envelope.$ref.slice(DEFINITIONS.length))];
  if (!envelope || !envelope.properties) throw new Error('EventEnvelope has no schema');
  const properties = {
    ...envelope.properties,
    type: { ...envelope.properties.type, const: event.type },
    data: { $ref: `${DEFINITIONS}${encodeURIComponent(event.data.typeName)}`, description: `The public data of ${event.type}.` },
  };
  const root = { ...envelope, properties };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${event.type}.json`,
    ...root,
    title: event.type,
    description: `${event.description} Published by ${catalogues.map((c) => `${c.service} on ${c.topic}`).join(', ')} (Kafka message key: streamId). ${envelope.description ?? ''}`.trim(),
    definitions: closure(all, [root]),
  };
}

/** The AsyncAPI 3.0.0 document: one channel per service topic, one message per public event. */
function asyncApi() {
  const channels = {};
  const operations = {};
  const messages = {};
  for (const { catalogue, events } of publicEvents()) {
    const channelMessages = {};
    for (const event of events) {
      messages[event.type] = {
        name: event.type,
        title: event.type,
        summary: event.description,
        contentType: 'application/json',
        payload: { $ref: `./${event.type}.json` },
        headers: {
          type: 'object',
          properties: { eventId: { type: 'string' }, type: { type: 'string', const: event.type }, traceparent: { type: 'string' } },
          required: ['eventId', 'type'],
        },
        bindings: { kafka: { key: { type: 'string', description: "The envelope's streamId: order is kept per stream." }, bindingVersion: '0.5.0' } },
      };
      channelMessages[event.type] = { $ref: `#/components/messages/${event.type}` };
    }
    channels[catalogue.service] = {
      address: catalogue.topic,
      title: `${catalogue.service} events`,
      description: `The public events of the ${catalogue.service} service. Its internal events never leave its log.`,
      messages: channelMessages,
      bindings: { kafka: { topic: catalogue.topic, bindingVersion: '0.5.0' } },
    };
    operations[`${catalogue.service}.publish`] = {
      action: 'send',
      title: `${catalogue.service} publishes its public events`,
      channel: { $ref: `#/channels/${catalogue.service}` },
      messages: events.map((event) => ({ $ref: `#/channels/${catalogue.service}/messages/${event.type}` })),
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Payments platform events',
      version: '1.0.0',
      description:
        'The public events of every service, one topic per service. Delivery is at-least-once and ordered per stream: consumers deduplicate by eventId. Generated by npm run contracts:generate from libs/contracts/src/events; do not edit.',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}

/** @type {{ file: string, build: () => unknown }[]} one entry per generated file. */
const EVENT_OUTPUTS = [
  ...eventsByType().map(({ event, catalogues }) => ({ file: `${EVENTS_DIR}/${event.type}.json`, build: () => eventSchema(catalogues, event) })),
  // YAML 1.2 is a superset of JSON: the document is written in JSON syntax, like every generated file.
  { file: `${EVENTS_DIR}/asyncapi.json`, build: asyncApi },
];

module.exports = { EVENT_OUTPUTS, EVENTS_DIR };
