import * as t from 'io-ts';
import { ATTEMPT_OUTCOMES, CLICK_ID_NAMES, CONVERSION_KINDS, type Conversion, type ConversionAttempt } from '../../domain/conversion';
import { oneOfCodec } from './corrupt-record';

/**
 * A conversion and its attempts as every store keeps them (a JSON column, sub-documents): instants
 * in milliseconds, optional fields absent rather than null, checked when read back.
 */
export const conversionRecordCodec = t.intersection([
  t.type({
    kind: oneOfCodec(CONVERSION_KINDS, 'ConversionKind'),
    orderId: t.string,
    externalId: t.string,
    occurredAt: t.number,
    valueCents: t.number,
    currency: t.string,
  }),
  t.partial({
    click: t.intersection([
      t.type({ name: oneOfCodec(CLICK_ID_NAMES, 'ClickIdName'), value: t.string }),
      t.partial({ capturedAt: t.number }),
    ]),
    hashedEmail: t.string,
    hashedPhone: t.string,
  }),
]);

export const attemptRecordCodec = t.intersection([
  t.type({ at: t.number, durationMs: t.number, outcome: oneOfCodec(ATTEMPT_OUTCOMES, 'AttemptOutcome'), test: t.boolean }),
  t.partial({ responseStatus: t.number, reply: t.string, message: t.string }),
]);

export type ConversionRecord = t.TypeOf<typeof conversionRecordCodec>;
export type AttemptRecord = t.TypeOf<typeof attemptRecordCodec>;

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

export const conversionToRecord = (conversion: Conversion): ConversionRecord =>
  defined({
    kind: conversion.kind,
    orderId: conversion.orderId,
    externalId: conversion.externalId,
    occurredAt: conversion.occurredAt.getTime(),
    valueCents: conversion.valueCents,
    currency: conversion.currency,
    click:
      conversion.click === undefined
        ? undefined
        : defined({ name: conversion.click.name, value: conversion.click.value, capturedAt: conversion.click.capturedAt?.getTime() }),
    hashedEmail: conversion.hashedEmail,
    hashedPhone: conversion.hashedPhone,
  });

export const conversionFromRecord = (record: ConversionRecord): Conversion => {
  const { occurredAt, click, ...rest } = record;
  return {
    ...rest,
    occurredAt: new Date(occurredAt),
    ...(click === undefined
      ? {}
      : {
          click: {
            name: click.name,
            value: click.value,
            ...(click.capturedAt === undefined ? {} : { capturedAt: new Date(click.capturedAt) }),
          },
        }),
  };
};

export const attemptToRecord = (attempt: ConversionAttempt): AttemptRecord => defined({ ...attempt, at: attempt.at.getTime() });

export const attemptFromRecord = (record: AttemptRecord): ConversionAttempt => ({ ...record, at: new Date(record.at) });
