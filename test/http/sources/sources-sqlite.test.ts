import { temporarySqliteStorage } from '../../support/sqlite-files';
import { sourcesBehaviour } from './sources-behaviour';

describe('HTTP sources on SQLite', () => sourcesBehaviour(async () => temporarySqliteStorage()));
