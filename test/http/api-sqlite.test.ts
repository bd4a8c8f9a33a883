import { temporarySqliteStorage } from '../support/sqlite-files';
import { apiBehaviourSuite } from './api-behaviour.suite';

/** The whole HTTP suite on the SQLite store: a new file for each test, removed when its service stops. */
apiBehaviourSuite('SQLite', async () => temporarySqliteStorage());
