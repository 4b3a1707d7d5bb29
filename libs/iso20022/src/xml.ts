import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Iso20022Error } from './errors';

/** Bank files of one day's batch are a few MB; anything far larger is not one of ours. */
export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

export interface ReadOptions {
  /** Refuse a document longer than this many bytes (default 20 MiB). */
  maxBytes?: number;
}

/** A parsed element: child elements by local name, attributes as `@_name`, text as `#text`. */
export type XmlNode = { [key: string]: unknown };

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The parser's own entity processing stays off (no DOCTYPE is accepted anyway), so the five predefined XML entities
 * and character references in text are decoded here, and nothing else is.
 */
function decodeText(_name: string, value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref];
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/**
 * Parses an ISO 20022 document whole, or refuses it: larger than the limit, carrying a DOCTYPE (no entity expansion,
 * no external references), not well-formed, or not a `Document` of the expected namespace. Values stay text
 * (`parseTagValue: false`), so amounts and identifiers are never turned into numbers.
 */
export function parseDocument(xml: string | Buffer, namespaces: readonly string[], repeated: ReadonlySet<string>, options: ReadOptions = {}): { namespace: string; document: XmlNode } {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof xml === 'string' ? Buffer.byteLength(xml, 'utf8') : xml.length;
  if (size > maxBytes) throw new Iso20022Error('TOO_LARGE', `document of ${size} bytes exceeds the limit of ${maxBytes}`);
  const text = (typeof xml === 'string' ? xml : xml.toString('utf8')).replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw new Iso20022Error('DOCTYPE_FORBIDDEN', 'document has a DOCTYPE or entity declaration; refused');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Iso20022Error('NOT_XML', `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);

  // First pass keeps prefixes and xmlns attributes to learn the root's namespace; the second reads by local names.
  const raw = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, processEntities: false, ignoreDeclaration: true, ignorePiTags: true }).parse(text) as XmlNode;
  const roots = Object.keys(raw).filter((k) => !k.startsWith('?') && k !== '#text');
  if (roots.length !== 1) throw new Iso20022Error('WRONG_MESSAGE', 'document must have exactly one root element');
  const [prefix, local] = roots[0].includes(':') ? roots[0].split(':', 2) : ['', roots[0]];
  const rootNode = raw[roots[0]];
  const namespace = rootNode && typeof rootNode === 'object' ? (rootNode as XmlNode)[prefix ? `@_xmlns:${prefix}` : '@_xmlns'] : undefined;
  if (local !== 'Document' || typeof namespace !== 'string' || !namespaces.includes(namespace)) {
    throw new Iso20022Error('WRONG_MESSAGE', `expected a Document in ${namespaces.join(' or ')}, got ${local} in ${String(namespace ?? 'no namespace')}`);
  }

  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: true,
    tagValueProcessor: decodeText,
    attributeValueProcessor: decodeText,
    isArray: (name) => repeated.has(name),
  }).parse(text) as XmlNode;
  return { namespace, document: parsed.Document as XmlNode };
}

/** Walks a parsed document with the element path kept for error messages. */
export class El {
  constructor(
    readonly node: XmlNode,
    readonly path: string,
  ) {}

  private child(name: string): unknown {
    return this.node[name];
  }

  /** A required child element, or the whole file is refused. */
  el(name: string): El {
    const v = this.opt(name);
    if (!v) throw new Iso20022Error('MISSING_ELEMENT', `${this.path}/${name} is missing`);
    return v;
  }

  opt(name: string): El | undefined {
    const v = this.child(name);
    const first = Array.isArray(v) ? v[0] : v;
    if (first === undefined || first === null) return undefined;
    return new El(typeof first === 'object' ? (first as XmlNode) : { '#text': first }, `${this.path}/${name}`);
  }

  all(name: string): El[] {
    const v = this.child(name);
    const list = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
    return list.map((n, i) => new El(typeof n === 'object' && n !== null ? (n as XmlNode) : { '#text': n }, `${this.path}/${name}[${i + 1}]`));
  }

  /** Text of a required child element (non-empty). */
  text(name: string): string {
    const v = this.optText(name);
    if (v === undefined || v === '') throw new Iso20022Error('MISSING_ELEMENT', `${this.path}/${name} is missing`);
    return v;
  }

  optText(name: string): string | undefined {
    const e = this.opt(name);
    if (!e) return undefined;
    const t = e.node['#text'];
    return t === undefined ? '' : String(t);
  }

  /** Follows a chain of optional elements (`a/b/c`) to its text. */
  at(path: string): string | undefined {
    const parts = path.split('/');
    const parent = parts.slice(0, -1).reduce<El | undefined>((e, p) => e?.opt(p), this);
    return parent?.optText(parts[parts.length - 1]) || undefined;
  }

  attr(name: string): string | undefined {
    const v = this.node[`@_${name}`];
    return v === undefined ? undefined : String(v);
  }
}
