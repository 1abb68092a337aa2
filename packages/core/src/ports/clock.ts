export interface ClockPort {
  now(): Date;
}

export interface IdsPort {
  /** A new unique, URL-safe id with the given prefix, e.g. esc_... */
  next(prefix: string): string;
}

/** Message authentication for tamper-evident tokens (previews). Keyed outside core. */
export interface MacPort {
  sign(data: Uint8Array): Promise<Uint8Array>;
  verify(data: Uint8Array, tag: Uint8Array): Promise<boolean>;
}
