import { inMemoryStorage } from '../../src/bootstrap/storage';
import { apiBehaviourSuite } from './api-behaviour.suite';

apiBehaviourSuite('in-memory', async () => inMemoryStorage());
