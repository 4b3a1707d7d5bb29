import { parseAllDocuments } from 'yaml';

/** One rendered Kubernetes object. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
}

/** The objects of a multi-document YAML stream (Helm's output), empty documents dropped; a YAML error throws. */
export function splitManifests(yaml: string): Manifest[] {
  return parseAllDocuments(yaml)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`invalid YAML: ${document.errors.map((e) => e.message).join('; ')}`);
      return document.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

type Model = new (data: unknown) => { validate(): void };

/**
 * Where the API schema of an apiVersion lives: kubernetes-models for Kubernetes' own groups (ajv validators compiled
 * from the OpenAPI spec), its prometheus-operator models for the ServiceMonitor CRD.
 */
function modelModule(apiVersion: string): string {
  return apiVersion.startsWith('monitoring.coreos.com/') ? `@kubernetes-models/prometheus-operator/${apiVersion}` : `kubernetes-models/${apiVersion}`;
}

/**
 * Why the object is not valid for the Kubernetes API (types, required fields, enums, formats), or undefined.
 * An apiVersion or kind without a schema is an error too: nothing passes unchecked. Limit of the upstream schemas:
 * a misspelled (unknown) field is not reported, so tests assert the fields that matter by value.
 */
export async function schemaViolation(manifest: Manifest): Promise<string | undefined> {
  let models: Record<string, unknown>;
  try {
    models = await import(modelModule(manifest.apiVersion));
  } catch {
    return `no API schema for apiVersion ${manifest.apiVersion}`;
  }
  const model = models[manifest.kind] as Model | undefined;
  if (typeof model !== 'function') return `no API schema for ${manifest.apiVersion} ${manifest.kind}`;
  try {
    new model(manifest).validate();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
