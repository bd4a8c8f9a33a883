import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { apiBehaviourSuite } from './api-behaviour.suite';

apiBehaviourSuite('in-memory', async () => inMemoryStorage());
