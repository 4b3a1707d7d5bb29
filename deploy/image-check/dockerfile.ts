import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

/** One instruction of a Dockerfile, continuation lines joined; `stage` is the name of the FROM it belongs to. */
export interface Instruction {
  keyword: string;
  args: string;
  stage: string;
}

export function readDockerfile(file: string): Instruction[] {
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n');
  const instructions: Instruction[] = [];
  let stage = '';
  for (const line of lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword) throw new Error(`cannot read Dockerfile line: ${line}`);
    if (keyword.toUpperCase() === 'FROM') stage = /\sAS\s+(\S+)/i.exec(args)?.[1] ?? args;
    instructions.push({ keyword: keyword.toUpperCase(), args, stage });
  }
  return instructions;
}

/** A COPY: its sources (relative to the build context, or to the stage named by --from) and its destination. */
export function copyOf(instruction: Instruction): { from?: string; sources: string[]; destination: string } {
  const words = instruction.args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { from, sources: paths.slice(0, -1), destination: paths[paths.length - 1] };
}

/**
 * Whether .dockerignore lets a path (relative to the context root) into the build context, by Docker's rules: the
 * last pattern that matches the path or one of its parent directories decides, `!` re-includes; `*` and `?` stay
 * within one path segment, `**` spans any number of them.
 */
export function inBuildContext(path: string, dockerignore: string): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const candidates = ancestry(posix.normalize(path));
  let excluded = false;
  for (const raw of patterns) {
    const include = raw.startsWith('!');
    const pattern = posix.normalize((include ? raw.slice(1) : raw).replace(/^\/+/, '')).replace(/\/+$/, '');
    const regexp = globRegExp(pattern);
    if (candidates.some((c) => regexp.test(c))) excluded = !include;
  }
  return !excluded;
}

/** `a/b/c` → `a/b/c`, `a/b`, `a`. */
function ancestry(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/'));
}

function globRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (pattern.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
