// One jest run covers every tier: *.spec.ts (pure), *.int.spec.ts (real PostgreSQL),
// *.e2e.spec.ts (through the gateway), and deploy/ (the Helm chart, the container image). Kafka suites run when KAFKA_BROKERS is set
// (and are required under CI=true).
const { compilerOptions } = require('./tsconfig.base.json');
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
}

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/deploy'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }],
    // fastify's inject (the console sends its calls through it) loads cookie 2, an ES module: Node 24 requires it as
    // is, jest's CommonJS runtime needs it compiled.
    '/node_modules/light-my-request/node_modules/cookie/.+\\.js$': ['@swc/jest', { swcrc: false, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['^(?!.*/light-my-request/node_modules/cookie/).*/node_modules/'],
  moduleNameMapper,
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.js'],
  verbose: false,
};
