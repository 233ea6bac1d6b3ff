/**
 * Two projects: `unit` needs no server; `integration` shares ONE Temporal dev server and
 * ONE workflow bundle per test run (started and built in globalSetup).
 */
const transform = { '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] };

/** @type {import('jest').Config} */
module.exports = {
  // Integration tests start processes and run workflows on a shared 2-core machine: a hang fails
  // at 60 s, not a slow start at 5 s. (Jest reads this option globally, not per project.)
  testTimeout: 60_000,
  // Two test files at a time on the 2-core machines grove is tested on: integration tests spend
  // most of their time waiting on processes (the dev server, model servers, sandboxes), so a
  // second file fills that time; every test is written to hold on a busy machine.
  maxWorkers: 2,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
