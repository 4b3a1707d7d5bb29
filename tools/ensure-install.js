#!/usr/bin/env node
// Runs before `npm start` and `npm test`: installs dependencies exactly as the lockfile says (npm ci) when
// node_modules is missing or older than package-lock.json, so those two commands are the whole set-up on a fresh machine.
const { existsSync, statSync } = require('node:fs');
const { execSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  process.stderr.write('installing dependencies (npm ci)...\n');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
