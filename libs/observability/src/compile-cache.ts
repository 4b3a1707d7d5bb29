import * as nodeModule from 'node:module';

// The very first thing an entry point runs (through ./register): every module loaded after it is compiled once and
// its V8 code kept on disk, so a restarted process (a pod after a crash, a replica scaling out) loads its ~1.5 s of
// modules about a quarter faster. Node decides where (NODE_COMPILE_CACHE, else a directory under the OS temporary
// directory) and ignores an entry whose source changed; NODE_DISABLE_COMPILE_CACHE=1 turns it off. On a read-only
// file system it reports a failure and the process runs uncached. Node 20 has no such cache: nothing happens there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
