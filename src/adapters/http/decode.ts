import { isLeft } from 'fp-ts/Either';
import type * as t from 'io-ts';
import { describeErrors } from './codecs/codec-kit';
import { validationFailed } from './http-errors';

/** Decodes `input` or throws VALIDATION_FAILED with every problem, paths under `prefix`. */
export const decodeOrThrow = <A, O>(codec: t.Type<A, O, unknown>, input: unknown, prefix = ''): A => {
  const result = codec.decode(input);
  if (isLeft(result)) throw validationFailed(describeErrors(result.left, prefix));
  return result.right;
};
