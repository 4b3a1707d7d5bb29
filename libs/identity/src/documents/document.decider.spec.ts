import { given } from '@payments/eventsourcing';
import { documentDecider as decider } from './document.decider';
import { DocumentEvent, DocumentFile } from './document.events';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const tenant = { platformId: 'Platform:p', mode: 'SANDBOX' as const };
const sha = (c: string) => c.repeat(64);
const file = { fileName: 'passport.pdf', contentType: 'application/pdf' as const, sizeBytes: 1234, sha256: sha('a'), fileKey: `Document:d/${sha('a')}` };
const newFile = { fileName: 'passport.png', contentType: 'image/png' as const, sizeBytes: 99, sha256: sha('b'), fileKey: `Document:d/${sha('b')}` };
const metadata = { documentType: 'PASSPORT' as const, country: 'DE', documentNumber: 'X123' };
const scope = { documentId: 'Document:d', ...tenant, documentHolder: 'Customer:c' };

const upload = { type: 'UploadDocument' as const, ...scope, metadata, file, now };
const uploaded: DocumentEvent = { type: 'DocumentUploaded.v1', data: { ...scope, ...metadata, ...file, uploadedAt: now } };
const submitted: DocumentEvent = { type: 'DocumentSubmitted.v1', data: { ...scope, submittedAt: later } };
const replace = (changes: object, replacement?: DocumentFile) => ({ type: 'ReplaceDocument' as const, ...tenant, changes, file: replacement, now: later });
const del = { type: 'DeleteDocument' as const, ...tenant, now: later };

describe('documentDecider', () => {
  it('uploads a document with its metadata and file fingerprint, never its bytes', () => {
    given(decider).when(upload).then([uploaded]);
    given(decider, [uploaded]).when(upload).thenFails('CONFLICT');
  });

  it('rejects unknown types and sides, invalid countries and bad file fingerprints, naming each field', () => {
    const error = given(decider)
      .when({ ...upload, metadata: { documentType: 'DIPLOMA' as never, side: 'TOP' as never, country: 'XX', documentNumber: '' }, file: { ...file, contentType: 'image/gif' as never } })
      .thenFails('INVALID_INPUT');
    expect((error.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['documentType', 'side', 'country', 'documentNumber', 'file']);
    given(decider).when({ ...upload, metadata: { ...metadata, country: 'de' } }).thenFails('INVALID_INPUT');
    given(decider).when({ ...upload, file: { ...file, sizeBytes: 10 * 1024 * 1024 + 1 } }).thenFails('INVALID_INPUT');
    given(decider).when({ ...upload, file: { ...file, fileName: 'a\nb.pdf' } }).thenFails('INVALID_INPUT');
  });

  it('replaces the file and merges metadata; the holder stays and the previous file key is recorded', () => {
    given(decider, [uploaded])
      .when(replace({ side: 'FRONT' }, newFile))
      .then([
        {
          type: 'DocumentReplaced.v1',
          data: { ...scope, ...metadata, side: 'FRONT', ...newFile, previousFileKey: file.fileKey, replacedAt: later },
        },
      ]);
  });

  it('appends nothing for a replacement equal to what is stored, and refuses an empty one', () => {
    given(decider, [uploaded]).when(replace({ country: 'DE' }, file)).then([]);
    given(decider, [uploaded]).when(replace({})).thenFails('INVALID_INPUT');
  });

  it('marks a document submitted once; a second mark appends nothing', () => {
    given(decider, [uploaded]).when({ type: 'MarkDocumentSubmitted', now: later }).then([submitted]);
    given(decider, [uploaded, submitted]).when({ type: 'MarkDocumentSubmitted', now: later }).then([]);
    given(decider).when({ type: 'MarkDocumentSubmitted', now: later }).thenFails('REFERENCE_NOT_FOUND');
  });

  it('deletes an unsubmitted document; a submitted one is a 409 and cannot be replaced either', () => {
    const deleted = given(decider, [uploaded]).when(del).then([{ type: 'DocumentDeleted.v1', data: { ...scope, fileKey: file.fileKey, deletedAt: later } }]);
    given(decider, [uploaded, ...deleted]).when(del).thenFails('REFERENCE_NOT_FOUND');
    given(decider, [uploaded, ...deleted]).when(replace({ side: 'BACK' })).thenFails('REFERENCE_NOT_FOUND');
    given(decider, [uploaded, ...deleted]).when({ type: 'MarkDocumentSubmitted', now: later }).thenFails('REFERENCE_NOT_FOUND');
    expect(given(decider, [uploaded, submitted]).when(del).thenFails('CONFLICT').message).toMatch(/submitted for verification/);
    given(decider, [uploaded, submitted]).when(replace({}, newFile)).thenFails('CONFLICT');
  });

  it('hides another platform\'s or mode\'s document exactly like a missing one', () => {
    given(decider, [uploaded]).when({ ...del, platformId: 'Platform:other' }).thenFails('REFERENCE_NOT_FOUND');
    given(decider, [uploaded]).when({ ...del, mode: 'PRODUCTION' }).thenFails('REFERENCE_NOT_FOUND');
    given(decider, [uploaded]).when({ ...replace({ side: 'BACK' }), mode: 'PRODUCTION' }).thenFails('REFERENCE_NOT_FOUND');
  });
});
