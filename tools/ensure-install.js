#!/usr/bin/env node
// Runs before `npm start` and `npm test`: refuses a Node.js older than package.json's engines (npm itself only warns,
// and an old runtime fails later in ways that do not name the cause), then installs dependencies exactly as the
// lockfile says (npm ci) when node_modules is missing or older than package-lock.json, so those two commands are the
// whole set-up on a fresh machine.
const { existsSync, readFileSync, statSync } = require('node:fs');
const { execSync } = require('node:child_process');
const { join } = require('node:path');
const { nodeVersionProblem } = require('./supported-node');

const root = join(__dirname, '..');
const problem = nodeVersionProblem(process.versions.node, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  process.stderr.write('installing dependencies (npm ci)...\n');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
