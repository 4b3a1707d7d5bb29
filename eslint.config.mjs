// Lint: typescript-eslint recommended, Nx module boundaries (DESIGN §10), and pure deciders.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

const anyScope = ['scope:shared', 'scope:identity', 'scope:accounts', 'scope:quoting', 'scope:gateway', 'scope:platform', 'scope:webhooks', 'scope:payments', 'scope:wallet-auth', 'scope:cards', 'scope:agents'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.kafka/**', '.nx/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Lazy loading here is Node's require on demand (the admin CLI loads the service a command opens), not a
          // bundler's code split: a static import of the same library elsewhere costs nothing.
          checkDynamicDependenciesExceptions: ['@payments/*'],
          depConstraints: [
            // Kinds: apps compose services; services use adapters, utils and contracts; nothing reaches up.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:composition', 'type:service', 'type:adapters', 'type:util', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:service', 'type:adapters', 'type:util', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:adapters', 'type:util', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:adapters', onlyDependOnLibsWithTags: ['type:adapters', 'type:util', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util'] }, // the harness sits below everything it tests
            // Scopes: a service never imports another service's code; they talk over RPC and the bus.
            { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:identity', 'scope:shared'] },
            { sourceTag: 'scope:accounts', onlyDependOnLibsWithTags: ['scope:accounts', 'scope:shared'] },
            { sourceTag: 'scope:quoting', onlyDependOnLibsWithTags: ['scope:quoting', 'scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'] },
            { sourceTag: 'scope:payments', onlyDependOnLibsWithTags: ['scope:payments', 'scope:shared'] },
            { sourceTag: 'scope:wallet-auth', onlyDependOnLibsWithTags: ['scope:wallet-auth', 'scope:shared'] },
            { sourceTag: 'scope:cards', onlyDependOnLibsWithTags: ['scope:cards', 'scope:shared'] },
            { sourceTag: 'scope:agents', onlyDependOnLibsWithTags: ['scope:agents', 'scope:shared'] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: anyScope },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: anyScope },
          ],
        },
      ],
    },
  },
  {
    // Deciders and events are pure data and functions: no framework, database, bus, clock or id generator.
    files: ['**/*.decider.ts', '**/*.events.ts', 'libs/*/src/**/decide/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'express', 'uuid', 'node:crypto', 'crypto', 'node:fs', 'fs'], message: 'deciders are pure: I/O, ids and time arrive in the command' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'deciders take time from the command' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'deciders take time from the command' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'deciders are deterministic' },
      ],
    },
  },
);
