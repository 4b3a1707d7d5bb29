// class-transformer keeps its @Type() metadata in a module its package root does not re-export; the CommonJS
// build ships it without a declaration next to it, so point the types at the ones the package does publish.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
