import * as t from 'io-ts';

/**
 * JSON Schema derived from io-ts codecs, so that the OpenAPI document and the validation of a request
 * cannot disagree: the structural codecs of io-ts are walked, and the few codecs of this service that
 * io-ts cannot describe (dates, money, free-form objects, keys, strict objects) carry their schema
 * beside their validation, written once from the same constants.
 */

/** The JSON Schema 2020-12 keywords the service uses, typed so that a misspelt keyword does not compile. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface Reference {
  readonly $ref: string;
  readonly description?: string;
}

export interface JsonSchema {
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly title?: string;
  readonly description?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly enum?: readonly JsonValue[];
  readonly const?: JsonValue;
  readonly default?: JsonValue;
  readonly examples?: readonly JsonValue[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly propertyNames?: JsonSchema;
  readonly minProperties?: number;
  readonly dependentRequired?: Readonly<Record<string, readonly string[]>>;
  readonly maxProperties?: number;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly allOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  /** OpenAPI's: which member of a `oneOf` a value is, by one of its properties. */
  readonly discriminator?: { readonly propertyName: string; readonly mapping: Readonly<Record<string, string>> };
  readonly not?: JsonSchema;
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
}

export interface Reference {
  readonly $ref: string;
  readonly description?: string;
}

/** What a codec's own description may ask of the walker: the schemas of the codecs inside it. */
export interface SchemaWalker {
  schemaOf(codec: t.Decoder<unknown, unknown>): JsonSchema;
  /**
   * A schema of its own in the document's components under `name`, made by `describe` the first time
   * it is asked for: how a codec names the parts of its schema that refer to each other (never `$defs`
   * inside a component, which client generators cannot resolve).
   */
  define(name: string, describe: () => JsonSchema): JsonSchema;
}

/** A codec that says what JSON Schema it accepts; with `component`, it is described once, by reference. */
export class Documented<A, O = A> extends t.Type<A, O, unknown> {
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<unknown, A>,
    encode: t.Encode<A, O>,
    readonly describe: (walker: SchemaWalker) => JsonSchema,
    readonly component?: string,
  ) {
    super(name, is, validate, encode);
  }
}

/** `codec` with its schema described by `describe`, under the component name `component` if given. */
export const documented = <A, O>(
  codec: t.Type<A, O, unknown>,
  describe: (walker: SchemaWalker) => JsonSchema,
  component?: string,
): Documented<A, O> => new Documented(codec.name, codec.is, (u, c) => codec.validate(u, c), codec.encode, describe, component);

/** `codec` as a named component of the document: `#/components/schemas/<name>`. */
export const component = <A, O>(name: string, codec: t.Type<A, O, unknown>, description?: string): Documented<A, O> =>
  documented(codec, (w) => withDescription(w.schemaOf(codec), description), name);

/** `codec` with a description where it is used (the schema of a component keeps its own). */
export const described = <A, O>(codec: t.Type<A, O, unknown>, description: string): Documented<A, O> =>
  documented(codec, (w) => ({ ...w.schemaOf(codec), description }));

const withDescription = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description === undefined ? schema : { ...schema, description };

/**
 * Walks codecs into JSON Schema, collecting the components it meets. Two different codecs under one
 * component name are a mistake, refused loudly rather than described wrongly.
 */
/** Stands for the owner of a component that `define` made rather than a codec. */
const DEFINED = t.never;

export class SchemaRegistry implements SchemaWalker {
  readonly components: Record<string, JsonSchema> = {};
  private readonly owners = new Map<string, t.Decoder<unknown, unknown>>();

  define(name: string, describe: () => JsonSchema): JsonSchema {
    const owner = this.owners.get(name);
    if (owner !== undefined && owner !== DEFINED) throw new Error(`two codecs claim the schema component ${name}`);
    if (owner === undefined) {
      this.owners.set(name, DEFINED);
      this.components[name] = describe();
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  schemaOf(codec: t.Decoder<unknown, unknown>): JsonSchema {
    if (codec instanceof Documented) {
      if (codec.component === undefined) return codec.describe(this);
      const name = codec.component;
      const owner = this.owners.get(name);
      if (owner !== undefined && owner !== codec) throw new Error(`two codecs claim the schema component ${name}`);
      if (owner === undefined) {
        this.owners.set(name, codec);
        this.components[name] = codec.describe(this);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.builtIn(codec);
  }

  /** The io-ts combinators this service uses; anything else must describe itself. */
  private builtIn(codec: t.Decoder<unknown, unknown>): JsonSchema {
    if (codec instanceof t.StringType) return { type: 'string' };
    if (codec instanceof t.NumberType) return { type: 'number' };
    if (codec instanceof t.BooleanType) return { type: 'boolean' };
    if (codec instanceof t.NullType) return { type: 'null' };
    if (codec instanceof t.UnknownType) return {};
    if (codec instanceof t.AnyDictionaryType) return { type: 'object' };
    if (codec instanceof t.LiteralType) {
      const value = codec.value as string | number | boolean;
      return { type: typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'boolean', const: value };
    }
    if (codec instanceof t.KeyofType) return { type: 'string', enum: Object.keys(codec.keys as Record<string, unknown>) };
    if (codec instanceof t.ArrayType) return { type: 'array', items: this.schemaOf(codec.type as t.Mixed) };
    if (codec instanceof t.UnionType) return { anyOf: (codec.types as t.Mixed[]).map((member) => this.schemaOf(member)) };
    if (codec instanceof t.IntersectionType) return { allOf: (codec.types as t.Mixed[]).map((member) => this.schemaOf(member)) };
    if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) {
      const props = codec.props as Record<string, t.Mixed>;
      return {
        type: 'object',
        properties: Object.fromEntries(Object.entries(props).map(([key, prop]) => [key, this.schemaOf(prop)])),
        ...(codec instanceof t.InterfaceType ? { required: Object.keys(props) } : {}),
      };
    }
    throw new Error(`the codec ${codec.name} cannot be described as JSON Schema: give it a schema with documented()`);
  }
}

/**
 * A union whose members are told apart by the value of one property (`type`), each member a named
 * component: described as `oneOf` with OpenAPI's `discriminator`, so a generated client knows which
 * type it holds.
 */
export const discriminated = <M extends readonly [t.Mixed, t.Mixed, ...t.Mixed[]]>(
  name: string,
  propertyName: string,
  members: { readonly [K in keyof M]: { readonly codec: M[K]; readonly values: readonly string[] } },
  description: string,
): Documented<t.TypeOf<M[number]>, t.OutputOf<M[number]>> => {
  const union = t.union(members.map((member) => member.codec) as unknown as [t.Mixed, t.Mixed, ...t.Mixed[]]) as t.Type<
    t.TypeOf<M[number]>,
    t.OutputOf<M[number]>,
    unknown
  >;
  return documented(union, (w) => oneOfSchema(w, propertyName, members, description), name);
};

/**
 * The schema of a value that is one of `members`, each a named component told apart by the value of
 * `propertyName`: `oneOf` with OpenAPI's `discriminator`. For a codec that checks such a value
 * another way (`documented`), as `discriminated` does for a union.
 */
export const oneOfSchema = (
  w: SchemaWalker,
  propertyName: string,
  members: readonly { readonly codec: t.Mixed; readonly values: readonly string[] }[],
  description: string,
): JsonSchema => {
  const refs = members.map((member) => w.schemaOf(member.codec));
  return {
    type: 'object',
    description,
    oneOf: refs,
    discriminator: {
      propertyName,
      mapping: Object.fromEntries(members.flatMap((member, i) => member.values.map((value) => [value, refs[i].$ref!]))),
    },
  };
};
