import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { sourcesBehaviour } from './sources-behaviour';

describe('HTTP sources on the in-memory store', () => sourcesBehaviour(async () => inMemoryStorage()));
