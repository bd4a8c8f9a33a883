// tsyringe needs the Reflect polyfill loaded before it; the tests compose services in this process.
import 'reflect-metadata';
import type { RootHookObject } from 'mocha';
import { lookForMongo } from './mongo-server';
import { skipNotices } from './optional-suites';

/**
 * Mocha's root hooks, awaited before the test files load: a suite that needs MongoDB knows whether
 * it has a server when it is declared, and is one pending line without one. After the last test, the
 * run says once which kinds of suites it skipped and how to run them.
 */
export const mochaHooks = async (): Promise<RootHookObject> => {
  await lookForMongo();
  return {
    afterAll() {
      const notices = skipNotices();
      if (notices !== '') console.warn(notices);
    },
  };
};
