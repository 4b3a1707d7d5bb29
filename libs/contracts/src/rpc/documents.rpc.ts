/**
 * RPC patterns of the document endpoints (identity service). Upload and replace carry the file as base64 inside
 * the JSON message (`DocumentFilePayload`), which the 10 MB limit keeps to about 13.4 MB per message.
 */
export const DocumentsRpc = {
  upload: 'identity.documents.upload',
  list: 'identity.documents.list',
  get: 'identity.documents.get',
  replace: 'identity.documents.replace',
  delete: 'identity.documents.delete',
} as const;
