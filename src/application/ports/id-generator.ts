/** Makes identifiers: opaque, unguessable, never a counter (decision 0004). */
export interface IdGenerator {
  /** A new id that starts with `prefix` and an underscore, such as `ord_…`. */
  next(
    prefix: 'ord' | 'dsh' | 'tok' | 'req' | 'evt' | 'lnk' | 'whk' | 'dlv' | 'usr' | 'inv' | 'src' | 'sdl' | 'ada' | 'lse' | 'cnv',
  ): string;
}
