/**
 * The reference UI's bundle (Scalar's standalone build), supplied by the entry point: Node reads it
 * from the package (node-assets.ts); a runtime without a file system may leave it out, and the
 * page then links the raw document only.
 */
export interface DocsBundle {
  /** Part of the bundle's URL, so browsers may keep it for good. */
  readonly version: string;
  /** The JavaScript, read once on the first request for it. */
  load(): Promise<Uint8Array<ArrayBuffer>>;
}
